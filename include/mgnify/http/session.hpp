#pragma once

// The pipeline every request of every client goes through, one step per header:
//   headers (request_headers.hpp: Accept, User-Agent, extra headers)
//   -> auth (token_auth.hpp: the bearer token; a 401 refreshes it once where
//      the service can, and repeats the call)
//   -> response cache (response_store.hpp; opt-in, a hit ends here)
//   -> retry with backoff (retry.hpp) on throttling, 5xx and network failures
//      (idempotent only, except a 429/503 with Retry-After: the server did not
//      act on it); throttling slows the shared rate (rate_limiter.hpp)
//   -> redirects (redirects.hpp: recorded, loop-checked, credentials dropped
//      off-origin), each hop after the rate limit
//   -> transport (transport.hpp; the only code that knows curl)
//   -> error mapping (status + body -> typed exception).
// Logging (request_log.hpp) watches every step. Fixing a behaviour here fixes
// it for all three services, and for downloads, at once.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/rate_limiter.hpp"
#include "mgnify/http/redirects.hpp"
#include "mgnify/http/request_headers.hpp"
#include "mgnify/http/request_log.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/session_options.hpp"
#include "mgnify/http/token_auth.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

/// Per-call switches.
struct CallOptions {
  /// Attach the session's bearer token (if any).
  bool send_token = true;
  /// Appended to the text of a 404 from this call (for example the v2 hint
  /// that private objects answer 404 to callers who may not see them).
  std::string not_found_hint;
  /// Overrides the session's request timeout when non-zero.
  std::chrono::milliseconds timeout{0};
  /// Overrides RetryOptions::max_attempts when > 0. Streamed downloads pass 1:
  /// repeating a request whose body already reached the sink would duplicate
  /// bytes, so they retry themselves with a Range request instead.
  int max_attempts = 0;
  /// Stops the call (a request in flight, a backoff, a rate-limit wait) with
  /// CancelledError once cancelled.
  CancelToken cancel = CancelToken::never();
};

class Session {
 public:
  /// `options.transport` is required (with_default_transport, in
  /// mgnify/default_transport.hpp, supplies curl). An empty base_url means
  /// `default_base_url`.
  Session(SessionOptions options, std::string default_base_url)
      : options_(std::move(options)),
        base_url_(options_.base_url.empty() ? std::move(default_base_url) : options_.base_url),
        clock_(options_.clock ? options_.clock : std::make_shared<SystemClock>()),
        limiter_(options_.rate_limit, clock_),
        headers_(options_.user_agent_suffix, options_.extra_headers),
        auth_(options_.token),
        log_(options_.logger) {
    while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
    if (!parse_url(base_url_)) {
      throw InvalidArgument("base URL must be an absolute http(s) URL: '" + base_url_ + "'");
    }
    if (!options_.transport) {
      throw InvalidArgument(
          "a session needs a transport (mgnify::with_default_transport supplies curl)");
    }
    if (options_.max_redirects < 0) throw InvalidArgument("max_redirects must be >= 0");
    if (options_.retry.max_attempts < 1) throw InvalidArgument("retry.max_attempts must be >= 1");
    transport_ = options_.transport;
  }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& base_url() const noexcept { return base_url_; }
  const SessionOptions& options() const noexcept { return options_; }
  Clock& clock() noexcept { return *clock_; }
  RateLimiter& rate_limiter() noexcept { return limiter_; }
  Transport& transport() noexcept { return *transport_; }

  /// base URL + an already encoded relative path + query.
  std::string url(std::string_view encoded_path, const Query& query = {}) const {
    return with_query(join_url(base_url_, encoded_path), query);
  }

  /// A token with CR, LF or NUL (even one a server issued) is refused with
  /// InvalidArgument: it would add header lines of its own.
  void set_token(std::optional<std::string> token) { auth_.set(std::move(token)); }
  std::optional<std::string> token() const { return auth_.get(); }
  bool has_token() const { return token().has_value(); }
  /// How a 401 to a call that carried the token is answered (by default: not
  /// at all, the AuthError reaches the caller).
  void set_token_refresh(TokenRefresh policy) { auth_.set_refresh(std::move(policy)); }

  /// Refuses links (from responses or callers) that point away from the base
  /// URL's host, unless the options allow foreign links.
  void check_link(const std::string& url) const {
    if (!parse_url(url)) throw InvalidArgument("not an absolute http(s) URL: '" + url + "'");
    if (!options_.allow_foreign_links && !same_origin(url, base_url_)) {
      throw InvalidArgument("refusing to follow '" + url + "': not on " + base_url_ +
                            " (set ClientOptions::allow_foreign_links to allow)");
    }
  }

  Response get(const std::string& url, const CallOptions& call = {}) {
    Request r;
    r.method = Method::get;
    r.url = url;
    return execute(std::move(r), call);
  }

  Response post_json(const std::string& url, const nlohmann::json& body,
                     const CallOptions& call = {}) {
    Request r;
    r.method = Method::post;
    r.url = url;
    r.body = body.dump();
    r.headers.set("Content-Type", "application/json");
    return execute(std::move(r), call);
  }

  /// POSTs a multipart/form-data body (text fields and files).
  Response post_form(const std::string& url, std::vector<FormPart> form,
                     const CallOptions& call = {}) {
    if (form.empty()) throw InvalidArgument("a form POST needs at least one part");
    for (const auto& part : form) {
      if (part.name.empty()) throw InvalidArgument("every form part needs a name");
    }
    Request r;
    r.method = Method::post;
    r.url = url;
    r.form = std::move(form);
    return execute(std::move(r), call);
  }

