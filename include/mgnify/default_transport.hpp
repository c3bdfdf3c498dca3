#pragma once

// The one place a client's options become a curl transport. Clients call it
// when they build their session; code that builds an http::Session itself
// calls it too, unless it brings its own Transport.

#include <memory>
#include <utility>

#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

/// The session options of `options`, with a pooled CurlTransport built from
/// its connection settings unless it already names a transport.
inline http::SessionOptions with_default_transport(ClientOptions options) {
  if (!options.transport) {
    http::CurlOptions curl;
    curl.connect_timeout = options.connect_timeout;
    curl.request_timeout = options.request_timeout;
    curl.ca_bundle_path = options.ca_bundle_path;
    curl.max_body_bytes = options.max_body_bytes;
    options.transport = std::make_shared<http::CurlTransport>(std::move(curl));
  }
  return std::move(static_cast<http::SessionOptions&>(options));
}

}  // namespace v0
}  // namespace mgnify
