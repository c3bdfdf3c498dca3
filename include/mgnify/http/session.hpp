#pragma once

// The pipeline every request of every client goes through:
//   headers (Accept, User-Agent, auth) -> response cache (opt-in; a hit ends here)
//   -> rate limit -> transport
//   -> redirects (recorded, loop-checked, auth dropped off-origin)
//   -> retry with backoff on throttling, 5xx and network failures (idempotent
//      only, except a 429/503 with Retry-After: the server did not act on it)
//   -> error mapping (status + body -> typed exception).
// Fixing a behaviour here fixes it for all three services at once.

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

#include "mgnify/cache/response_cache.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/log.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/rate_limiter.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/options.hpp"
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
  Session(ClientOptions options, std::string default_base_url)
      : options_(std::move(options)),
        base_url_(options_.base_url.empty() ? std::move(default_base_url) : options_.base_url),
        clock_(options_.clock ? options_.clock : std::make_shared<SystemClock>()),
        limiter_(options_.rate_limit, clock_),
        token_(options_.token) {
    while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
    if (!parse_url(base_url_)) {
      throw InvalidArgument("base URL must be an absolute http(s) URL: '" + base_url_ + "'");
    }
    if (options_.max_redirects < 0) throw InvalidArgument("max_redirects must be >= 0");
    if (options_.retry.max_attempts < 1) throw InvalidArgument("retry.max_attempts must be >= 1");
    if (options_.transport) {
      transport_ = options_.transport;
    } else {
      CurlOptions curl;
      curl.connect_timeout = options_.connect_timeout;
      curl.request_timeout = options_.request_timeout;
      curl.ca_bundle_path = options_.ca_bundle_path;
      curl.max_body_bytes = options_.max_body_bytes;
      transport_ = std::make_shared<CurlTransport>(std::move(curl));
    }
    user_agent_ = std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING;
    if (!options_.user_agent_suffix.empty()) user_agent_ += " " + options_.user_agent_suffix;
    check_header_value("user_agent_suffix", options_.user_agent_suffix);
    for (const auto& [name, value] : options_.extra_headers) {
      check_header_value("extra_headers name", name);
      check_header_value("extra_headers value of " + name, value);
    }
    if (token_) check_header_value("token", *token_);
  }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& base_url() const noexcept { return base_url_; }
  const ClientOptions& options() const noexcept { return options_; }
  Clock& clock() noexcept { return *clock_; }
  RateLimiter& rate_limiter() noexcept { return limiter_; }
  Transport& transport() noexcept { return *transport_; }

  /// base URL + an already encoded relative path + query.
  std::string url(std::string_view encoded_path, const Query& query = {}) const {
    return with_query(join_url(base_url_, encoded_path), query);
  }

  /// A token with CR, LF or NUL (even one a server issued) is refused with
  /// InvalidArgument: it would add header lines of its own.
  void set_token(std::optional<std::string> token) {
    if (token) check_header_value("token", *token);
    std::lock_guard<std::mutex> lock(token_mutex_);
    token_ = std::move(token);
  }
  std::optional<std::string> token() const {
    std::lock_guard<std::mutex> lock(token_mutex_);
    return token_;
  }
  bool has_token() const { return token().has_value(); }

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
    if (!request.headers.contains("Accept")) request.headers.set("Accept", "application/json");
    request.headers.set("User-Agent", user_agent_);
    // Credentials (the token, and extra headers named like one) go only to
    // the base URL's origin (same scheme, host and port), whatever URL a link
    // or the caller hands in.
    const bool to_base_origin = same_origin(request.url, base_url_);
    for (const auto& [name, value] : options_.extra_headers) {
      if (!to_base_origin && is_secret_header(name)) continue;
      if (!request.headers.contains(name)) request.headers.add(name, value);
    }
    if (call.send_token && to_base_origin) {
      if (auto t = token()) request.headers.set("Authorization", "Bearer " + *t);
    }
    if (call.timeout.count() > 0) request.timeout = call.timeout;
    const CancelToken cancel =
        call.cancel.can_be_cancelled() ? call.cancel : mgnify::detail::ambient_cancel();
    request.cancel = cancel;
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
        response = follow_redirects(request, attempt, ticket);
      } catch (const TransportError& e) {
        if (idempotent && retry.is_retryable(e) && attempt < max_attempts) {
          const auto wait = backoff.next(attempt, std::nullopt);
          log(LogEvent::Kind::retry, request, 0, attempt, wait, e.what());
          if (clock_->sleep_or_cancel(wait, cancel)) throw CancelledError(request.url);
          continue;
        }
        log(LogEvent::Kind::failure, request, 0, attempt, {}, e.what());
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
        log(LogEvent::Kind::retry, request, response.status, attempt, wait,
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
      info.redirects = redacted(response.redirects);
      if (response.status == 404) info.hint = call.not_found_hint;
      log(LogEvent::Kind::failure, request, info.status, attempt, {},
          "HTTP " + std::to_string(info.status));
      throw_api_error(std::move(info));
    }
  }

 private:
  static std::vector<std::string> redacted(const std::vector<std::string>& urls) {
    std::vector<std::string> out;
    out.reserve(urls.size());
    for (const auto& url : urls) out.push_back(mgnify::detail::redact_url(url));
    return out;
  }

  static void check_header_value(const std::string& what, const std::string& value) {
    if (value.find_first_of(std::string("\r\n\0", 3)) != std::string::npos) {
      throw InvalidArgument(what + " must not contain CR, LF or NUL");
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

  Response follow_redirects(const Request& original, int attempt, RateLimiter::Ticket& ticket) {
    Request request = original;
    std::vector<std::string> visited;
    // Loops are judged on method and URL: POST /x answered by "303 See Other"
    // to /x (post/redirect/get) revisits the URL with another method.
    std::vector<std::pair<Method, std::string>> seen;
    for (;;) {
      ticket = limiter_.acquire(request.cancel);
      log(LogEvent::Kind::request, request, 0, attempt, {}, {});
      Response response = transport_->send(request);
      response.url = request.url;
      log(LogEvent::Kind::response, request, response.status, attempt, {}, {});
      if (!response.is_redirect()) {
        response.redirects = std::move(visited);
        return response;
      }
      visited.push_back(request.url);
      seen.emplace_back(request.method, request.url);
      const auto location = response.headers.get("Location");
      auto fail = [&](const std::string& why) {
        ApiErrorInfo info;
        info.status = response.status;
        info.method = method_name(request.method);
        info.url = request.url;
        info.parsed.shape = ErrorBody::Shape::text;
        info.parsed.message = why;
        info.body = response.body;
        info.attempts = attempt;
        info.redirects = redacted(visited);
        log(LogEvent::Kind::failure, request, response.status, attempt, {}, why);
        throw RedirectError(std::move(info));
      };
      if (!location || location->empty()) fail("redirect without a Location header");
      std::string next;
      try {
        next = resolve_reference(request.url, *location);
      } catch (const InvalidArgument& e) {
        fail(e.what());
      }
      if (!parse_url(next)) fail("redirect to a URL that is not http(s): " + next);
      // RFC 9110 15.4.4: 303 means GET (HEAD stays HEAD); 301/302 after a POST
      // become GET as every user agent does.
      const bool to_get =
          request.method != Method::head &&
          (response.status == 303 ||
           ((response.status == 301 || response.status == 302) && request.method == Method::post));
      const Method next_method = to_get ? Method::get : request.method;
      if (std::find(seen.begin(), seen.end(), std::make_pair(next_method, next)) != seen.end()) {
        fail("redirect loop back to " + next);
      }
      if (static_cast<int>(visited.size()) > options_.max_redirects) {
        fail("more than " + std::to_string(options_.max_redirects) + " redirects");
      }
      if (!same_origin(request.url, next)) {
        // A body kept by a 307/308 may carry secrets (a login's password, a
        // token to refresh): it is never sent on to another origin.
        if (!to_get && (!request.body.empty() || !request.form.empty())) {
          fail("refusing to send the request body on to another origin: " + next);
        }
        // Credentials are for the origin the caller chose, never for wherever a
        // redirect points (curl's own rule since CVE-2018-1000007).
        std::vector<std::string> secret;
        for (const auto& [name, value] : request.headers) {
          if (is_secret_header(name)) secret.push_back(name);
        }
        for (const auto& name : secret) request.headers.erase(name);
      }
      if (to_get) {
        request.method = Method::get;
        request.body.clear();
        request.form.clear();
        request.headers.erase("Content-Type");
      }
      log(LogEvent::Kind::redirect, request, response.status, attempt, {}, "to " + next);
      request.url = std::move(next);
    }
  }

  void log(LogEvent::Kind kind, const Request& request, int status, int attempt,
           std::chrono::milliseconds wait, std::string message) const {
    if (!options_.logger) return;
    LogEvent e;
    e.kind = kind;
    e.method = method_name(request.method);
    e.url = mgnify::detail::redact_url(request.url);
    e.status = status;
    e.attempt = attempt;
    e.wait = wait;
    e.message = mgnify::detail::redact_urls_in(message);
    options_.logger(e);
  }

  std::uint64_t next_seed() {
    return seed_base_ ^ (0x9E3779B97F4A7C15ULL * seed_counter_.fetch_add(1));
  }

  ClientOptions options_;
  std::string base_url_;
  std::shared_ptr<Clock> clock_;
  RateLimiter limiter_;
  std::shared_ptr<Transport> transport_;
  std::string user_agent_;
  mutable std::mutex token_mutex_;
  std::optional<std::string> token_;
  const std::uint64_t seed_base_ = std::random_device{}();
  std::atomic<std::uint64_t> seed_counter_{1};
};

}  // namespace http
}  // namespace v0
}  // namespace mgnify
