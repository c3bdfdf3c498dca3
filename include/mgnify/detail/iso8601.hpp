#pragma once

// The one ISO 8601 reader behind v1's Timestamp and v2's DateTime:
// "YYYY-MM-DD", then optionally 'T' (or 't' or ' ') and "HH:MM:SS", an
// optional fraction and an optional zone ('Z' or +HH:MM, +HHMM). A missing
// zone is UTC: both services run with TIME_ZONE=UTC.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "mgnify/detail/civil_time.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

enum class DateOnly { accepted, refused };

/// Microseconds since 1970-01-01T00:00:00Z, or nullopt for text that is not
/// such a date-time (or a date alone, when `date_only` accepts it).
inline std::optional<std::int64_t> parse_iso8601_micros(std::string_view text, DateOnly date_only) {
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
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  std::int64_t micros = 0;
  std::int64_t offset_minutes = 0;
  if (pos == text.size()) {
    if (date_only == DateOnly::refused) return std::nullopt;
  } else {
    if (!(expect('T') || expect('t') || expect(' '))) return std::nullopt;
    if (!number(2, hour) || !expect(':') || !number(2, minute) || !expect(':') ||
        !number(2, second)) {
      return std::nullopt;
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
    if (expect('.')) {
      std::size_t digits = 0;
      std::int64_t scale = 100000;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        micros += (text[pos] - '0') * scale;
        scale /= 10;
        ++pos;
        ++digits;
      }
      if (digits == 0) return std::nullopt;
    }
    if (expect('Z') || expect('z')) {
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      const int sign = text[pos] == '-' ? -1 : 1;
      ++pos;
      std::int64_t zone_hours = 0, zone_minutes = 0;
      if (!number(2, zone_hours)) return std::nullopt;
      expect(':');
      if (!number(2, zone_minutes)) return std::nullopt;
      offset_minutes = sign * (zone_hours * 60 + zone_minutes);
    }
  }
  if (pos != text.size()) return std::nullopt;
  const std::int64_t days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t seconds =
      days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  return seconds * 1000000 + micros;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
