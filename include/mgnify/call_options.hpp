#pragma once

// CallOptions: what one blocking call of a client may be told on its own,
// beside its arguments: a cancel token, a deadline, and whether the response
// cache takes part. Every client call that can block takes it as its last,
// defaulted parameter, so the same three switches work the same way on every
// call of every client (as google-cloud-cpp's per-call Options and the Azure
// SDK's Context do).

#include <chrono>
#include <optional>
#include <string>

#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

struct CallOptions {
  /// Once cancelled, the call ends with CancelledError within
  /// CancelToken::kPollInterval (a request in flight, a backoff or a
  /// rate-limit wait alike).
  CancelToken cancel = CancelToken::never();
  /// Past this instant the call ends with DeadlineExceededError (a
  /// TransportError of kind timeout), however many retries it had left. The one
  /// deadline of every call: a single request, a list walk (every page), a
  /// batch (every item) and a job wait alike.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Neither read nor fill ClientOptions::cache for this call: the answer
  /// comes from the service, and is not kept.
  bool bypass_cache = false;

  CallOptions() = default;
  /// So that code passing a token where a call took one still compiles.
  CallOptions(const CancelToken& token) : cancel(token) {}  // NOLINT(google-explicit-constructor)

  /// These options with a deadline `budget` from now.
  CallOptions& timeout(std::chrono::steady_clock::duration budget) {
    deadline = std::chrono::steady_clock::now() + budget;
    return *this;
  }

  /// The token the call's waits and requests watch: `cancel`, and the deadline if any.
  CancelToken token() const { return deadline ? cancel.child_until(*deadline) : cancel; }
};

namespace detail {

/// Before a step of a call that sends nothing itself (a batch item not yet
/// started): the error the call would end with, if it is to end already.
inline void throw_if_stopped(const CancelToken& token, const std::string& what) {
  if (!token.cancelled()) return;
  if (token.deadline_passed()) {
    throw DeadlineExceededError(what);
  }
  throw CancelledError(what);
}

}  // namespace detail

MGNIFY_NAMESPACE_END
