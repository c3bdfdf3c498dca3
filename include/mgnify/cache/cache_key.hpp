#pragma once

// What makes two requests "the same" for the response cache: the method, the
// URL with its query parameters in a canonical order, the Accept header, and
// who is asking. The whole description is hashed, so an entry's name reveals
// neither the URL nor the credentials; a different token (or a different
// secret header) can never select another caller's entry.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/detail/secrets.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
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

/// Credential headers of a request (http::is_secret_header), or an empty
/// vector for an anonymous one.
inline std::vector<std::pair<std::string, std::string>> credential_headers(
    const http::Headers& headers) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : headers) {
    if (!http::is_secret_header(name)) continue;
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    found.emplace_back(std::move(lower), value);
  }
  std::sort(found.begin(), found.end());
  return found;
}

/// True when the request carries a credential: a secret header, userinfo in
/// the URL, or a query parameter named like a credential.
inline bool is_authenticated_request(const http::Request& request) {
  return !credential_headers(request.headers).empty() || redact_url(request.url) != request.url;
}

/// The entry name for `request`: 64 hex digits of SHA-256 over the method,
/// the canonical URL, Accept and the credentials. Lengths prefix each part so
/// that no two different descriptions hash the same text.
inline std::string response_cache_key(const http::Request& request) {
  files::Hasher hasher(files::HashAlgorithm::sha256);
  const auto part = [&hasher](std::string_view text) {
    hasher.update(std::to_string(text.size()));
    hasher.update(":");
    hasher.update(text);
  };
  part("mgnify-response-cache-key/1");
  part(http::method_name(request.method));
  part(url_with_sorted_query(request.url));
  part(request.headers.value_or("Accept", ""));
  for (const auto& [name, value] : credential_headers(request.headers)) {
    part(name);
    part(value);
  }
  return hasher.hex_digest();
}

}  // namespace detail
}  // namespace v0
}  // namespace mgnify
