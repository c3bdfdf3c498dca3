#pragma once

// v2 timestamps come from Django's JSON encoder: "2025-07-29T11:32:54.168Z",
// but with no fraction at all when the microseconds are zero
// ("2025-07-29T11:32:54Z"). Both forms (and explicit offsets) must parse.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "mgnify/detail/iso8601.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

/// A UTC instant, with the text the service sent (kept for round trips). Text
/// that is not an ISO 8601 date-time is kept too, with parsed() false and
/// `time` at the epoch, instead of failing the object that holds it.
struct DateTime {
  std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds> time{};
  std::string text;
  bool parsed() const noexcept { return parsed_; }

  friend bool operator==(const DateTime& a, const DateTime& b) {
    return a.parsed_ && b.parsed_ ? a.time == b.time : a.text == b.text;
  }
  friend bool operator!=(const DateTime& a, const DateTime& b) { return !(a == b); }
  friend bool operator<(const DateTime& a, const DateTime& b) { return a.time < b.time; }

  /// `text` as a DateTime; parsed() says whether it was a date-time.
  static DateTime from_text(std::string text) {
    DateTime out;
    const auto micros =
        mgnify::detail::parse_iso8601_micros(text, mgnify::detail::DateOnly::refused);
    if (micros) out.time = decltype(out.time)(std::chrono::microseconds(*micros));
    out.parsed_ = micros.has_value();
    out.text = std::move(text);
    return out;
  }

 private:
  bool parsed_ = true;
};

/// Parses ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)"; a missing
/// zone is read as UTC (the service runs with TIME_ZONE=UTC). Throws DecodeError
/// for anything else: for values the caller supplies, where a typo should fail.
inline DateTime parse_datetime(const std::string& text) {
  DateTime out = DateTime::from_text(text);
  if (!out.parsed()) {
    throw DecodeError(
        "", "", "invalid datetime '" + text + "': expected YYYY-MM-DDTHH:MM:SS[.fraction][zone]");
  }
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
  out = DateTime::from_text(j.get<std::string>());
}

inline void to_json(nlohmann::json& j, const DateTime& dt) { j = dt.text; }

}  // namespace v2
MGNIFY_NAMESPACE_END
