#pragma once

// Body of with_default_transport (mgnify/default_transport.hpp): the only
// caller of the curl transport's constructor among the clients.

#include <memory>
#include <utility>

#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session_options.hpp"
#include "mgnify/options.hpp"

MGNIFY_NAMESPACE_BEGIN

MGNIFY_DECL http::SessionOptions with_default_transport(ClientOptions options) {
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

MGNIFY_NAMESPACE_END
