#pragma once

// Helpers shared by the core tests: a session over a FakeTransport with a fake
// clock, options for a libcurl session against the mock, and the rig of the
// mock's own /test routes.

#include <chrono>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/default_transport.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/log.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mgnify/testing/fake_transport.hpp"
#include "mock_server.hpp"
#include "support/http_date.hpp"
#include "support/log_capture.hpp"
#include "support/rig.hpp"

namespace mgnify::test {

using namespace std::chrono_literals;

inline constexpr const char* kBase = "https://api.example.org/base";

/// Retries that cost nothing: a fake clock absorbs the waits, and backoffs are
/// tiny so that a test that forgets the fake clock still runs fast.
inline mgnify::http::RetryOptions fast_retry(int max_attempts = 4) {
  mgnify::http::RetryOptions r;
  r.max_attempts = max_attempts;
  r.initial_backoff = std::chrono::milliseconds(1);
  r.max_backoff = std::chrono::milliseconds(8);
  return r;
}

struct FakeRig {
  std::shared_ptr<mgnify::testing::FakeTransport> transport =
      std::make_shared<mgnify::testing::FakeTransport>();
  std::shared_ptr<mgnify::testing::FakeClock> clock =
      std::make_shared<mgnify::testing::FakeClock>();

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.transport = transport;
    o.clock = clock;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    return o;
  }

  /// A session on kBase (or `base`) whose options `tweak` may adjust first.
  std::unique_ptr<mgnify::http::Session> session(
      const std::function<void(mgnify::ClientOptions&)>& tweak = {},
      const std::string& base = kBase) const {
    auto o = options();
    o.retry = fast_retry();
    if (tweak) tweak(o);
    return std::make_unique<mgnify::http::Session>(mgnify::with_default_transport(std::move(o)),
                                                   base);
  }

  /// kBase + "/" + path.
  static std::string url(const std::string& path) { return std::string(kBase) + "/" + path; }

  std::vector<mgnify::http::Request> requests() const { return transport->requests(); }
  std::vector<std::chrono::nanoseconds> sleeps() const { return clock->sleeps(); }
};

/// A rate limit of `per_second` requests, `burst` of them at once.
inline mgnify::http::RateLimitOptions paced(double per_second, double burst) {
  mgnify::http::RateLimitOptions o;
  o.requests_per_second = per_second;
  o.burst = burst;
  return o;
}

/// Tiny backoffs and short timeouts for a real CurlTransport against the mock.
inline void tune_for_curl(mgnify::ClientOptions& o, int max_attempts = 3) {
  o.retry = fast_retry(max_attempts);
  o.connect_timeout = std::chrono::milliseconds(2000);
  o.request_timeout = std::chrono::milliseconds(5000);
}

/// Options for a real CurlTransport session against the mock: no rate limit, a
/// fake clock so retry waits are recorded instead of slept, short timeouts.
inline mgnify::ClientOptions curl_options(const std::shared_ptr<mgnify::testing::FakeClock>& clock,
                                          int max_attempts = 3) {
  mgnify::ClientOptions o;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.clock = clock;
  tune_for_curl(o, max_attempts);
  return o;
}

/// The mock's own routes under /test (echo, redirects), no service's: for the HTTP
/// layer's tests, through a bare session (rig.session()).
struct TestRoutesService {
  static constexpr const char* kPrefix = "";
  static constexpr bool kFakeClock = true;
  static void register_routes(mgnify::mock::MockServer&) {}
  static std::string base_url(const mgnify::mock::MockServer& server) { return server.origin(); }
  static void tune(mgnify::ClientOptions& o) { tune_for_curl(o); }
};

using TestRoutesRig = ServiceRig<TestRoutesService>;

/// The session's transport as the CurlTransport it was built with.
inline mgnify::http::CurlTransport& curl_of(mgnify::http::Session& session) {
  return dynamic_cast<mgnify::http::CurlTransport&>(session.transport());
}

inline std::vector<std::chrono::nanoseconds> ns_list(
    std::initializer_list<std::chrono::nanoseconds> l) {
  return std::vector<std::chrono::nanoseconds>(l);
}

/// The integers from..to, both included.
inline std::vector<int> iota_vector(int from, int to) {
  std::vector<int> v;
  for (int i = from; i <= to; ++i) v.push_back(i);
  return v;
}

/// Upper bound for waiting on another thread's progress. Passing tests never
/// wait this long; it only keeps a broken worker from hanging the suite.
inline constexpr auto kPatience = std::chrono::seconds(10);

}  // namespace mgnify::test
