// Inputs found by the libFuzzer targets (fuzz/), reduced by hand. Each one
// crashed or hit undefined behaviour before its fix; each must now decode or
// fail with a DecodeError naming the offending value.

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include "mgnify/detail/json.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

using mgnify::DecodeError;
using nlohmann::json;

TEST_CASE("fuzz: a number too large for any type is a DecodeError, not an escaped out_of_range",
          "[fuzz][json]") {
  try {
    mgnify::detail::parse_body(R"({"count": 99999e99999899})", "https://x/y");
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.url() == "https://x/y");
    CHECK_THAT(e.detail(), Catch::Contains("invalid JSON"));
  }
}

TEST_CASE("fuzz: a float outside an integer field's range is a DecodeError with its path",
          "[fuzz][json]") {
  json genome = {{"accession", "MGYG000000001"}, {"length", 1.11111e+23}};
  try {
    (void)mgnify::detail::decode<mgnify::v2::GenomeDetail>(genome, "u");
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/length");
    CHECK_THAT(e.detail(), Catch::Contains("does not fit"));
  }
}

TEST_CASE("integer fields accept integral floats and reject fractions, NaN-like and wrapped values",
          "[fuzz][json]") {
  using mgnify::detail::convert_at;
  CHECK(convert_at<std::int64_t>(json(3.0), "/n") == 3);
  CHECK(convert_at<int>(json(-7), "/n") == -7);
  CHECK(convert_at<std::uint32_t>(json(7u), "/n") == 7u);
  CHECK_THROWS_AS(convert_at<std::int64_t>(json(3.5), "/n"), DecodeError);
  CHECK_THROWS_AS(convert_at<std::int64_t>(json(9.3e18), "/n"), DecodeError);
  CHECK_THROWS_AS(convert_at<int>(json(std::int64_t{1} << 40), "/n"), DecodeError);
  CHECK_THROWS_AS(convert_at<std::int64_t>(json(std::numeric_limits<std::uint64_t>::max()), "/n"),
                  DecodeError);
  CHECK_THROWS_AS(convert_at<std::uint64_t>(json(-1), "/n"), DecodeError);
  // An integer sent as a string is read; other text, or one too large, is not.
  CHECK(convert_at<int>(json("12"), "/n") == 12);
  CHECK_THROWS_AS(convert_at<int>(json("12 apples"), "/n"), DecodeError);
  CHECK_THROWS_AS(convert_at<int>(json("99999999999"), "/n"), DecodeError);
  CHECK_THROWS_AS(convert_at<int>(json(""), "/n"), DecodeError);
  CHECK(convert_at<std::int64_t>(json(std::numeric_limits<std::int64_t>::min()), "/n") ==
        std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("fuzz: a v1 timestamp beyond system_clock's range keeps its text without a time",
          "[fuzz][v1]") {
  const json sample = {
      {"type", "samples"},
      {"id", "ERS0000001"},
      {"attributes", {{"accession", "ERS0000001"}, {"last-update", "9999-12-31T23:59:59"}}}};
  const auto decoded = sample.get<mgnify::v1::Sample>();
  REQUIRE(decoded.last_update.has_value());
  CHECK(decoded.last_update->text == "9999-12-31T23:59:59");
  CHECK_FALSE(decoded.last_update->time.has_value());

  const json in_range = {
      {"type", "samples"},
      {"id", "ERS0000001"},
      {"attributes", {{"accession", "ERS0000001"}, {"last-update", "2261-12-31T23:59:59"}}}};
  CHECK(in_range.get<mgnify::v1::Sample>().last_update->time.has_value());
}
