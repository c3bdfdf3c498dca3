#pragma once

// The v2 rig: a running mock with the v2 routes and a V2Client pointed at it.

#include <chrono>
#include <cstddef>
#include <set>
#include <string>

#include "mgnify/v2.hpp"
#include "mock/v2/v2_mock.hpp"
#include "mock_server.hpp"
#include "support/rig.hpp"

namespace mgnify::test {

struct V2Service {
  using Client = mgnify::v2::V2Client;
  static constexpr const char* kPrefix = mgnify::mock::kV2Prefix;
  static constexpr bool kFakeClock = false;
  // Every test of this rig asks v2 something, many against a deadline: the data set is
  // built before the first of them, as it would be lazily anyway.
  static void register_routes(mgnify::mock::MockServer& server) {
    mgnify::mock::register_v2_routes(server);
    mgnify::mock::prepare_v2_data();
  }
  static std::string base_url(const mgnify::mock::MockServer& server) { return server.v2_url(); }
  static void tune(mgnify::ClientOptions& o) {
    o.retry.max_attempts = 2;
    o.retry.initial_backoff = std::chrono::milliseconds(1);
    o.retry.max_backoff = std::chrono::milliseconds(2);
    // Tests count requests exactly; read-ahead has its own test.
    o.read_ahead = false;
  }
};

using V2Rig = ServiceRig<V2Service>;

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

}  // namespace mgnify::test
