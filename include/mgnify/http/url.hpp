#pragma once

// URL building and resolution. Every value a caller supplies goes through one
// of the encoders here, so that no input (slashes, "..", CR/LF, '#', '?') can
// change the path or the query structure of a request.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// Encodes one path segment: everything but unreserved characters and ':' / '@'
/// (which RFC 3986 allows in segments and MGnify lineages use) is escaped. The
/// segments "", "." and ".." would change the path, so they are refused.
MGNIFY_DECL std::string encode_path_segment(std::string_view segment);

enum class SpaceEncoding { percent20, plus };

/// Encodes a query key or value. ':' and ',' stay readable (lineages, include
/// lists); '+', '&', '=', '#' and everything else are escaped.
MGNIFY_DECL std::string encode_query_component(std::string_view text,
                                               SpaceEncoding spaces = SpaceEncoding::percent20);

/// Decodes %XX escapes (and '+' as space when asked). Malformed escapes are kept verbatim.
MGNIFY_DECL std::string percent_decode(std::string_view text, bool plus_is_space = false);

/// An ordered list of query parameters, encoded only when the URL is built.
class Query {
 public:
  struct Param {
    std::string key;
    std::string value;
    SpaceEncoding spaces = SpaceEncoding::percent20;
  };

  Query() = default;
  Query(std::initializer_list<std::pair<std::string, std::string>> params) {
    for (const auto& [k, v] : params) add(k, v);
  }

  Query& add(std::string key, std::string value, SpaceEncoding spaces = SpaceEncoding::percent20) {
    params_.push_back(Param{std::move(key), std::move(value), spaces});
    return *this;
  }
  /// Replaces every parameter of this key.
  Query& set(const std::string& key, std::string value,
             SpaceEncoding spaces = SpaceEncoding::percent20) {
    erase(key);
    return add(key, std::move(value), spaces);
  }
  MGNIFY_DECL Query& erase(const std::string& key);
  MGNIFY_DECL std::optional<std::string> get(const std::string& key) const;
  bool empty() const noexcept { return params_.empty(); }
  const std::vector<Param>& params() const noexcept { return params_; }

  /// "a=1&b=x%20y" (no leading '?').
  MGNIFY_DECL std::string encoded() const;

 private:
  std::vector<Param> params_;
};

/// The parts of an absolute http(s) URL that the SDK needs to reason about.
struct UrlParts {
  std::string scheme;      // lower case
  std::string host;        // lower case, brackets kept for IPv6 literals
  std::uint16_t port = 0;  // explicit or the scheme's default
  std::string path;        // starts with '/', may be "/"
  std::string query;       // without '?'
};

MGNIFY_DECL std::optional<UrlParts> parse_url(std::string_view url);

/// Throws InvalidArgument unless `url` is an absolute http(s) URL: the check a
/// call makes before it sends anything to a URL the caller gave.
MGNIFY_DECL void require_http_url(std::string_view url);

/// True when both URLs name the same scheme, host and port: the condition for
/// sending credentials to the second.
MGNIFY_DECL bool same_origin(std::string_view a, std::string_view b);

namespace detail {
// RFC 3986 section 5.2.4, so that a Location of "../x" cannot climb above the root.
MGNIFY_DECL std::string remove_dot_segments(std::string_view path);

// "ftp://host/x" is an absolute reference even though it is not http(s):
// merging it into the base path would turn it into a same-origin request
// instead of letting the caller see (and refuse) the other scheme.
MGNIFY_DECL bool has_scheme_and_authority(std::string_view reference) noexcept;

// Keeps the authority exactly as written (case, explicit port) by slicing the original.
MGNIFY_DECL std::string origin_of(std::string_view original);
}  // namespace detail

/// Resolves a reference (a Location header, a link) against the URL it came
/// from, per RFC 3986 section 5.2: absolute URLs, "//host/x", "/path", "?q",
/// "relative/path" and a bare word (a superseded accession) all work.
MGNIFY_DECL std::string resolve_reference(std::string_view base, std::string_view reference);

/// Joins a base URL ("https://host/metagenomics/api/v1") and an already
/// encoded relative path ("studies/MGYS00000001"), with exactly one '/' between.
MGNIFY_DECL std::string join_url(std::string_view base, std::string_view path);

/// Appends an encoded query to a URL that may already have one.
MGNIFY_DECL std::string with_query(std::string url, const Query& query);

}  // namespace http
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/http/impl/url.ipp"
#endif
