#pragma once

// What makes two requests "the same" for the response cache: the method, the
// URL with its query parameters in a canonical order, and the headers the
// caller and the session set (Accept, the token, any extra header). The whole
// description is signed with the cache's secret, so an entry's name reveals
// neither the URL nor the credentials, cannot be predicted without the secret,
// and a different token or header value can never select another's entry.

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/cache/cache_policy.hpp"
#include "mgnify/detail/secrets.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// `url` without its fragment and with its query parameters sorted by name;
/// parameters of the same name keep their relative order, since for them the
/// order can carry meaning.
inline std::string url_with_sorted_query(std::string_view url) {
  const std::size_t hash = url.find('#');
  if (hash != std::string_view::npos) url = url.substr(0, hash);
  const std::size_t question = url.find('?');
  if (question == std::string_view::npos) return std::string(url);
  std::vector<std::string_view> pairs;
  std::string_view rest = url.substr(question + 1);
  for (;;) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    if (!pair.empty()) pairs.push_back(pair);
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  const auto name = [](std::string_view pair) { return pair.substr(0, pair.find('=')); };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](std::string_view a, std::string_view b) { return name(a) < name(b); });
  std::string out(url.substr(0, question + 1));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) out.push_back('&');
    out.append(pairs[i]);
  }
  return out;
}

/// True when `name` says who is asking: named like a credential
/// (http::is_secret_header) or listed by the caller in `identity_headers`.
inline bool is_identity_header(std::string_view name,
                               const std::vector<std::string>& identity_headers) {
  return http::is_secret_header(name) ||
         std::any_of(
             identity_headers.begin(), identity_headers.end(),
             [&](const std::string& listed) { return http::detail::iequals(listed, name); });
}

/// True when the request carries a credential: an identity header, userinfo
/// in the URL, or a query parameter named like a credential.
inline bool is_authenticated_request(const http::Request& request,
                                     const std::vector<std::string>& identity_headers) {
  return std::any_of(request.headers.begin(), request.headers.end(),
                     [&](const auto& header) {
                       return is_identity_header(header.first, identity_headers);
                     }) ||
         redact_url(request.url) != request.url;
}

/// The headers that select a response: all but User-Agent (the SDK's own) and
/// Cache-Control (a word to caches, not to the service), names in lower case,
/// sorted by name; values of one name keep their order.
inline std::vector<std::pair<std::string, std::string>> keyed_headers(
    const http::Headers& headers) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : headers) {
    std::string lower = ascii_lower(name);
    if (lower == "user-agent" || lower == "cache-control") continue;
    found.emplace_back(std::move(lower), value);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return found;
}

/// The entry name for `request`: 64 hex digits of HMAC-SHA256, under the
/// cache's secret, over the method, the canonical URL and the keyed headers.
/// Lengths prefix each part so that no two different descriptions sign the
/// same text; the secret makes names unpredictable to anyone without it.
inline std::string response_cache_key(const http::Request& request, std::string_view secret) {
  std::string description;
  const auto part = [&description](std::string_view text) {
    description += std::to_string(text.size());
    description += ':';
    description += text;
  };
  part("mgnify-response-cache-key/2");
  part(http::method_name(request.method));
  part(url_with_sorted_query(request.url));
  for (const auto& [name, value] : keyed_headers(request.headers)) {
    part(name);
    part(value);
  }
  return files::hmac_sha256_hex(secret, description);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
