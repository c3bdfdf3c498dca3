#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <string>

#include "mgnify/error.hpp"
#include "mgnify/http/retry.hpp"

using namespace std::chrono_literals;
using mgnify::TransportError;
using mgnify::http::Backoff;
using mgnify::http::parse_http_date;
using mgnify::http::parse_retry_after;
using mgnify::http::RetryOptions;
using SysTp = std::chrono::system_clock::time_point;

namespace {
SysTp at(std::int64_t epoch_seconds) { return SysTp{} + std::chrono::seconds(epoch_seconds); }
constexpr std::int64_t kRfcExample = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT
}  // namespace

TEST_CASE("default retry policy: 4 attempts, the six retryable statuses", "[retry]") {
  const RetryOptions r;
  CHECK(r.max_attempts == 4);
  CHECK(r.retry_transport_errors);
  for (int s : {408, 429, 500, 502, 503, 504}) {
    INFO(s);
    CHECK(r.is_retryable_status(s));
  }
  for (int s : {200, 301, 400, 401, 403, 404, 409, 422, 501, 505}) {
    INFO(s);
    CHECK_FALSE(r.is_retryable_status(s));
  }
}

TEST_CASE("transport failures worth retrying", "[retry]") {
  using Kind = TransportError::Kind;
  RetryOptions r;
  auto err = [](Kind k) { return TransportError(k, 0, "https://h/", "x"); };
  CHECK(r.is_retryable(err(Kind::connect)));
  CHECK(r.is_retryable(err(Kind::timeout)));
  CHECK(r.is_retryable(err(Kind::send)));
  CHECK(r.is_retryable(err(Kind::receive)));
  CHECK(r.is_retryable(err(Kind::other)));
  CHECK_FALSE(r.is_retryable(err(Kind::tls)));
  CHECK_FALSE(r.is_retryable(err(Kind::body_too_large)));
  r.retry_transport_errors = false;
  CHECK_FALSE(r.is_retryable(err(Kind::connect)));
  CHECK_FALSE(r.is_retryable(err(Kind::timeout)));
}

