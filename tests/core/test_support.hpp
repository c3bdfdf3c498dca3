#pragma once

// Helpers shared by the core tests: a session over a FakeTransport with a fake
// clock, and a running mock server.

#include <memory>
#include <string>

#include "mgnify/http/clock.hpp"
#include "mgnify/http/fake_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"

namespace test_support {

inline constexpr const char* kBase = "https://api.example.org/base";

struct FakeRig {
  std::shared_ptr<mgnify::http::FakeTransport> transport =
      std::make_shared<mgnify::http::FakeTransport>();
  std::shared_ptr<mgnify::http::FakeClock> clock = std::make_shared<mgnify::http::FakeClock>();

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.transport = transport;
    o.clock = clock;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    return o;
  }
};

}  // namespace test_support
