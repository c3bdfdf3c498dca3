#pragma once

// What every typed v1 model shares: the Resource it was decoded from and a
// timestamp type that keeps the server's text next to the parsed time. Each
// model lists its attributes once, in a static fields() table
// (detail/fields.hpp) that maps the hyphenated keys to snake_case members;
// MGNIFY_JSON_FIELDS derives decoding and encoding from it as for any model,
// and the simdjson reader (v1/fast_decode.hpp) walks the same table.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/iso8601.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// A date or date-time as the service sent it, plus the parsed instant. The
/// service writes ISO 8601 without a zone ("2016-03-15T00:05:04") and plain
/// dates ("2014-04-25"); both are read as UTC. Text that does not parse keeps
/// `time` empty instead of failing the whole object.
struct Timestamp {
  std::string text;
  std::optional<std::chrono::system_clock::time_point> time;
};

namespace detail {

inline std::optional<std::chrono::system_clock::time_point> parse_iso8601(const std::string& s) {
  using std::chrono::microseconds;
  using std::chrono::system_clock;
  const auto micros = mgnify::detail::parse_iso8601_micros(s, mgnify::detail::DateOnly::accepted);
  if (!micros) return std::nullopt;
  // system_clock may count nanoseconds in 64 bits (years 1678..2261); an
  // instant outside its range keeps its text only.
  constexpr auto most =
      std::chrono::duration_cast<microseconds>(system_clock::duration::max()).count();
  constexpr auto least =
      std::chrono::duration_cast<microseconds>(system_clock::duration::min()).count();
  if (*micros >= most || *micros <= least) return std::nullopt;
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(microseconds(*micros)));
}

}  // namespace detail

inline void from_json(const nlohmann::json& j, Timestamp& out) {
  if (!j.is_string())
    throw DecodeError("", "", std::string("expected a date string, got ") + j.type_name());
  out.text = j.get<std::string>();
  out.time = detail::parse_iso8601(out.text);
}
inline void to_json(nlohmann::json& j, const Timestamp& t) { j = t.text; }

/// `{key, value}` pairs (analysis-summary). Values are text even when the
/// service sends a bare number; such a value goes back as that number.
struct KeyValue {
  std::string key;
  std::string value;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("key", self.key);
    v.scalar_text("value", self.value);
  }
};
MGNIFY_JSON_FIELDS(KeyValue, "key-value")

/// Base of every typed model: the resource it came from (relationships, links,
/// unknown attributes) and its id.
struct ResourceModel {
  Resource resource;

  const std::string& id() const noexcept { return resource.id; }
  const std::string& type() const noexcept { return resource.type; }
  const std::optional<std::string>& self_link() const noexcept { return resource.self; }
  const Relationship* relationship(const std::string& name) const {
    return resource.relationship(name);
  }
};

}  // namespace v1
MGNIFY_NAMESPACE_END
