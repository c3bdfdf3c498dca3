#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/message.hpp"

namespace demo {

struct Child {
  int value = 0;
};
inline void from_json(const nlohmann::json& j, Child& c) {
  mgnify::detail::read_required(j, "value", c.value);
}

struct Model {
  std::string name;
  std::optional<int> count;
  std::vector<std::string> tags{"default"};
  Child child;
  std::vector<Child> children;
  nlohmann::json raw;
};
inline void from_json(const nlohmann::json& j, Model& m) {
  using namespace mgnify::detail;
  read_required(j, "name", m.name);
  read_optional(j, "count", m.count);
  read_or_keep(j, "tags", m.tags);
  read_or_keep(j, "child", m.child);
  read_or_keep(j, "children", m.children);
  m.raw = j;
}
inline void to_json(nlohmann::json& j, const Model& m) {
  j = m.raw.is_object() ? m.raw : nlohmann::json::object();
  const mgnify::detail::JsonFieldWriter writer{j};
  writer.required("name", m.name);
  writer.optional("count", m.count);
}

}  // namespace demo

using mgnify::DecodeError;
using mgnify::detail::decode;
using mgnify::detail::parse_body;

namespace {
const std::string kUrl = "https://h/api/v1/things/1";

// Runs decode and returns the DecodeError it must throw.
DecodeError decode_error(const std::string& text) {
  try {
    decode<demo::Model>(nlohmann::json::parse(text), kUrl);
  } catch (const DecodeError& e) {
    return e;
  }
  FAIL("no DecodeError for " << text);
  return DecodeError("", "", "");
}
}  // namespace

TEST_CASE("a well-formed document decodes, extra keys ignored and raw kept", "[json]") {
  const auto m = decode<demo::Model>(nlohmann::json::parse(R"({
      "name": "x", "count": 3, "tags": ["a", "b"], "child": {"value": 1},
      "children": [{"value": 2}, {"value": 3, "extra": true}], "unknown": {"deep": [1]}})"),
                                     kUrl);
  CHECK(m.name == "x");
  CHECK(m.count == std::optional<int>(3));
  CHECK(m.tags == std::vector<std::string>{"a", "b"});
  CHECK(m.child.value == 1);
  REQUIRE(m.children.size() == 2);
  CHECK(m.children[1].value == 3);
  CHECK(m.raw.at("unknown").at("deep").at(0) == 1);
}

TEST_CASE("optional and defaulted fields accept absence and null", "[json]") {
  const auto m = decode<demo::Model>(
      nlohmann::json::parse(R"({"name": "x", "count": null, "tags": null})"), kUrl);
  CHECK_FALSE(m.count.has_value());
  CHECK(m.tags == std::vector<std::string>{"default"});
  CHECK(m.children.empty());

  nlohmann::json out = m;
  CHECK(out.contains("count"));
  CHECK(out.at("count").is_null());
  demo::Model with;
  with.count = 4;
  CHECK(nlohmann::json(with).at("count") == 4);
}

TEST_CASE("DecodeError names the JSON path of the bad value and the URL", "[json]") {
  SECTION("missing required field") {
    const auto e = decode_error(R"({"count": 1})");
    CHECK(e.json_path() == "/name");
    CHECK(e.url() == kUrl);
    CHECK(e.detail() == "required field is missing");
    CHECK(std::string(e.what()) ==
          "cannot decode /name from " + kUrl + ": required field is missing");
  }
  SECTION("null required field") {
    CHECK(decode_error(R"({"name": null})").json_path() == "/name");
  }
  SECTION("wrong type") {
    const auto e = decode_error(R"({"name": "x", "count": "three"})");
    CHECK(e.json_path() == "/count");
    CHECK(e.detail().rfind("expected another type, got string", 0) == 0);
  }
  SECTION("wrong type inside a list of strings") {
    const auto e = decode_error(R"({"name": "x", "tags": ["a", 2]})");
    CHECK(e.json_path() == "/tags/1");
  }
  SECTION("nested object") {
    const auto e = decode_error(R"({"name": "x", "child": {"value": "v"}})");
    CHECK(e.json_path() == "/child/value");
    CHECK(e.url() == kUrl);
  }
  SECTION("element of a list of objects, with its index") {
    const auto e = decode_error(R"({"name": "x", "children": [{"value": 1}, {"value": 2}, {}]})");
    CHECK(e.json_path() == "/children/2/value");
    CHECK(e.detail() == "required field is missing");
  }
  SECTION("a list where an object was expected") {
    const auto e = decode_error(R"({"name": "x", "children": {"value": 1}})");
    CHECK(e.json_path() == "/children");
  }
  SECTION("a document that is not an object") {
    const auto e = decode_error(R"([1, 2])");
    CHECK(e.json_path() == "/name");
  }
}

