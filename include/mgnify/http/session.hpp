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

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/rate_limiter.hpp"
#include "mgnify/http/request_headers.hpp"
#include "mgnify/http/request_log.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/session_options.hpp"
#include "mgnify/http/token_auth.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// The switches of one request through the session. A client call makes them
/// from its public mgnify::CallOptions (per_call below).
struct RequestOptions {
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
  /// CancelledError once cancelled, or with TransportError of kind timeout
  /// once a deadline it carries (CancelToken::child_until) passes.
  CancelToken cancel = CancelToken::never();
  /// Consult and fill ClientOptions::cache. Off for answers that change while
  /// the caller waits (a job's status): a stored one would be replayed.
  bool use_cache = true;
};

/// The request switches a client call's per-call options ask for.
inline RequestOptions per_call(const mgnify::CallOptions& options) {
  RequestOptions out;
  out.cancel = options.token();
  out.use_cache = !options.bypass_cache;
  return out;
}

class Session {
 public:
  /// `options.transport` is required (with_default_transport, in
  /// mgnify/default_transport.hpp, supplies curl). An empty base_url means
  /// `default_base_url`.
  Session(SessionOptions options, std::string default_base_url);

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
  void check_link(const std::string& url) const;

  Response get(const std::string& url, const RequestOptions& call = {}) {
    Request r;
    r.method = Method::get;
    r.url = url;
    return execute(std::move(r), call);
  }

  Response post_json(const std::string& url, const nlohmann::json& body,
                     const RequestOptions& call = {});

  /// POSTs a multipart/form-data body (text fields and files).
  Response post_form(const std::string& url, std::vector<FormPart> form,
                     const RequestOptions& call = {});

  /// Runs the whole pipeline. Returns only 2xx responses; everything else is thrown.
  Response execute(Request request, const RequestOptions& call = {});

 private:
  Response execute_authenticated(const Request& request, const RequestOptions& call,
                                 bool carries_token);

  // Throttling slows every thread of the session, not only this one: a 429,
  // or a 503 that says when to come back, is the server asking for less.
  void pace(int status, std::optional<std::chrono::seconds> retry_after,
            RateLimiter::Ticket ticket);

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
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/http/impl/session.ipp"
#endif
