#pragma once

// One shape for the service rigs: a running mock with one service's routes, a
// client (or a bare session) configured for speed (no rate limit, millisecond
// backoffs) pointed at it, and a record of every log event. A service is a
// small traits struct:
//   using Client;                                   the service's client (only
//                                                   for client() and fake_time_client())
//   static constexpr const char* kPrefix;           the mock's path prefix
//   static void register_routes(mock::MockServer&);
//   static std::string base_url(const mock::MockServer&);
//   static constexpr bool kFakeClock;               retry waits on `clock` by default
//   static void tune(ClientOptions&);               the service's own settings

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/default_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mock_server.hpp"
#include "support/log_capture.hpp"

namespace mgnify::test {

template <class Service>
struct ServiceRig {
  mgnify::mock::MockServer server;
  std::shared_ptr<LogCapture> log = std::make_shared<LogCapture>();
  std::shared_ptr<mgnify::testing::FakeClock> clock =
      std::make_shared<mgnify::testing::FakeClock>();

  ServiceRig() {
    Service::register_routes(server);
    server.start();
  }

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.base_url = Service::base_url(server);
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    // Clients may outlive the rig's scope in a test, so the hook holds the capture.
    auto capture = log;
    o.logger = [capture](const mgnify::http::LogEvent& e) { capture->record(e); };
    if (Service::kFakeClock) o.clock = clock;
    Service::tune(o);
    return o;
  }

  /// A client on options(); `extra` goes to the client's constructor after them.
  template <class S = Service, class... Extra>
  typename S::Client client(Extra&&... extra) const {
    return typename S::Client(options(), std::forward<Extra>(extra)...);
  }

  /// A client whose waits (retry backoff, polling) run on `clock`: instant, and recorded.
  template <class S = Service>
  typename S::Client fake_time_client() const {
    auto o = options();
    o.clock = clock;
    return typename S::Client(o);
  }

  /// A bare session on options(), which `tweak` may adjust first: for tests of
  /// the HTTP layer under the clients.
  std::unique_ptr<mgnify::http::Session> session(
      const std::function<void(mgnify::ClientOptions&)>& tweak = {}) const {
    auto o = options();
    if (tweak) tweak(o);
    return std::make_unique<mgnify::http::Session>(mgnify::with_default_transport(std::move(o)),
                                                   "");
  }

  /// The mock's path for `relative` under the service's prefix.
  std::string path(const std::string& relative) const {
    return std::string(Service::kPrefix) + "/" + relative;
  }
  /// The mock's absolute URL for `relative` under the service's prefix.
  std::string url(const std::string& relative) const { return server.origin() + path(relative); }
  /// Requests the mock received for `relative` (query excluded).
  std::size_t hits(const std::string& relative) const { return server.hits(path(relative)); }
  /// The requests the mock received for `relative` (query excluded), in order.
  std::vector<mgnify::mock::RecordedRequest> requests(const std::string& relative) const {
    std::vector<mgnify::mock::RecordedRequest> out;
    for (auto& r : server.requests()) {
      if (r.path == path(relative)) out.push_back(std::move(r));
    }
    return out;
  }
};

}  // namespace mgnify::test
