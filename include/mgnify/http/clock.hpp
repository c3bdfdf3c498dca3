#pragma once

// Time is injected so that retry, backoff and rate-limit tests run in
// microseconds and assert exact waits instead of sleeping for real.

#include <chrono>
#include <thread>

#include "mgnify/cancel.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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

}  // namespace http
MGNIFY_NAMESPACE_END
