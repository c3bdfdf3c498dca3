#pragma once

// The form of Retry-After and Date headers, for tests that script them.

#include <chrono>
#include <ctime>
#include <string>

namespace mgnify::test {

/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") of a time point.
inline std::string http_date(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

}  // namespace mgnify::test
