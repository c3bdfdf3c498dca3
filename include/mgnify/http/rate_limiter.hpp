#pragma once

// Client-side pacing. MGnify asks clients to be considerate and throttles
// bursts; a token bucket shared by every thread of one client keeps a batch
// of concurrent fetches under the configured rate instead of provoking 429s.
//
// Adaptive pacing (AIMD, as TCP does for congestion): a throttled response
// seen by any thread halves the shared rate, and each later response the
// server accepted gives back a small fixed step, never beyond the configured
// rate. The server's own limit is unknown and may change; probing upwards
// slowly and backing off sharply settles just under it for the whole client,
// where per-thread backoff alone lets every other thread keep hammering.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>

#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

struct RateLimitOptions {
  bool enabled = true;
  /// Sustained rate: polite for a public service, and well above what a
  /// serial loop achieves at MGnify's typical latency.
  double requests_per_second = 10.0;
  /// Requests that may go out at once after a quiet period.
  double burst = 10.0;
  /// Slow the whole client down after a 429 (or a 503 with Retry-After) and
  /// hold every thread until a Retry-After has passed; see RateLimiter. Only
  /// while `enabled`: unlimited() is a promise that the client never waits.
  bool adaptive = true;

  static RateLimitOptions unlimited() {
    RateLimitOptions o;
    o.enabled = false;
    return o;
  }
};

/// Token bucket shared by every thread of a session, with adaptive pacing:
///
/// - decrease: on_throttled() halves the current rate, down to a floor of
///   configured/64 (but at least 0.1 per second, or the configured rate when
///   that is lower). Requests whose token was taken before the last decrease
///   belong to the episode that caused it: their 429s do not halve again, so
///   eight threads throttled at once cost one halving, not eight.
/// - recovery: each response the server accepted (on_accepted()) for a
///   request paced at the current rate adds configured/64, so about 32
///   accepted responses undo one halving. The rate never exceeds the
///   configured one. Saved-up burst shrinks with the rate.
/// - hold: a Retry-After passed to on_throttled() keeps every thread's next
///   request until that moment, not only the thread that received it.
class RateLimiter {
 public:
  /// Identifies the pacing episode a request was sent in; acquire() hands it
  /// out, on_throttled() and on_accepted() take it back.
  struct Ticket {
    std::uint64_t epoch = 0;
  };

  /// Share of the configured rate that one halving may not go below, and that
  /// one accepted response gives back.
  static constexpr double kStepDivisor = 64.0;
  /// Absolute floor (requests per second): a rate this low still sends one
  /// request every ten seconds, so pacing can never stall a client for good.
  static constexpr double kMinimumRate = 0.1;

  RateLimiter(RateLimitOptions options, std::shared_ptr<Clock> clock)
      : options_(options), clock_(std::move(clock)) {
    if (options_.enabled && (!(options_.requests_per_second > 0) || !(options_.burst >= 1))) {
      throw InvalidArgument("rate limit needs requests_per_second > 0 and burst >= 1");
    }
    rate_ = options_.requests_per_second;
    floor_ = std::min(rate_, std::max(kMinimumRate, rate_ / kStepDivisor));
    tokens_ = options_.burst;
    last_ = clock_->now();
    hold_until_ = last_;
  }

  /// Takes one token, sleeping (outside the lock) until it is available.
  /// Reservations let waiting threads queue fairly: each one owes its own slot.
  /// Throws CancelledError when `cancel` is cancelled during the wait.
  Ticket acquire(const CancelToken& cancel = CancelToken::never()) {
    if (!options_.enabled) return {};
    Ticket ticket;
    std::chrono::nanoseconds wait{0};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto now = clock_->now();
      refill(now);
      ticket.epoch = epoch_;
      tokens_ -= 1.0;
      // last_ is in the future while a Retry-After holds the client; the slot
      // is counted from there.
      const auto ready =
          last_ + (tokens_ < 0 ? to_nanoseconds(-tokens_ / rate_) : std::chrono::nanoseconds(0));
      wait = std::chrono::duration_cast<std::chrono::nanoseconds>(ready - now);
    }
    sleep(wait, cancel);
    // A slot reserved before a Retry-After arrived would otherwise end inside the hold.
    for (int round = 0; round < 8; ++round) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        wait = std::chrono::duration_cast<std::chrono::nanoseconds>(hold_until_ - clock_->now());
      }
      if (wait.count() <= 0) break;
      sleep(wait, cancel);
    }
    return ticket;
  }

  /// A 429, or a 503 with Retry-After, for a request paced by `ticket`.
  /// `hold` (the server's Retry-After, already clamped by the caller) makes
  /// every thread wait that long from now.
  void on_throttled(Ticket ticket, std::chrono::nanoseconds hold = std::chrono::nanoseconds(0)) {
    if (!options_.enabled || !options_.adaptive) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = clock_->now();
    refill(now);
    if (hold.count() > 0 && now + hold > hold_until_) {
      hold_until_ = now + hold;
      // Nothing saved up may go out the moment the hold ends.
      last_ = std::max(last_, hold_until_);
      tokens_ = std::min(tokens_, 1.0);
    }
    if (ticket.epoch != epoch_) return;  // already slowed down for this episode
    ++epoch_;
    rate_ = std::max(floor_, rate_ / 2);
    tokens_ = std::min(tokens_, capacity());
  }

  /// The server answered a request paced by `ticket` without throttling it.
  void on_accepted(Ticket ticket) {
    if (!options_.enabled || !options_.adaptive) return;
    std::lock_guard<std::mutex> lock(mutex_);
    // Answers to requests sent at a faster, older rate say nothing about the current one.
    if (ticket.epoch != epoch_ || rate_ >= options_.requests_per_second) return;
    refill(clock_->now());
    rate_ =
        std::min(options_.requests_per_second, rate_ + options_.requests_per_second / kStepDivisor);
  }

  /// Requests per second the limiter currently allows: the configured rate,
  /// or less after throttling; infinity when the limiter is off.
  double current_rate() const {
    if (!options_.enabled) return std::numeric_limits<double>::infinity();
    std::lock_guard<std::mutex> lock(mutex_);
    return rate_;
  }

  /// The lowest rate adaptive pacing slows down to.
  double floor_rate() const noexcept { return floor_; }

  const RateLimitOptions& options() const noexcept { return options_; }

 private:
  static std::chrono::nanoseconds to_nanoseconds(double seconds) {
    return std::chrono::nanoseconds(static_cast<std::int64_t>(seconds * 1e9));
  }

  double capacity() const {
    return std::max(1.0, options_.burst * rate_ / options_.requests_per_second);
  }

  // Caller holds mutex_.
  void refill(std::chrono::steady_clock::time_point now) {
    if (now <= last_) return;
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(capacity(), tokens_ + elapsed * rate_);
  }

  void sleep(std::chrono::nanoseconds wait, const CancelToken& cancel) {
    if (wait.count() > 0 && clock_->sleep_or_cancel(wait, cancel)) {
      throw CancelledError("waiting for the rate limit");
    }
  }

  RateLimitOptions options_;
  std::shared_ptr<Clock> clock_;
  mutable std::mutex mutex_;
  double tokens_ = 0;
  double rate_ = 0;
  double floor_ = 0;
  std::uint64_t epoch_ = 0;
  std::chrono::steady_clock::time_point last_;
  std::chrono::steady_clock::time_point hold_until_;
};

}  // namespace http
MGNIFY_NAMESPACE_END
