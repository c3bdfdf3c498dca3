#pragma once

// Client-side pacing. MGnify asks clients to be considerate and throttles
// bursts; a token bucket shared by every thread of one client keeps a batch
// of concurrent fetches under the configured rate instead of provoking 429s.

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>

#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

struct RateLimitOptions {
  bool enabled = true;
  /// Sustained rate. Ten per second is polite for a public service and still
  /// ten times what a serial loop at MGnify's typical latency achieves.
  double requests_per_second = 10.0;
  /// Requests that may go out at once after a quiet period.
  double burst = 10.0;

  static RateLimitOptions unlimited() {
    RateLimitOptions o;
    o.enabled = false;
    return o;
  }
};

class RateLimiter {
 public:
  RateLimiter(RateLimitOptions options, std::shared_ptr<Clock> clock)
      : options_(options), clock_(std::move(clock)) {
    if (options_.enabled && (!(options_.requests_per_second > 0) || !(options_.burst >= 1))) {
      throw InvalidArgument("rate limit needs requests_per_second > 0 and burst >= 1");
    }
    tokens_ = options_.burst;
    last_ = clock_->now();
  }

  /// Takes one token, sleeping (outside the lock) until it is available.
  /// Reservations let waiting threads queue fairly: each one owes its own slot.
  /// Throws CancelledError when `cancel` is cancelled during the wait.
  void acquire(const CancelToken& cancel = CancelToken::never()) {
    if (!options_.enabled) return;
    std::chrono::nanoseconds wait{0};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto now = clock_->now();
      const double elapsed = std::chrono::duration<double>(now - last_).count();
      last_ = now;
      tokens_ = std::min(options_.burst, tokens_ + elapsed * options_.requests_per_second);
      tokens_ -= 1.0;
      if (tokens_ < 0) {
        wait = std::chrono::nanoseconds(
            static_cast<std::int64_t>(-tokens_ / options_.requests_per_second * 1e9));
      }
    }
    if (wait.count() > 0 && clock_->sleep_or_cancel(wait, cancel)) {
      throw CancelledError("waiting for the rate limit");
    }
  }

  const RateLimitOptions& options() const noexcept { return options_; }

 private:
  RateLimitOptions options_;
  std::shared_ptr<Clock> clock_;
  std::mutex mutex_;
  double tokens_ = 0;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace http
}  // namespace v0
}  // namespace mgnify
