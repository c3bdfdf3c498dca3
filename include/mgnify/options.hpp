#pragma once

// One plain struct configures every client: the session's pipeline settings
// (http::SessionOptions) plus the connection settings of the default curl
// transport. Defaults are safe for the public services; tests and benchmarks
// override transport, clock and rate limit.

#include <chrono>
#include <string>

#include "mgnify/http/session_options.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

struct ClientOptions : http::SessionOptions {
  // Used only when `transport` is null, for the default CurlTransport.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Whole-request limit, transfer included.
  std::chrono::milliseconds request_timeout{120'000};
  /// CA bundle (PEM) to verify servers against; empty means the system store.
  /// There is deliberately no switch to turn verification off.
  std::string ca_bundle_path;
};

MGNIFY_NAMESPACE_END
