// A number a double would respell keeps the text it was sent with, wherever a
// writer has the text it was decoded from.

#include "mgnify/detail/number_text.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/v2.hpp"

using mgnify::detail::changed_number_texts;
using mgnify::detail::json_text_keeping_numbers;
using mgnify::detail::NumberTexts;
using nlohmann::json;

namespace {

std::string keeping(const json& value, const NumberTexts& texts, int indent = -1) {
  bool replaced = false;
  return json_text_keeping_numbers(value, indent, replaced, texts);
}

}  // namespace

TEST_CASE("changed_number_texts finds each number a double would respell, by its place",
          "[number_text]") {
  const std::string text =
      R"({"a": 1.50, "b": [1e3, 2, -0, 0.5], "c~/d": {"e": 12345678901234567890123},
      "f": "1.50", "g": 7, "h": 0.12345678901234567890, "i": -0.0, "j": 100.0, "k\u00b0": 2.0E1})";
  const NumberTexts texts = changed_number_texts(text);
  const NumberTexts expected = {{"/a", "1.50"},
                                {"/b/0", "1e3"},
                                {"/b/2", "-0"},
                                {"/c~0~1d/e", "12345678901234567890123"},
                                {"/h", "0.12345678901234567890"},
                                {"/k\xc2\xb0", "2.0E1"}};
  CHECK(texts == expected);
  // Text nlohmann writes back as it is needs no entry: most documents give none.
  CHECK(changed_number_texts(R"({"x": [1, -2, 0, 1.5, 100.0, -0.0, 1e-05], "y": "1.50"})").empty());
  CHECK(changed_number_texts("").empty());
  CHECK(changed_number_texts("not json {").empty());
}

TEST_CASE("changed_number_texts keeps the last of a repeated name, as the parsers do",
          "[number_text]") {
  CHECK(changed_number_texts(R"({"a": 1.50, "a": 2})").empty());
  CHECK(changed_number_texts(R"({"a": 1.50, "a": "x"})").empty());
  CHECK(changed_number_texts(R"({"a": 2, "a": 1.50})") == NumberTexts{{"/a", "1.50"}});
  // Brackets, quotes and digits inside strings are text, not structure.
  CHECK(changed_number_texts(R"({"s": "[{\"q\": 1.50}]", "n": 1.50})") ==
        NumberTexts{{"/n", "1.50"}});
}

TEST_CASE("json_text_keeping_numbers writes sent texts where the value still matches",
          "[number_text]") {
  const std::string text = R"({"a":1.50,"b":[1e3,"x",-0],"c":{"d":18446744073709551616}})";
  const json value = json::parse(text);
  const NumberTexts texts = changed_number_texts(text);
  CHECK(keeping(value, texts) == text);
  // Without texts, or for a value that changed since, the output is nlohmann's.
  CHECK(keeping(value, {}) == value.dump());
  json changed = value;
  changed["a"] = 2.5;
  CHECK(keeping(changed, texts) == R"({"a":2.5,"b":[1e3,"x",-0],"c":{"d":18446744073709551616}})");
  // The indented form is laid out as nlohmann lays it out.
  const json nested = json::parse(R"({"e":{},"f":[],"g":[{"h":1.50}],"i":"t"})");
  const NumberTexts nested_texts = {{"/g/0/h", "1.50"}};
  std::string expected = nested.dump(2);
  expected.replace(expected.find("1.5"), 3, "1.50");
  CHECK(keeping(nested, nested_texts, 2) == expected);
  // Insertion order of an ordered_json is kept.
  const auto ordered = nlohmann::ordered_json::parse(R"({"z":1e3,"a":1})");
  bool replaced = false;
  CHECK(json_text_keeping_numbers(ordered, -1, replaced, {{"/z", "1e3"}}) == R"({"z":1e3,"a":1})");
}

TEST_CASE("a decoded model keeps the text its numbers were sent with", "[number_text]") {
  const std::string text =
      R"({"count":1,"items":[{"accession":"MGYS00000001","title":"t","biome":null,)"
      R"("updated_at":"2024-01-01T00:00:00Z","ena_accessions":[],"depth":1.50,)"
      R"("extra":{"big":123456789012345678901234567890}}]})";
  const auto page =
      mgnify::detail::decode_body<mgnify::v2::CountedPage<mgnify::v2::Study>>(text, "test");
  REQUIRE(page.items.size() == 1);
  const auto& body = page.items[0];
  const std::string sent(body.raw.text());
  REQUIRE_FALSE(sent.empty());
  const std::string written = keeping(json(body), changed_number_texts(sent));
  CHECK(written.find("\"depth\":1.50") != std::string::npos);
  CHECK(written.find("\"big\":123456789012345678901234567890") != std::string::npos);
  CHECK(json::parse(written) == json(body));
}
