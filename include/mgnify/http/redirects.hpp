#pragma once

// The redirect step: follows 301, 302, 303, 307 and 308 hop by hop, records
// the hops, refuses loops and overlong chains, and never carries credentials
// or a request body on to another origin.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/secrets.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/request_log.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// The URLs of a redirect chain as errors may show them.
inline std::vector<std::string> redacted_urls(const std::vector<std::string>& urls) {
  std::vector<std::string> out;
  out.reserve(urls.size());
  for (const auto& url : urls) out.push_back(mgnify::detail::redact_url(url));
  return out;
}

/// Sends `original` through `send_hop` (one request, one response) and
/// follows redirects to the first response that is not one. The returned
/// response carries its final URL and the URLs redirected from; a bad
/// redirect throws RedirectError.
template <class SendHop>
Response follow_redirects(const Request& original, int max_redirects, int attempt,
                          const RequestLog& log, SendHop&& send_hop) {
  Request request = original;
  std::vector<std::string> visited;
  // Loops are judged on method and URL: POST /x answered by "303 See Other"
  // to /x (post/redirect/get) revisits the URL with another method.
  std::vector<std::pair<Method, std::string>> seen;
  for (;;) {
    log(LogEvent::Kind::request, request, 0, attempt, {}, {});
    Response response = send_hop(request);
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
      info.redirects = redacted_urls(visited);
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
    if (static_cast<int>(visited.size()) > max_redirects) {
      fail("more than " + std::to_string(max_redirects) + " redirects");
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

}  // namespace http
MGNIFY_NAMESPACE_END
