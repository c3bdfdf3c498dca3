#pragma once

// Work that must happen when the Catch run ends, before exit() destroys static
// storage: tests/catch_main.cpp runs it after the session returns.

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace mgnify::test {

namespace detail {

struct RunEndHooks {
  std::mutex mutex;
  std::vector<std::function<void()>> hooks;
};

// Never destroyed, so that a hook added from static storage stays valid.
inline RunEndHooks& run_end_registry() {
  static auto* hooks = new RunEndHooks();
  return *hooks;
}

}  // namespace detail

/// `hook` runs when the test run ends (finish_test_run()).
inline void at_run_end(std::function<void()> hook) {
  auto& registry = detail::run_end_registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.hooks.push_back(std::move(hook));
}

/// Runs what at_run_end() registered. The registry keeps its hooks, and what
/// they hold stays reachable for the leak checker that runs after them.
inline void finish_test_run() {
  std::vector<std::function<void()>> hooks;
  {
    auto& registry = detail::run_end_registry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    hooks = registry.hooks;
  }
  for (auto& hook : hooks) hook();
}

}  // namespace mgnify::test