TEST_CASE("keys with '/' or '~' are escaped in the path as JSON Pointer does", "[json]") {
  nlohmann::json j = {{"a/b~c", "not a number"}};
  try {
    int v = 0;
    mgnify::detail::read_required(j, "a/b~c", v);
    FAIL("no throw");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/a~1b~0c");
  }
}

TEST_CASE("parse_body turns empty and malformed bodies into DecodeError naming the URL", "[json]") {
  CHECK(parse_body(R"({"a": 1})", kUrl).at("a") == 1);
  try {
    parse_body("  \r\n", kUrl);
    FAIL("no throw");
  } catch (const DecodeError& e) {
    CHECK(e.json_path().empty());
    CHECK(e.url() == kUrl);
    CHECK(e.detail() == "empty response body where JSON was expected");
  }
  try {
    parse_body(R"({"items": [1, 2)", kUrl);
    FAIL("no throw");
  } catch (const DecodeError& e) {
    CHECK(e.url() == kUrl);
    CHECK(e.detail().rfind("invalid JSON: ", 0) == 0);
    CHECK(std::string(e.what()).rfind("cannot decode response from " + kUrl + ": invalid JSON",
                                      0) == 0);
  }
  CHECK_THROWS_AS(parse_body("<html>502</html>", kUrl), DecodeError);
}

TEST_CASE("a malformed body's DecodeError keeps its position but not the text it was reading",
          "[json][secrets]") {
  // A login answer cut off inside its token, and one with a raw line break in it.
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {"{\"token\": \"eyJ.cut-off-token-0xFEED", "eyJ.cut-off-token-0xFEED"},
      {"{\"token\": \"eyJ.broken-token-0xF00D\n.tail\"}", "eyJ.broken-token-0xF00D"},
  };
  for (const auto& [body, secret] : bodies) {
    INFO(body);
    try {
      parse_body(body, kUrl);
      FAIL("no throw");
    } catch (const DecodeError& e) {
      CHECK(e.detail().rfind("invalid JSON: ", 0) == 0);
      CHECK_THAT(e.detail(), Catch::Contains("parse error at line"));
      CHECK_THAT(e.detail(), Catch::Contains("invalid string"));
      CHECK(std::string(e.what()).find(secret) == std::string::npos);
      CHECK(std::string(e.what()).find("eyJ") == std::string::npos);
    }
  }
}

TEST_CASE("decode_response uses the response's URL", "[json]") {
  mgnify::http::Response r;
  r.status = 200;
  r.url = "https://h/final";
  r.body = R"({"name": 5})";
  try {
    mgnify::detail::decode_response<demo::Model>(r);
    FAIL("no throw");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/name");
    CHECK(e.url() == "https://h/final");
  }
  r.body = R"({"name": "ok"})";
  CHECK(mgnify::detail::decode_response<demo::Model>(r).name == "ok");
}

TEST_CASE("decode turns nlohmann's own errors into DecodeError", "[json]") {
  try {
    decode<std::vector<int>>(nlohmann::json::parse(R"({"not": "a list"})"), kUrl);
    FAIL("no throw");
  } catch (const DecodeError& e) {
    CHECK(e.url() == kUrl);
    CHECK(e.json_path().empty());
  }
}
