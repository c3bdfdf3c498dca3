#pragma once

// The auth step: attaches the bearer token to requests for the base URL's
// origin and, where the service can refresh tokens, answers a 401 to a call
// that carried one by refreshing it once and repeating the call. Every
// request takes this step, downloads and streamed bodies included.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/request_headers.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// How a service recovers from a rejected token.
struct TokenRefresh {
  /// Returns the replacement for a rejected token, or throws when the service
  /// refuses. `cancel` is the token of the call that was rejected (its cancel
  /// and deadline): the refresh is part of that call. Empty: tokens are never
  /// refreshed.
  std::function<std::string(const std::string& rejected, const CancelToken& cancel)> refresh;
  /// When the token cannot be refreshed, or its replacement is rejected too,
  /// forget it and repeat the call without one instead of failing.
  bool anonymous_fallback = false;
  /// Appended to the text of a 404 answered to a call that carried a token
  /// (a service may hide objects the token's owner may not see).
  std::string not_found_hint;
};

class TokenAuth {
 public:
  explicit TokenAuth(std::optional<std::string> token) { set(std::move(token)); }

  /// A token with CR, LF or NUL (even one a server issued) is refused with
  /// InvalidArgument: it would add header lines of its own.
  void set(std::optional<std::string> token) {
    if (token) check_header_value("token", *token);
    std::lock_guard<std::mutex> lock(token_mutex_);
    token_ = std::move(token);
  }
  std::optional<std::string> get() const {
    std::lock_guard<std::mutex> lock(token_mutex_);
    return token_;
  }

  void set_refresh(TokenRefresh policy) {
    const RefreshTurn turn(*this, nullptr);
    std::lock_guard<std::mutex> token_lock(token_mutex_);
    policy_ = std::move(policy);
  }
  std::string not_found_hint() const {
    std::lock_guard<std::mutex> lock(token_mutex_);
    return policy_.not_found_hint;
  }

  /// Sets Authorization when `send` and there is a token; returns the token sent.
  std::optional<std::string> attach(Request& request, bool send) const {
    if (!send) return std::nullopt;
    auto token = get();
    if (token) request.headers.set("Authorization", "Bearer " + *token);
    return token;
  }

  /// After the `rejections`-th 401 to a call that carried `sent`: true when
  /// the call should be repeated with whatever token is now current. Throws
  /// AuthError, with the reason in its hint, when refreshing fails and there
  /// is no fallback; a refresh ended by `cancel` (the call's token) ends the
  /// call with the error the refresh ended with.
  bool repeat_after_rejection(const std::string& sent, const AuthError& rejected, int rejections,
                              const CancelToken& cancel) {
    // Another call's refresh may hang up to its own deadline: this call's
    // cancel and deadline end the wait for it.
    const RefreshTurn turn(*this, &cancel);
    if (!policy_.refresh && !policy_.anonymous_fallback) return false;
    if (rejections == 1) {
      // Several threads may hold the same rejected token; only the first refreshes.
      if (get() != std::optional<std::string>(sent)) return true;
      if (!policy_.refresh) return fall_back();
      try {
        set(policy_.refresh(sent, cancel));
        return true;
      } catch (const Error& refresh_failure) {
        // Stopped by the caller (CancelledError) or out of its time (a timeout):
        // neither is the service refusing the token.
        if (cancel.cancelled()) throw;
        if (fall_back()) return true;
        ApiErrorInfo info = rejected.info();
        info.hint = std::string("the token was rejected and refreshing it failed (") +
                    refresh_failure.what() + ")";
        throw AuthError(std::move(info));
      }
    }
    return rejections == 2 && fall_back();
  }

 private:
  bool fall_back() {
    if (!policy_.anonymous_fallback) return false;
    set(std::nullopt);
    return true;
  }

  /// One call's turn at the refresh (or at changing the policy), so that one
  /// rejected token is refreshed once. Waiting for it polls `cancel` (when
  /// given) every CancelToken::kPollInterval; a timed mutex would do the same,
  /// but ThreadSanitizer does not see its timed lock and reports its unlock.
  class RefreshTurn {
   public:
    RefreshTurn(TokenAuth& auth, const CancelToken* cancel) : auth_(auth) {
      std::unique_lock<std::mutex> lock(auth_.turn_mutex_);
      while (auth_.refreshing_) {
        auth_.turn_free_.wait_for(lock, CancelToken::kPollInterval);
        if (cancel && auth_.refreshing_) {
          mgnify::detail::throw_if_stopped(*cancel, "waiting for another call's token refresh");
        }
      }
      auth_.refreshing_ = true;
    }
    ~RefreshTurn() {
      {
        std::lock_guard<std::mutex> lock(auth_.turn_mutex_);
        auth_.refreshing_ = false;
      }
      auth_.turn_free_.notify_one();
    }
    RefreshTurn(const RefreshTurn&) = delete;
    RefreshTurn& operator=(const RefreshTurn&) = delete;

   private:
    TokenAuth& auth_;
  };

  mutable std::mutex token_mutex_;
  std::optional<std::string> token_;
  std::mutex turn_mutex_;
  std::condition_variable turn_free_;
  bool refreshing_ = false;  // a RefreshTurn is held; under turn_mutex_
  TokenRefresh policy_;      // written during a turn under token_mutex_, read under either
};

}  // namespace http
MGNIFY_NAMESPACE_END
