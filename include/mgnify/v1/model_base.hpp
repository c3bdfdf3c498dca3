#pragma once

// What every typed v1 model shares: the Resource it was decoded from, a
// timestamp type that keeps the server's text next to the parsed time, and the
// attribute reader/writer that maps hyphenated keys to snake_case members.
// Each model lists its attributes once, in a visit() function; decoding and
// encoding are both driven by that list, so they cannot drift apart.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/iso8601.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
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

/// `{key, value}` pairs (analysis-summary). Values are text even when numeric.
struct KeyValue {
  std::string key;
  std::string value;
};

namespace detail {
/// The service sends numbers as strings in metadata; tolerate either.
inline std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return {};
  return v.dump();
}
}  // namespace detail

inline void from_json(const nlohmann::json& j, KeyValue& out) {
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  std::string key;
  mgnify::detail::read_required(j, "key", key);
  out.key = std::move(key);
  auto v = j.find("value");
  out.value = v == j.end() ? std::string() : detail::scalar_text(*v);
}
inline void to_json(nlohmann::json& j, const KeyValue& kv) {
  j = nlohmann::json{{"key", kv.key}, {"value", kv.value}};
}

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

namespace detail {

// Reads each listed attribute: optionals through read_optional (absent/null ->
// nullopt), everything else through read_or_keep (absent/null -> default).
struct AttributeReader {
  const nlohmann::json& attributes;
  template <class T>
  void operator()(const char* key, std::optional<T>& member) const {
    mgnify::detail::read_optional(attributes, key, member);
  }
  template <class T>
  void operator()(const char* key, T& member) const {
    mgnify::detail::read_or_keep(attributes, key, member);
  }
};

// Writes each listed attribute with the field tables' rules (detail/fields.hpp):
// optionals as optional fields, everything else as defaulted ones.
struct AttributeWriter {
  mgnify::detail::JsonFieldWriter attributes;
  template <class T>
  void operator()(const char* key, const std::optional<T>& member) const {
    attributes.optional(key, member);
  }
  template <class T>
  void operator()(const char* key, const T& member) const {
    attributes.defaulted(key, member);
  }
};

/// from_json for a model whose attributes are listed by M::visit.
template <class M>
void read_model(const nlohmann::json& j, M& out) {
  out = M{};
  from_json(j, out.resource);
  try {
    M::visit(out, AttributeReader{out.resource.attributes});
  } catch (const DecodeError& e) {
    throw DecodeError("/attributes" + e.json_path(), e.url(), e.detail());
  }
}

/// to_json for a model: the resource with its typed attributes written over
/// the raw ones, so unknown attributes survive a round trip.
template <class M>
void write_model(nlohmann::json& j, const M& m) {
  Resource r = m.resource;
  nlohmann::json attributes =
      r.attributes.is_object() ? r.attributes.json() : nlohmann::json::object();
  M::visit(m, AttributeWriter{mgnify::detail::JsonFieldWriter{attributes}});
  r.attributes = std::move(attributes);
  to_json(j, r);
}

}  // namespace detail

// Defines from_json/to_json for a model type with a static visit().
#define MGNIFY_V1_MODEL_JSON(Model)                            \
  inline void from_json(const nlohmann::json& j, Model& out) { \
    ::mgnify::v1::detail::read_model(j, out);                  \
  }                                                            \
  inline void to_json(nlohmann::json& j, const Model& m) {     \
    ::mgnify::v1::detail::write_model(j, m);                   \
  }

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
