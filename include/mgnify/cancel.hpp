#pragma once

// CancelToken: one way to stop any blocking call of the SDK from another
// thread. A walk, a request in flight, a retry's backoff and a rate-limit wait
// all check the token they were given; once it is cancelled they end within
// a few tens of milliseconds with CancelledError.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// The operation was cancelled through its CancelToken. Nothing partial is
/// returned; a download keeps its .part file for a later resume.
class CancelledError : public Error {
 public:
  MGNIFY_ERROR_CLONE(CancelledError)
  explicit CancelledError(const std::string& what) : Error("cancelled: " + what) {}
};

/// Copies share one flag: cancelling any copy cancels them all. Thread-safe.
class CancelToken {
 public:
  /// A fresh token, not cancelled.
  CancelToken() : state_(std::make_shared<State>()) {}

  /// A token that is never cancelled and costs nothing (the default of
  /// options that take a token).
  static CancelToken never() noexcept { return CancelToken(nullptr); }

  /// A token cancelled when this one is, and also on its own.
  CancelToken child() const {
    CancelToken out;
    out.state_->parent = state_;
    return out;
  }
  /// A token cancelled when this one or `other` is, and also on its own: a
  /// walk's own token also stopped by the token of its list call.
  CancelToken child(const CancelToken& other) const {
    CancelToken out = child();
    out.state_->other_parent = other.state_;
    return out;
  }
  /// A token cancelled when this one is, and by itself once `deadline` is
  /// reached: a call's time budget. Waits see the deadline within kPollInterval.
  CancelToken child_until(std::chrono::steady_clock::time_point deadline) const {
    CancelToken out = child();
    out.state_->deadline = deadline;
    return out;
  }

  /// True when a deadline of this token (or of a token it derives from) has
  /// passed: the call ran out of time rather than being stopped.
  bool deadline_passed() const noexcept {
    return deadline_passed(state_.get(), std::chrono::steady_clock::now());
  }

  void cancel() const noexcept {
    if (!state_) return;
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->cancelled.store(true, std::memory_order_release);
    }
    state_->changed.notify_all();
  }

  bool cancelled() const noexcept { return cancelled(state_.get()); }

  /// False for never(): nothing needs to watch this token.
  bool can_be_cancelled() const noexcept { return state_ != nullptr; }

  /// Throws CancelledError naming `what` when cancelled.
  void throw_if_cancelled(const std::string& what) const {
    if (cancelled()) throw CancelledError(what);
  }

  /// Sleeps for `duration` or until cancelled; true when cancelled. A
  /// cancelled parent is seen within kPollInterval.
  bool sleep_for(std::chrono::nanoseconds duration) const {
    const auto deadline = std::chrono::steady_clock::now() + duration;
    if (!state_) {
      std::this_thread::sleep_until(deadline);
      return false;
    }
    std::unique_lock<std::mutex> lock(state_->mutex);
    for (;;) {
      if (cancelled()) return true;
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return false;
      const auto step =
          std::min<std::chrono::steady_clock::duration>(deadline - now, kPollInterval);
      state_->changed.wait_for(lock, step);
    }
  }

  /// How often blocking calls look at a token they cannot be woken by.
  static constexpr std::chrono::milliseconds kPollInterval{20};

 private:
  struct State {
    std::atomic<bool> cancelled{false};
    std::shared_ptr<const State> parent;
    std::shared_ptr<const State> other_parent;
    // max(): none. Only child_until sets it, so other tokens never read the clock.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    std::mutex mutex;
    std::condition_variable changed;
  };
  explicit CancelToken(std::nullptr_t) noexcept {}

  static bool cancelled(const State* state) noexcept {
    for (const State* s = state; s; s = s->parent.get()) {
      if (s->cancelled.load(std::memory_order_acquire)) return true;
      if (s->deadline != std::chrono::steady_clock::time_point::max() &&
          std::chrono::steady_clock::now() >= s->deadline) {
        return true;
      }
      if (s->other_parent && cancelled(s->other_parent.get())) return true;
    }
    return false;
  }

  static bool deadline_passed(const State* state,
                              std::chrono::steady_clock::time_point now) noexcept {
    for (const State* s = state; s; s = s->parent.get()) {
      if (s->deadline != std::chrono::steady_clock::time_point::max() && now >= s->deadline) {
        return true;
      }
      if (s->other_parent && deadline_passed(s->other_parent.get(), now)) return true;
    }
    return false;
  }

  std::shared_ptr<State> state_;
};

MGNIFY_NAMESPACE_END
