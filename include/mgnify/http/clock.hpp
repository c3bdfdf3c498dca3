#pragma once

// Time is injected so that retry, backoff and rate-limit tests run in
// microseconds and assert exact waits instead of sleeping for real.

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point now() = 0;
  /// Wall-clock time, needed to turn an HTTP-date Retry-After into a wait.
  virtual std::chrono::system_clock::time_point wall_now() = 0;
  virtual void sleep_for(std::chrono::nanoseconds duration) = 0;
  /// Sleeps like sleep_for but ends early once `cancel` is cancelled; true
  /// when it was. Real clocks wait on the token; a fake clock moves as usual.
  virtual bool sleep_or_cancel(std::chrono::nanoseconds duration, const CancelToken& cancel) {
    if (!cancel.can_be_cancelled()) {
      sleep_for(duration);
      return false;
    }
    return cancel.sleep_for(duration);
  }
};

class SystemClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point now() override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point wall_now() override {
    return std::chrono::system_clock::now();
  }
  void sleep_for(std::chrono::nanoseconds duration) override {
    if (duration > std::chrono::nanoseconds::zero()) std::this_thread::sleep_for(duration);
  }
};

/// A clock that only moves when something sleeps on it or a test advances it.
/// Every sleep is recorded so tests can assert the exact backoff sequence.
class FakeClock final : public Clock {
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

}  // namespace http
}  // namespace v0
}  // namespace mgnify
