#pragma once

// A Clock for tests: retry, backoff, rate-limit and polling code runs in
// microseconds and the test asserts the exact waits instead of sleeping.
// A test double, so not part of the umbrella header mgnify.hpp.

#include <chrono>
#include <mutex>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace testing {

/// A clock that only moves when something sleeps on it or a test advances it.
/// Every sleep is recorded so tests can assert the exact backoff sequence.
class FakeClock final : public http::Clock {
 public:
  FakeClock()
      : steady_(std::chrono::steady_clock::time_point{} + std::chrono::hours(1)),
        wall_(std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 50)) {}

  std::chrono::steady_clock::time_point now() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return steady_;
  }
  std::chrono::system_clock::time_point wall_now() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return wall_;
  }
  void sleep_for(std::chrono::nanoseconds duration) override {
    std::lock_guard<std::mutex> lock(mutex_);
    sleeps_.push_back(duration);
    if (duration > std::chrono::nanoseconds::zero()) {
      steady_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>(duration);
      wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(duration);
    }
  }
  bool sleep_or_cancel(std::chrono::nanoseconds duration, const CancelToken& cancel) override {
    sleep_for(duration);
    return cancel.cancelled();
  }
  void advance(std::chrono::nanoseconds duration) {
    std::lock_guard<std::mutex> lock(mutex_);
    steady_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>(duration);
    wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(duration);
  }
  void set_wall(std::chrono::system_clock::time_point t) {
    std::lock_guard<std::mutex> lock(mutex_);
    wall_ = t;
  }
  std::vector<std::chrono::nanoseconds> sleeps() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleeps_;
  }
  std::chrono::nanoseconds total_slept() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::chrono::nanoseconds total{0};
    for (auto s : sleeps_) total += s;
    return total;
  }

 private:
  mutable std::mutex mutex_;
  std::chrono::steady_clock::time_point steady_;
  std::chrono::system_clock::time_point wall_;
  std::vector<std::chrono::nanoseconds> sleeps_;
};

}  // namespace testing
MGNIFY_NAMESPACE_END
