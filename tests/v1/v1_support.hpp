#pragma once

// Shared by the v1 tests: a running mock with the v1 routes and a client
// configured for speed (no rate limit, millisecond backoffs) that records
// every log event.

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/http/log.hpp"
#include "mgnify/v1.hpp"
#include "mock_server.hpp"

namespace v1_test {

struct Rig {
  mgnify::mock::MockServer server;
  std::shared_ptr<std::mutex> log_mutex = std::make_shared<std::mutex>();
  std::shared_ptr<std::vector<mgnify::http::LogEvent>> events =
      std::make_shared<std::vector<mgnify::http::LogEvent>>();

  Rig() {
    mgnify::mock::register_v1_routes(server);
    server.start();
  }

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.base_url = server.v1_url();
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.initial_backoff = std::chrono::milliseconds(1);
    o.retry.max_backoff = std::chrono::milliseconds(5);
    auto m = log_mutex;
    auto e = events;
    o.logger = [m, e](const mgnify::http::LogEvent& ev) {
      std::lock_guard<std::mutex> lock(*m);
      e->push_back(ev);
    };
    return o;
  }
  mgnify::v1::LegacyClient client() const { return mgnify::v1::LegacyClient(options()); }

  std::string path(const std::string& rel) const {
    return std::string(mgnify::mock::kV1Prefix) + "/" + rel;
  }
};

/// A walk in pages of `page_size`, stopping after `max_items` when given.
inline mgnify::ListOptions pages(int page_size,
                                 std::optional<std::size_t> max_items = std::nullopt) {
  mgnify::ListOptions list;
  list.page_size = page_size;
  list.max_items = max_items;
  return list;
}

/// A walk in the server's pages, stopping after `max_items`.
inline mgnify::ListOptions at_most(std::size_t max_items) {
  mgnify::ListOptions list;
  list.max_items = max_items;
  return list;
}

}  // namespace v1_test
