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

#include "mgnify/detail/civil_time.hpp"
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

using mgnify::detail::days_from_civil;

inline std::optional<std::chrono::system_clock::time_point> parse_iso8601(const std::string& s) {
  auto digits = [&](std::size_t pos, std::size_t n, int& out) {
    if (pos + n > s.size()) return false;
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(0, 4, year) || s.size() < 10 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
      !digits(8, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  std::size_t pos = 10;
  std::int64_t micros = 0;
  std::int64_t offset_seconds = 0;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == ' ')) {
    if (!digits(pos + 1, 2, hour) || s.size() < pos + 9 || s[pos + 3] != ':' ||
        !digits(pos + 4, 2, minute) || s[pos + 6] != ':' || !digits(pos + 7, 2, second)) {
      return std::nullopt;
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
    pos += 9;
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      std::int64_t scale = 100000;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        micros += (s[pos] - '0') * scale;
        scale /= 10;
        ++pos;
      }
    }
    if (pos < s.size()) {
      if (s[pos] == 'Z') {
        ++pos;
      } else if (s[pos] == '+' || s[pos] == '-') {
        int oh = 0, om = 0;
        if (!digits(pos + 1, 2, oh)) return std::nullopt;
        std::size_t mpos = pos + 3;
        if (mpos < s.size() && s[mpos] == ':') ++mpos;
        if (!digits(mpos, 2, om)) return std::nullopt;
        offset_seconds = (oh * 3600 + om * 60) * (s[pos] == '+' ? 1 : -1);
        pos = mpos + 2;
      }
    }
  }
  if (pos != s.size()) return std::nullopt;
  // system_clock counts nanoseconds in 64 bits: years outside 1678..2261 would
  // overflow it (found by fuzzing), so such dates keep their text only.
  if (year < 1678 || year > 2261) return std::nullopt;
  const std::int64_t days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::seconds(secs) + std::chrono::microseconds(micros)));
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

struct AttributeWriter {
  nlohmann::json& attributes;
  // An absent optional stays absent, so a decoded object re-encodes exactly.
  template <class T>
  void operator()(const char* key, const std::optional<T>& member) const {
    if (member) {
      attributes[key] = *member;
    } else if (attributes.contains(key)) {
      attributes[key] = nullptr;
    }
  }
  template <class T>
  void operator()(const char* key, const T& member) const {
    attributes[key] = member;
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
  M::visit(m, AttributeWriter{attributes});
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
