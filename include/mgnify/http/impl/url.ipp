#pragma once

// Bodies of the URL helpers (mgnify/http/url.hpp).

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {
namespace detail {

inline bool is_unreserved(unsigned char c) noexcept {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

inline void append_pct(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(kHex[c >> 4]);
  out.push_back(kHex[c & 0x0F]);
}

}  // namespace detail

MGNIFY_DECL std::string encode_path_segment(std::string_view segment) {
  if (segment.empty() || segment == "." || segment == "..") {
    throw InvalidArgument("invalid path segment '" + std::string(segment) +
                          "': empty, '.' and '..' are not allowed");
  }
  std::string out;
  out.reserve(segment.size());
  for (char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    if (detail::is_unreserved(c) || c == ':' || c == '@') {
      out.push_back(ch);
    } else {
      detail::append_pct(out, c);
    }
  }
  return out;
}

MGNIFY_DECL std::string encode_query_component(std::string_view text, SpaceEncoding spaces) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (detail::is_unreserved(c) || c == ':' || c == ',') {
      out.push_back(ch);
    } else if (c == ' ' && spaces == SpaceEncoding::plus) {
      out.push_back('+');
    } else {
      detail::append_pct(out, c);
    }
  }
  return out;
}

MGNIFY_DECL std::string percent_decode(std::string_view text, bool plus_is_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else if (plus_is_space && text[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

MGNIFY_DECL Query& Query::erase(const std::string& key) {
  std::vector<Param> kept;
  for (auto& p : params_) {
    if (p.key != key) kept.push_back(std::move(p));
  }
  params_ = std::move(kept);
  return *this;
}

MGNIFY_DECL std::optional<std::string> Query::get(const std::string& key) const {
  for (const auto& p : params_) {
    if (p.key == key) return p.value;
  }
  return std::nullopt;
}

MGNIFY_DECL std::string Query::encoded() const {
  std::string out;
  for (const auto& p : params_) {
    if (!out.empty()) out.push_back('&');
    out += encode_query_component(p.key);
    out.push_back('=');
    out += encode_query_component(p.value, p.spaces);
  }
  return out;
}

MGNIFY_DECL std::optional<UrlParts> parse_url(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0) return std::nullopt;
  UrlParts parts;
  for (char c : url.substr(0, scheme_end)) {
    parts.scheme.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (parts.scheme != "http" && parts.scheme != "https") return std::nullopt;
  std::string_view rest = url.substr(scheme_end + 3);
  const auto authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view{} : rest.substr(authority_end);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority = authority.substr(at + 1);  // userinfo never takes part in host comparisons
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;
  for (char c : host) {
    parts.host.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (port.empty()) {
    parts.port = parts.scheme == "https" ? 443 : 80;
  } else {
    unsigned long value = 0;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      value = value * 10 + static_cast<unsigned long>(c - '0');
      if (value > 65535) return std::nullopt;
    }
    parts.port = static_cast<std::uint16_t>(value);
  }
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const auto q = rest.find('?');
  parts.path = std::string(rest.substr(0, q));
  if (parts.path.empty()) parts.path = "/";
  if (q != std::string_view::npos) parts.query = std::string(rest.substr(q + 1));
  return parts;
}

MGNIFY_DECL bool same_origin(std::string_view a, std::string_view b) {
  const auto pa = parse_url(a);
  const auto pb = parse_url(b);
  return pa && pb && pa->scheme == pb->scheme && pa->host == pb->host && pa->port == pb->port;
}

namespace detail {

MGNIFY_DECL std::string remove_dot_segments(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t pos = 0;
  const bool absolute = !path.empty() && path.front() == '/';
  if (absolute) pos = 1;
  bool trailing_slash = false;
  while (pos <= path.size()) {
    const auto next = path.find('/', pos);
    const std::string_view seg =
        path.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
    const bool last = next == std::string_view::npos;
    if (seg == "..") {
      if (!segments.empty()) segments.pop_back();
      trailing_slash = last;
    } else if (seg == ".") {
      trailing_slash = last;
    } else {
      segments.emplace_back(seg);
      trailing_slash = false;
    }
    if (last) break;
    pos = next + 1;
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out.push_back('/');
    out += segments[i];
  }
  if (trailing_slash && !out.empty() && out.back() != '/') out.push_back('/');
  return out;
}

MGNIFY_DECL bool has_scheme_and_authority(std::string_view reference) noexcept {
  const auto sep = reference.find("://");
  if (sep == std::string_view::npos || sep == 0) return false;
  if (!std::isalpha(static_cast<unsigned char>(reference[0]))) return false;
  for (char c : reference.substr(0, sep)) {
    const auto uc = static_cast<unsigned char>(c);
    if (!std::isalnum(uc) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

MGNIFY_DECL std::string origin_of(std::string_view original) {
  const auto scheme_end = original.find("://");
  const auto authority_end = original.find_first_of("/?#", scheme_end + 3);
  return std::string(original.substr(0, authority_end));
}

}  // namespace detail

MGNIFY_DECL std::string resolve_reference(std::string_view base, std::string_view reference) {
  if (parse_url(reference) || detail::has_scheme_and_authority(reference)) {
    return std::string(reference);
  }
  const auto parts = parse_url(base);
  if (!parts)
    throw InvalidArgument("cannot resolve '" + std::string(reference) +
                          "' against a base that is not an absolute URL: '" + std::string(base) +
                          "'");
  if (reference.substr(0, 2) == "//") return parts->scheme + ":" + std::string(reference);
  const std::string origin = detail::origin_of(base);
  if (reference.empty()) {
    const auto hash = base.find('#');
    return std::string(base.substr(0, hash));
  }
  std::string_view ref_path = reference;
  std::string suffix;  // query and fragment of the reference
  if (const auto q = reference.find_first_of("?#"); q != std::string_view::npos) {
    ref_path = reference.substr(0, q);
    suffix = std::string(reference.substr(q));
  }
  if (ref_path.empty()) {
    // "?x=1": same path, new query.
    std::string out = origin + parts->path;
    if (suffix.front() == '#' && !parts->query.empty()) out += "?" + parts->query;
    return out + suffix;
  }
  std::string merged;
  if (ref_path.front() == '/') {
    merged = std::string(ref_path);
  } else {
    const auto last_slash = parts->path.rfind('/');
    merged = parts->path.substr(0, last_slash + 1) + std::string(ref_path);
  }
  return origin + detail::remove_dot_segments(merged) + suffix;
}

MGNIFY_DECL std::string join_url(std::string_view base, std::string_view path) {
  std::string out(base);
  while (!out.empty() && out.back() == '/') out.pop_back();
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  if (!path.empty()) {
    out.push_back('/');
    out += path;
  }
  return out;
}

MGNIFY_DECL std::string with_query(std::string url, const Query& query) {
  if (query.empty()) return url;
  url.push_back(url.find('?') == std::string::npos ? '?' : '&');
  url += query.encoded();
  return url;
}

MGNIFY_DECL void require_http_url(std::string_view url) {
  if (!parse_url(url))
    throw InvalidArgument("not an absolute http(s) URL: '" + std::string(url) + "'");
}

}  // namespace http
MGNIFY_NAMESPACE_END