  /// Runs the whole pipeline. Returns only 2xx responses; everything else is thrown.
  Response execute(Request request, const CallOptions& call = {}) {
    // Credentials (the token, and extra headers named like one) go only to
    // the base URL's origin (same scheme, host and port), whatever URL a link
    // or the caller hands in.
    const bool to_base_origin = same_origin(request.url, base_url_);
    headers_.apply(request, to_base_origin);
    if (call.timeout.count() > 0) request.timeout = call.timeout;
    const CancelToken cancel =
        call.cancel.can_be_cancelled() ? call.cancel : mgnify::detail::ambient_cancel();
    request.cancel = cancel;
    for (int rejections = 0;;) {
      const auto sent = auth_.attach(request, call.send_token && to_base_origin);
      try {
        return execute_authenticated(request, call, sent.has_value());
      } catch (const AuthError& e) {
        if (!sent || e.status() != 401) throw;
        if (!auth_.repeat_after_rejection(*sent, e, ++rejections)) throw;
        request.headers.erase("Authorization");
      }
    }
  }

 private:
  Response execute_authenticated(const Request& request, const CallOptions& call,
                                 bool carries_token) {
    const CancelToken& cancel = request.cancel;
    const auto cache_key = options_.cache ? options_.cache->key_for(request) : std::nullopt;
    if (cache_key) {
      cancel.throw_if_cancelled(request.url);
      if (auto hit = options_.cache->lookup(*cache_key, clock_->wall_now())) return std::move(*hit);
    }

    const bool idempotent = is_idempotent(request.method);
    const auto& retry = options_.retry;
    const int max_attempts = call.max_attempts > 0 ? call.max_attempts : retry.max_attempts;
    Backoff backoff(retry, next_seed());
    for (int attempt = 1;; ++attempt) {
      cancel.throw_if_cancelled(request.url);
      Response response;
      RateLimiter::Ticket ticket;
      try {
        response = follow_redirects(request, options_.max_redirects, attempt, log_,
                                    [&](const Request& hop) {
                                      ticket = limiter_.acquire(hop.cancel);
                                      return transport_->send(hop);
                                    });
      } catch (const TransportError& e) {
        if (idempotent && retry.is_retryable(e) && attempt < max_attempts) {
          const auto wait = backoff.next(attempt, std::nullopt);
          log_(LogEvent::Kind::retry, request, 0, attempt, wait, e.what());
          if (clock_->sleep_or_cancel(wait, cancel)) throw CancelledError(request.url);
          continue;
        }
        log_(LogEvent::Kind::failure, request, 0, attempt, {}, e.what());
        throw e.with_attempts(attempt);
      }
      response.attempts = attempt;
      if (response.is_success()) {
        limiter_.on_accepted(ticket);
        if (cache_key) options_.cache->store(*cache_key, response, clock_->wall_now());
        return response;
      }

      std::optional<std::chrono::seconds> retry_after;
      if (auto value = response.headers.get("Retry-After")) {
        retry_after = parse_retry_after(*value, clock_->wall_now());
      }
      pace(response.status, retry_after, ticket);
      const bool may_resend =
          idempotent || server_did_not_act(response.status, retry_after.has_value());
      if (may_resend && retry.is_retryable_status(response.status) && attempt < max_attempts) {
        const auto wait = backoff.next(attempt, retry_after);
        log_(LogEvent::Kind::retry, request, response.status, attempt, wait,
             "retrying after HTTP " + std::to_string(response.status));
        if (clock_->sleep_or_cancel(wait, cancel)) throw CancelledError(request.url);
        continue;
      }
      ApiErrorInfo info;
      info.status = response.status;
      info.method = method_name(request.method);
      info.url = response.url;
      info.parsed = parse_error_body(response.body);
      info.body = std::move(response.body);
      info.attempts = attempt;
      info.retry_after = retry_after;
      info.redirects = redacted_urls(response.redirects);
      if (response.status == 404) {
        info.hint = !call.not_found_hint.empty() ? call.not_found_hint
                    : carries_token              ? auth_.not_found_hint()
                                                 : std::string();
      }
      log_(LogEvent::Kind::failure, request, info.status, attempt, {},
           "HTTP " + std::to_string(info.status));
      throw_api_error(std::move(info));
    }
  }

  // Throttling slows every thread of the session, not only this one: a 429,
  // or a 503 that says when to come back, is the server asking for less.
  void pace(int status, std::optional<std::chrono::seconds> retry_after,
            RateLimiter::Ticket ticket) {
    if (status == 429 || (status == 503 && retry_after)) {
      // The same clamp as this thread's own wait (Backoff), so no other
      // thread is held longer than the one that was told to wait.
      const auto hold = retry_after ? std::min<std::chrono::milliseconds>(
                                          *retry_after, options_.retry.max_retry_after)
                                    : std::chrono::milliseconds(0);
      limiter_.on_throttled(ticket, hold);
    } else if (status < 500 && status != 408) {
      limiter_.on_accepted(ticket);
    }
  }

  std::uint64_t next_seed() {
    return seed_base_ ^ (0x9E3779B97F4A7C15ULL * seed_counter_.fetch_add(1));
  }

  SessionOptions options_;
  std::string base_url_;
  std::shared_ptr<Clock> clock_;
  RateLimiter limiter_;
  RequestHeaders headers_;
  TokenAuth auth_;
  RequestLog log_;
  std::shared_ptr<Transport> transport_;
  const std::uint64_t seed_base_ = std::random_device{}();
  std::atomic<std::uint64_t> seed_counter_{1};
};

}  // namespace http
}  // namespace v0
}  // namespace mgnify
