#pragma once

// A running mock with the v2 routes and client options pointed at it.

#include <memory>
#include <set>
#include <string>

#include "mgnify/v2.hpp"
#include "mock/v2/v2_mock.hpp"
#include "mock_server.hpp"

namespace v2test {

namespace data = mgnify::mock::v2data;

struct Rig {
  mgnify::mock::MockServer server;

  Rig() {
    mgnify::mock::register_v2_routes(server);
    server.start();
  }

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.base_url = server.v2_url();
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.max_attempts = 2;
    o.retry.initial_backoff = std::chrono::milliseconds(1);
    o.retry.max_backoff = std::chrono::milliseconds(2);
    // Tests count requests exactly; read-ahead has its own test.
    o.read_ahead = false;
    return o;
  }
  mgnify::v2::V2Client client(mgnify::v2::V2Options v2 = {}) const { return mgnify::v2::V2Client(options(), v2); }
  std::string path(const std::string& relative) const { return std::string(mgnify::mock::kV2Prefix) + "/" + relative; }
  /// Raw targets of every request the mock saw for `relative` (path without query).
  std::size_t hits(const std::string& relative) const { return server.hits(path(relative)); }
};

template <class T, class Key>
std::set<std::string> collect_ids(mgnify::Paged<T>& paged, Key key, std::size_t& total_seen) {
  std::set<std::string> ids;
  total_seen = 0;
  for (const auto& item : paged) {
    ids.insert(key(item));
    ++total_seen;
  }
  return ids;
}

}  // namespace v2test