TEST_CASE("HTTP-date in all three RFC 9110 forms", "[retry][date]") {
  SECTION("IMF-fixdate") {
    CHECK(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT") == at(kRfcExample));
  }
  SECTION("obsolete RFC 850 form with a two-digit year") {
    CHECK(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT") == at(kRfcExample));
    CHECK(parse_http_date("Monday, 01-Jan-69 00:00:00 GMT") == at(3124224000));  // 2069
  }
  SECTION("ANSI C asctime() form") {
    CHECK(parse_http_date("Sun Nov  6 08:49:37 1994") == at(kRfcExample));
  }
  SECTION("leap day, end of year, epoch, any month case") {
    CHECK(parse_http_date("Thu, 29 Feb 2024 00:00:00 GMT") == at(1709164800));
    CHECK(parse_http_date("Thu, 31 Dec 2037 23:59:59 GMT") == at(2145916799));
    CHECK(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT") == at(0));
    CHECK(parse_http_date("Sun, 06 NOV 1994 08:49:37 GMT") == at(kRfcExample));
  }
}

TEST_CASE("malformed or hostile HTTP-dates are rejected without throwing", "[retry][date]") {
  const char* bad[] = {
      "",
      "garbage",
      "Sun, 06 Nov 1994",                      // no time
      "Sun, 06 Nov 1994 8:49:37 GMT",          // time not HH:MM:SS
      "Sun, 06 Nov 1994 24:00:00 GMT",
      "Sun, 06 Nov 1994 08:60:00 GMT",
      "Sun, 32 Nov 1994 08:49:37 GMT",
      "Sun, 00 Nov 1994 08:49:37 GMT",
      "Sun, 06 Foo 1994 08:49:37 GMT",
      "Sun, 06 Nov 1969 08:49:37 GMT",         // before the epoch
      "Sun, 06 Nov 99999999999999999999999 08:49:37 GMT",
      "Sun, 06 Nov 1994 99999999999:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37x GMT",
  };
  for (const char* text : bad) {
    INFO(text);
    std::optional<SysTp> parsed;
    REQUIRE_NOTHROW(parsed = parse_http_date(text));
    CHECK_FALSE(parsed.has_value());
  }
}

TEST_CASE("an HTTP-date beyond what system_clock can hold is clamped", "[retry][date]") {
  const auto far = parse_http_date("Fri, 31 Dec 9999 23:59:59 GMT");
  REQUIRE(far);
  CHECK(*far == SysTp::max());
  const auto wait = parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", at(kRfcExample));
  REQUIRE(wait);
  CHECK(*wait == 999'999'999s);  // the same ceiling as an absurd delta-seconds value
}

TEST_CASE("Retry-After as delta-seconds", "[retry]") {
  const auto now = at(kRfcExample);
  CHECK(parse_retry_after("120", now) == std::optional<std::chrono::seconds>(120s));
  CHECK(parse_retry_after("0", now) == std::optional<std::chrono::seconds>(0s));
  CHECK(parse_retry_after("  7\t", now) == std::optional<std::chrono::seconds>(7s));
  CHECK(parse_retry_after("99999999999999999999", now) ==
        std::optional<std::chrono::seconds>(999'999'999s));
  CHECK_FALSE(parse_retry_after("", now).has_value());
  CHECK_FALSE(parse_retry_after("   ", now).has_value());
  CHECK_FALSE(parse_retry_after("-5", now).has_value());
  CHECK_FALSE(parse_retry_after("1.5", now).has_value());
  CHECK_FALSE(parse_retry_after("soon", now).has_value());
}

TEST_CASE("Retry-After as an HTTP-date, in each form, relative to now", "[retry]") {
  const auto now = at(kRfcExample - 30);
  for (const char* form : {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                           "Sun Nov  6 08:49:37 1994"}) {
    INFO(form);
    CHECK(parse_retry_after(form, now) == std::optional<std::chrono::seconds>(30s));
    // Part of a second left counts as a whole one: waking early only earns another 429.
    CHECK(parse_retry_after(form, now + 500ms) == std::optional<std::chrono::seconds>(30s));
    CHECK(parse_retry_after(form, now + 1s) == std::optional<std::chrono::seconds>(29s));
    // A date in the past (or now) means retry at once.
    CHECK(parse_retry_after(form, at(kRfcExample)) == std::optional<std::chrono::seconds>(0s));
    CHECK(parse_retry_after(form, at(kRfcExample + 3600)) == std::optional<std::chrono::seconds>(0s));
  }
}

TEST_CASE("backoff is full-jitter exponential, bounded by max_backoff", "[retry][backoff]") {
  RetryOptions r;
  r.initial_backoff = 100ms;
  r.multiplier = 2.0;
  r.max_backoff = 1000ms;
  const std::chrono::milliseconds caps[] = {100ms, 200ms, 400ms, 800ms, 1000ms, 1000ms, 1000ms};
  for (int retry = 1; retry <= 7; ++retry) {
    INFO("retry " << retry);
    std::chrono::milliseconds lo = 1h, hi = 0ms;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
      Backoff b(r, seed);
      const auto w = b.next(retry, std::nullopt);
      lo = std::min(lo, w);
      hi = std::max(hi, w);
    }
    const auto cap = caps[retry - 1];
    CHECK(lo >= 0ms);
    CHECK(hi <= cap);
    // Full jitter spreads over the whole range, not just near the cap.
    CHECK(lo <= cap / 10);
    CHECK(hi >= cap * 9 / 10);
  }
}

TEST_CASE("backoff is reproducible for a seed and huge retry numbers stay capped", "[retry][backoff]") {
  RetryOptions r;
  Backoff a(r, 42), b(r, 42);
  for (int i = 1; i <= 10; ++i) CHECK(a.next(i, std::nullopt) == b.next(i, std::nullopt));
  Backoff c(r, 7);
  CHECK(c.next(1'000'000, std::nullopt) <= r.max_backoff);

  RetryOptions zero;
  zero.initial_backoff = 0ms;
  Backoff z(zero, 1);
  CHECK(z.next(1, std::nullopt) == 0ms);
  CHECK(z.next(5, std::nullopt) == 0ms);
}

TEST_CASE("a server's Retry-After wins over a shorter backoff and is clamped", "[retry][backoff]") {
  RetryOptions r;
  r.initial_backoff = 1ms;
  r.max_backoff = 1ms;
  r.max_retry_after = 60s;
  Backoff b(r, 3);
  CHECK(b.next(1, 5s) == 5000ms);
  CHECK(b.next(3, 60s) == 60000ms);
  CHECK(b.next(1, 3600s) == 60000ms);               // clamped to max_retry_after
  CHECK(b.next(1, 999'999'999s) == 60000ms);
  CHECK(b.next(1, 0s) <= 1ms);                      // "now" leaves the jittered wait

  // A longer computed backoff is not shortened by a small Retry-After.
  RetryOptions slow;
  slow.initial_backoff = 10s;
  slow.max_backoff = 10s;
  bool some_longer = false;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    Backoff s(slow, seed);
    const auto w = s.next(1, 1s);
    CHECK(w >= 1000ms);
    CHECK(w <= 10000ms);
    some_longer = some_longer || w > 1000ms;
  }
  CHECK(some_longer);
}
