#pragma once

// Bodies of Session (mgnify/http/session.hpp): the request pipeline.

#include <algorithm>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/redirects.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

MGNIFY_DECL Session::Session(SessionOptions options, std::string default_base_url)
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

MGNIFY_DECL void Session::check_link(const std::string& url) const {
  require_http_url(url);
  if (!options_.allow_foreign_links && !same_origin(url, base_url_)) {
    throw InvalidArgument("refusing to follow '" + url + "': not on " + base_url_ +
                          " (set ClientOptions::allow_foreign_links to allow)");
  }
}

MGNIFY_DECL Response Session::post_json(const std::string& url, const nlohmann::json& body,
                                        const RequestOptions& call) {
  Request r;
  r.method = Method::post;
  r.url = url;
  r.body = body.dump();
  r.headers.set("Content-Type", "application/json");
  return execute(std::move(r), call);
}

MGNIFY_DECL Response Session::post_form(const std::string& url, std::vector<FormPart> form,
                                        const RequestOptions& call) {
  if (form.empty()) throw InvalidArgument("a form POST needs at least one part");
  for (const auto& part : form) part.validate();
  Request r;
  r.method = Method::post;
  r.url = url;
  r.form = std::move(form);
  return execute(std::move(r), call);
}

MGNIFY_DECL Response Session::execute(Request request, const RequestOptions& call) {
  // Credentials (the token, and extra headers named like one) go only to
  // the base URL's origin (same scheme, host and port), whatever URL a link
  // or the caller hands in.
  const bool to_base_origin = same_origin(request.url, base_url_);
  headers_.apply(request, to_base_origin);
  if (call.timeout.count() > 0) request.timeout = call.timeout;
  request.cancel = call.cancel;
  try {
    for (int rejections = 0;;) {
      const auto sent = auth_.attach(request, call.send_token && to_base_origin);
      try {
        return execute_authenticated(request, call, sent.has_value());
      } catch (const AuthError& e) {
        if (!sent || e.status() != 401) throw;
        if (!auth_.repeat_after_rejection(*sent, e, ++rejections, call.cancel)) throw;
        request.headers.erase("Authorization");
      }
    }
  } catch (const CancelledError&) {
    // A deadline ends the call through its token, but the caller asked for a
    // time budget, not a cancellation: it gets the error of a passed deadline.
    if (!call.cancel.deadline_passed()) throw;
    throw DeadlineExceededError(mgnify::detail::redact_url(request.url));
  }
}

MGNIFY_DECL Response Session::execute_authenticated(const Request& request,
                                                    const RequestOptions& call,
                                                    bool carries_token) {
  const CancelToken& cancel = request.cancel;
  const auto cache_key =
      options_.cache && call.use_cache ? options_.cache->key_for(request) : std::nullopt;
  if (cache_key) {
    cancel.throw_if_cancelled(request.url);
    if (auto hit = options_.cache->lookup(request, *cache_key, clock_->wall_now())) {
      return std::move(*hit);
    }
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
      response =
          follow_redirects(request, options_.max_redirects, attempt, log_, [&](const Request& hop) {
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
      if (cache_key) options_.cache->store(request, *cache_key, response, clock_->wall_now());
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

MGNIFY_DECL void Session::pace(int status, std::optional<std::chrono::seconds> retry_after,
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

}  // namespace http
MGNIFY_NAMESPACE_END
