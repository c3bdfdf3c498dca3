#pragma once

// v2 timestamps come from Django's JSON encoder: "2025-07-29T11:32:54.168Z",
// but with no fraction at all when the microseconds are zero
// ("2025-07-29T11:32:54Z"). Both forms (and explicit offsets) must parse.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/detail/civil_time.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

/// A UTC instant, with the text the service sent (kept for round trips).
struct DateTime {
  std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds> time{};
  std::string text;

  friend bool operator==(const DateTime& a, const DateTime& b) { return a.time == b.time; }
  friend bool operator!=(const DateTime& a, const DateTime& b) { return !(a == b); }
  friend bool operator<(const DateTime& a, const DateTime& b) { return a.time < b.time; }
};

namespace detail {

using mgnify::detail::days_from_civil;

}  // namespace detail

/// Parses ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)"; a missing
/// zone is read as UTC (the service runs with TIME_ZONE=UTC). Throws DecodeError.
inline DateTime parse_datetime(const std::string& text) {
  auto fail = [&](const char* why) -> DateTime {
    throw DecodeError("", "", "invalid datetime '" + text + "': " + why);
  };
  std::size_t pos = 0;
  auto number = [&](std::size_t digits, std::int64_t& out) {
    if (pos + digits > text.size()) return false;
    out = 0;
    for (std::size_t i = 0; i < digits; ++i) {
      const char c = text[pos + i];
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    pos += digits;
    return true;
  };
  auto expect = [&](char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  };
  std::int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!number(4, year) || !expect('-') || !number(2, month) || !expect('-') || !number(2, day)) {
    return fail("expected YYYY-MM-DD");
  }
  if (!(expect('T') || expect('t') || expect(' '))) return fail("expected 'T' after the date");
  if (!number(2, hour) || !expect(':') || !number(2, minute) || !expect(':') ||
      !number(2, second)) {
    return fail("expected HH:MM:SS");
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return fail("field out of range");
  }
  std::int64_t micros = 0;
  if (expect('.')) {
    std::size_t digits = 0;
    std::int64_t scale = 100000;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (scale > 0) micros += (text[pos] - '0') * scale;
      scale /= 10;
      ++pos;
      ++digits;
    }
    if (digits == 0) return fail("empty fraction");
  }
  std::int64_t offset_minutes = 0;
  if (pos < text.size()) {
    if (expect('Z') || expect('z')) {
    } else if (text[pos] == '+' || text[pos] == '-') {
      const int sign = text[pos] == '-' ? -1 : 1;
      ++pos;
      std::int64_t oh = 0, om = 0;
      if (!number(2, oh)) return fail("bad zone offset");
      expect(':');
      if (!number(2, om)) return fail("bad zone offset");
      offset_minutes = sign * (oh * 60 + om);
    } else {
      return fail("unexpected text after the time");
    }
  }
  if (pos != text.size()) return fail("unexpected text after the zone");
  const std::int64_t days =
      detail::days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t seconds =
      days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  DateTime out;
  out.time = decltype(out.time)(std::chrono::microseconds(seconds * 1000000 + micros));
  out.text = text;
  return out;
}

/// Milliseconds since the Unix epoch (handy for comparisons and printing).
inline std::int64_t to_unix_millis(const DateTime& dt) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(dt.time.time_since_epoch()).count();
}

inline void from_json(const nlohmann::json& j, DateTime& out) {
  if (!j.is_string()) {
    throw DecodeError("", "", std::string("expected a datetime string, got ") + j.type_name());
  }
  out = parse_datetime(j.get<std::string>());
}

inline void to_json(nlohmann::json& j, const DateTime& dt) { j = dt.text; }

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
