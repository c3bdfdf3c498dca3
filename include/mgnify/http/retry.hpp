#pragma once

// Retry policy: which outcomes are worth another attempt, and how long to wait.
// Full-jitter exponential backoff spreads the retries of many clients apart;
// a server's Retry-After always wins over a shorter computed wait.

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/detail/civil_time.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

struct RetryOptions {
  /// Attempts in total, the first included; 1 disables retries.
  int max_attempts = 4;
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{20'000};
  double multiplier = 2.0;
  /// A server-sent Retry-After longer than this is clamped to it, so a
  /// misconfigured proxy cannot park a pipeline for hours.
  std::chrono::milliseconds max_retry_after{60'000};
  std::vector<int> retryable_statuses{408, 429, 500, 502, 503, 504};
  /// Retry connect failures, timeouts and dropped connections (idempotent requests only).
  bool retry_transport_errors = true;

  bool is_retryable_status(int status) const {
    return std::find(retryable_statuses.begin(), retryable_statuses.end(), status) !=
           retryable_statuses.end();
  }
  bool is_retryable(const TransportError& e) const {
    if (!retry_transport_errors) return false;
    // A TLS verification failure or an oversized body will not change on a retry.
    return e.kind() != TransportError::Kind::tls &&
           e.kind() != TransportError::Kind::body_too_large;
  }
};

namespace detail {

inline int month_index(std::string_view name) {
  static constexpr std::array<const char*, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                          "jul", "aug", "sep", "oct", "nov", "dec"};
  if (name.size() < 3) return -1;
  std::string lower;
  for (char c : name.substr(0, 3)) {
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  for (std::size_t i = 0; i < kMonths.size(); ++i) {
    if (lower == kMonths[i]) return static_cast<int>(i) + 1;
  }
  return -1;
}

using mgnify::detail::days_from_civil;

}  // namespace detail

/// Parses an HTTP-date in any of the three RFC 9110 forms (IMF-fixdate,
/// RFC 850, asctime). Returns nullopt for anything else.
inline std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '-' || c == '\t') {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  int day = -1, month = -1, hour = -1, minute = -1, second = -1;
  long year = -1;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  for (const auto& t : tokens) {
    if (t.find(':') != std::string::npos) {
      // Exactly "HH:MM:SS": a header is untrusted input, so no sscanf and no overflow.
      if (t.size() != 8 || t[2] != ':' || t[5] != ':' || !digit(t[0]) || !digit(t[1]) ||
          !digit(t[3]) || !digit(t[4]) || !digit(t[6]) || !digit(t[7])) {
        return std::nullopt;
      }
      hour = (t[0] - '0') * 10 + (t[1] - '0');
      minute = (t[3] - '0') * 10 + (t[4] - '0');
      second = (t[6] - '0') * 10 + (t[7] - '0');
    } else if (digit(t[0])) {
      // Days have at most two digits and years four; anything longer is not a date
      // (and would overflow std::stol).
      if (t.size() > 4) return std::nullopt;
      for (char c : t) {
        if (!digit(c)) return std::nullopt;
      }
      const long v = std::stol(t);
      if (t.size() <= 2 && day < 0) {
        day = static_cast<int>(v);
      } else {
        year = v;
      }
    } else if (month < 0) {
      const int m = detail::month_index(t);
      if (m > 0 && t.size() == 3) month = m;  // day names are longer or not months
    }
  }
  if (year >= 0 && year < 100) year += year < 70 ? 2000 : 1900;  // RFC 850 two-digit years
  if (day < 1 || day > 31 || month < 1 || year < 1970 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 60) {
    return std::nullopt;
  }
  const std::int64_t days =
      detail::days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second;
  // system_clock counts nanoseconds in 64 bits (until 2262): a later date is
  // clamped instead of overflowing.
  using Tp = std::chrono::system_clock::time_point;
  if (secs >= std::chrono::duration_cast<std::chrono::seconds>(Tp::duration::max()).count()) {
    return Tp::max();
  }
  return Tp{} + std::chrono::duration_cast<Tp::duration>(std::chrono::seconds(secs));
}

/// Retry-After as a wait from `now`: delta-seconds or an HTTP-date. A date in
/// the past means "now" (zero).
inline std::optional<std::chrono::seconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    if (value.size() > 9) return std::chrono::seconds(999'999'999);
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  const auto when = parse_http_date(value);
  if (!when) return std::nullopt;
  if (*when <= now) return std::chrono::seconds(0);
  const auto delta = *when - now;
  auto wait = std::chrono::duration_cast<std::chrono::seconds>(delta);
  if (wait < delta) ++wait;  // round up: waking early would only earn another 429
  return std::min(wait, std::chrono::seconds(999'999'999));
}

/// Whether an error response says the server did not act on the request: a
/// 429, or a 503, that says when to come back (Retry-After). Only such a
/// response lets a request that is not idempotent (a POST) be sent again;
/// any other failure might have been processed and must not be repeated.
inline bool server_did_not_act(int status, bool has_retry_after) noexcept {
  return (status == 429 || status == 503) && has_retry_after;
}

/// Computes the wait before retry number `retry` (1 for the first retry).
class Backoff {
 public:
  explicit Backoff(const RetryOptions& options, std::uint64_t seed = std::random_device{}())
      : options_(options), rng_(seed) {}

  std::chrono::milliseconds next(int retry, std::optional<std::chrono::seconds> retry_after) {
    double cap = static_cast<double>(options_.initial_backoff.count());
    for (int i = 1; i < retry && cap < static_cast<double>(options_.max_backoff.count()); ++i) {
      cap *= options_.multiplier;
    }
    cap = std::min(cap, static_cast<double>(options_.max_backoff.count()));
    std::uniform_real_distribution<double> jitter(0.0, std::max(cap, 0.0));
    auto wait = std::chrono::milliseconds(static_cast<std::int64_t>(jitter(rng_)));
    if (retry_after) {
      const auto server =
          std::min<std::chrono::milliseconds>(*retry_after, options_.max_retry_after);
      wait = std::max(wait, server);
    }
    return wait;
  }

 private:
  RetryOptions options_;
  std::mt19937_64 rng_;
};

}  // namespace http
MGNIFY_NAMESPACE_END
