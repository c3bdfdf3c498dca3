#pragma once

// HTTP header names are case-insensitive (RFC 9110); lookups here honour that
// while keeping the order and spelling the peer used.

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/detail/secrets.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

namespace detail {
inline bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace detail

/// A value with CR, LF or NUL would add header lines of its own: refused with
/// InvalidArgument naming `what`. Request headers, the token and every header
/// a form part carries go through here.
inline void check_header_value(const std::string& what, const std::string& value) {
  if (value.find_first_of(std::string("\r\n\0", 3)) != std::string::npos) {
    throw InvalidArgument(what + " must not contain CR, LF or NUL");
  }
}

class Headers {
 public:
  using Entry = std::pair<std::string, std::string>;

  Headers() = default;
  Headers(std::initializer_list<Entry> entries) : entries_(entries) {}

  /// Adds a header, keeping any earlier one of the same name (Set-Cookie style).
  void add(std::string name, std::string value) {
    entries_.emplace_back(std::move(name), std::move(value));
  }
  /// Replaces every header of this name with one value.
  void set(std::string name, std::string value) {
    erase(name);
    add(std::move(name), std::move(value));
  }
  void erase(std::string_view name) {
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) { return detail::iequals(e.first, name); }),
                   entries_.end());
  }
  /// The first value of this name, whatever its case.
  std::optional<std::string> get(std::string_view name) const {
    for (const auto& e : entries_) {
      if (detail::iequals(e.first, name)) return e.second;
    }
    return std::nullopt;
  }
  bool contains(std::string_view name) const { return get(name).has_value(); }
  std::string value_or(std::string_view name, std::string fallback) const {
    auto v = get(name);
    return v ? *v : std::move(fallback);
  }

  bool empty() const noexcept { return entries_.empty(); }
  std::size_t size() const noexcept { return entries_.size(); }
  void clear() noexcept { entries_.clear(); }
  auto begin() const noexcept { return entries_.begin(); }
  auto end() const noexcept { return entries_.end(); }

 private:
  std::vector<Entry> entries_;
};

/// Header names that carry credentials: Authorization, Proxy-Authorization,
/// Cookie, Set-Cookie, and names that end like a credential (X-Api-Key,
/// X-Auth-Token). Their values never reach logs, error texts or debug output,
/// and the session sends them only to the base URL's origin.
inline bool is_secret_header(std::string_view name) {
  return detail::iequals(name, "Proxy-Authorization") || detail::iequals(name, "Cookie") ||
         detail::iequals(name, "Set-Cookie") || mgnify::detail::is_secret_parameter(name);
}

}  // namespace http
MGNIFY_NAMESPACE_END
