#pragma once

// What a Session needs to run its pipeline. The network itself is a Transport
// handed in from outside: the session never names curl. Clients build these
// options from ClientOptions (mgnify/options.hpp), which adds the connection
// settings of the default curl transport.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "mgnify/http/clock.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/log.hpp"
#include "mgnify/http/rate_limiter.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

struct SessionOptions {
  /// Empty means the service's public address (each client knows its own).
  std::string base_url;

  RetryOptions retry;
  RateLimitOptions rate_limit;

  /// Redirect hops followed per request (301, 302, 303, 307, 308).
  int max_redirects = 5;
  /// Follow links taken from response bodies (links.next, links.related) to
  /// hosts other than the base URL's. Off by default: a hostile response must
  /// not steer a walk elsewhere. Redirects are a server's own answer and are
  /// followed to any http(s) host, but credential headers (see
  /// http::is_secret_header) are dropped as soon as one leaves the original origin.
  bool allow_foreign_links = false;

  /// Appended to "mgnify-cpp/<version>" in User-Agent, e.g. "my-pipeline/2.1".
  std::string user_agent_suffix;
  /// Extra headers sent with every request. Those named like a credential
  /// (http::is_secret_header: Authorization, Cookie, X-Api-Key, X-Auth-Token,
  /// ...) are sent only to the base URL's origin, like the token.
  Headers extra_headers;

  /// Bearer token sent as Authorization. Never logged, never in error texts.
  std::optional<std::string> token;

  /// Responses larger than this fail with TransportError::Kind::body_too_large.
  std::size_t max_body_bytes = std::size_t{256} * 1024 * 1024;

  /// Lists fetch page N+1 while the caller consumes page N (see Paged). Costs
  /// at most one page of memory and, when a walk is abandoned early, one
  /// request the caller did not need.
  bool read_ahead = true;
  /// With read_ahead: pages of a list fetched at once, k >= 1. v2 lists and
  /// v1 page-number lists request pages 2..k+1 as soon as the first page is
  /// in (v1 guesses their URLs from links.next and checks every guess, see
  /// docs/performance.md); other v1 lists (cursors) request each page as soon
  /// as the previous one's links.next is read. Items always come in list
  /// order; memory grows by up to one page per extra page (plus a thread's
  /// buffers), and a walk abandoned early may have made up to k requests the
  /// caller did not need. 1 is plain read-ahead. Requests still go through
  /// the rate limit.
  std::size_t parallel_pages = 1;

  /// The network. A Session needs one; for ClientOptions, null means a pooled
  /// CurlTransport built from its connection settings (see
  /// mgnify/default_transport.hpp).
  std::shared_ptr<Transport> transport;
  /// Null means the real clocks; tests inject testing::FakeClock.
  std::shared_ptr<Clock> clock;
  /// Called for every request, response, redirect, retry and failure.
  Logger logger;
  /// Null means no cache. See mgnify/cache/response_cache.hpp: successful GET
  /// responses are kept on disk and answered from there without a request.
  /// One cache may serve several clients.
  std::shared_ptr<ResponseStore> cache;
};

}  // namespace http
MGNIFY_NAMESPACE_END
