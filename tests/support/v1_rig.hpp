#pragma once

// The v1 rig: a running mock with the v1 routes and a LegacyClient pointed at
// it, and the list options the v1 tests walk with.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "mgnify/v1.hpp"
#include "mock_server.hpp"
#include "support/rig.hpp"

namespace mgnify::test {

struct V1Service {
  using Client = mgnify::v1::LegacyClient;
  static constexpr const char* kPrefix = mgnify::mock::kV1Prefix;
  static constexpr bool kFakeClock = false;
  static void register_routes(mgnify::mock::MockServer& server) {
    mgnify::mock::register_v1_routes(server);
  }
  static std::string base_url(const mgnify::mock::MockServer& server) { return server.v1_url(); }
  static void tune(mgnify::ClientOptions& o) {
    o.retry.initial_backoff = std::chrono::milliseconds(1);
    o.retry.max_backoff = std::chrono::milliseconds(5);
  }
};

using V1Rig = ServiceRig<V1Service>;

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

}  // namespace mgnify::test
