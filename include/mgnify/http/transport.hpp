#pragma once

// The one seam between the SDK and the network. Everything above it (redirects,
// retries, rate limiting, error mapping) lives in Session and is tested against
// testing::FakeTransport (mgnify/testing/fake_transport.hpp) without sockets.

#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

class Transport {
 public:
  virtual ~Transport() = default;
  /// Sends one request and returns whatever status came back (no redirect
  /// following, no retries). Throws TransportError when no response arrived.
  /// Implementations must be safe to call from several threads at once.
  virtual Response send(const Request& request) = 0;
};

}  // namespace http
MGNIFY_NAMESPACE_END
