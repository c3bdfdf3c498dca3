#pragma once

// Which names carry credentials, and keeping them out of text.
//
// Secrets that ride in URLs are kept out of every text the SDK writes (error
// messages, log events, redirect lists): the userinfo of `user:pass@host`, and
// the values of query parameters named like credentials, as in pre-signed
// download URLs (`X-Amz-Signature`, `sig`, `token`, `api_key`). Only the text
// is redacted; accessors such as ApiError::url() keep the URL as requested.
// http::is_secret_header applies the same naming rule to headers.

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline constexpr std::string_view kRedacted = "***";

inline bool ends_with_ascii_lower(std::string_view lower, std::string_view suffix) noexcept {
  return lower.size() >= suffix.size() &&
         lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A query parameter whose value is a credential: named exactly `key`, `sig`,
/// `auth` or `code`, or ending in token, signature, secret, password,
/// credential or key (`api_key`, `X-Amz-Security-Token`, `X-Goog-Signature`).
inline bool is_secret_parameter(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view exact : {"key", "sig", "auth", "code", "authorization"}) {
    if (lower == exact) return true;
  }
  for (std::string_view suffix : {"token", "signature", "secret", "password", "passwd",
                                  "credential", "credentials", "apikey", "_key", "-key"}) {
    if (ends_with_ascii_lower(lower, suffix)) return true;
  }
  return false;
}

/// Replaces the values of secret parameters in `pairs` ("a=1&sig=x").
inline void redact_parameters(std::string_view pairs, std::string& out) {
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = pairs.find('&', begin);
    const std::string_view pair =
        pairs.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && is_secret_parameter(pair.substr(0, equals))) {
      out.append(pair.substr(0, equals + 1));
      out.append(kRedacted);
    } else {
      out.append(pair);
    }
    if (end == std::string_view::npos) return;
    out.push_back('&');
    begin = end + 1;
  }
}

/// `url` with its userinfo and secret query (and fragment) values replaced by ***.
inline std::string redact_url(std::string_view url) {
  std::string out;
  out.reserve(url.size());
  std::size_t rest = 0;
  if (const std::size_t scheme_end = url.find("://"); scheme_end != std::string_view::npos) {
    const std::size_t authority_begin = scheme_end + 3;
    const std::size_t authority_end = url.find_first_of("/?#", authority_begin);
    const std::string_view authority = url.substr(
        authority_begin, authority_end == std::string_view::npos ? std::string_view::npos
                                                                 : authority_end - authority_begin);
    out.append(url.substr(0, authority_begin));
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
      out.append(kRedacted);
      out.append(authority.substr(at));
    } else {
      out.append(authority);
    }
    rest = authority_end == std::string_view::npos ? url.size() : authority_end;
  }
  const std::size_t query = url.find_first_of("?#", rest);
  out.append(
      url.substr(rest, query == std::string_view::npos ? std::string_view::npos : query - rest));
  if (query == std::string_view::npos) return out;
  const std::size_t fragment = url.find('#', query + 1);
  if (url[query] == '?') {
    out.push_back('?');
    redact_parameters(
        url.substr(query + 1, fragment == std::string_view::npos ? std::string_view::npos
                                                                 : fragment - query - 1),
        out);
  }
  if (const std::size_t hash = url[query] == '#' ? query : fragment;
      hash != std::string_view::npos) {
    out.push_back('#');
    redact_parameters(url.substr(hash + 1), out);
  }
  return out;
}

inline bool starts_url_at(std::string_view text, std::size_t i) noexcept {
  auto matches = [&](std::string_view prefix) {
    if (text.size() - i < prefix.size()) return false;
    for (std::size_t k = 0; k < prefix.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(text[i + k])) != prefix[k]) return false;
    }
    return true;
  };
  return matches("http://") || matches("https://");
}

/// `text` with every http(s) URL in it passed through redact_url. A URL ends
/// at whitespace, a quote or an angle bracket, without trailing punctuation.
inline std::string redact_urls_in(std::string_view text) {
  if (text.find("://") == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (!starts_url_at(text, i)) {
      out.push_back(text[i++]);
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != '\'' && text[end] != '"' && text[end] != '<' && text[end] != '>') {
      ++end;
    }
    // Punctuation that ends a sentence ("for GET <url>: not found") is not
    // part of the URL.
    while (end > i && std::string_view(":,;.)]").find(text[end - 1]) != std::string_view::npos) {
      --end;
    }
    out.append(redact_url(text.substr(i, end - i)));
    i = end;
  }
  return out;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
