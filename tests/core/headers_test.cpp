#include "mgnify/http/headers.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <typeinfo>
#include <vector>

#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

using mgnify::http::Headers;
using mgnify::http::Method;

TEST_CASE("header lookup ignores case and returns the first value", "[headers]") {
  Headers h{{"Content-Type", "application/json"}, {"set-cookie", "a=1"}};
  h.add("SET-COOKIE", "b=2");
  CHECK(h.get("content-type") == std::optional<std::string>("application/json"));
  CHECK(h.get("CONTENT-TYPE") == std::optional<std::string>("application/json"));
  CHECK(h.get("Set-Cookie") == std::optional<std::string>("a=1"));
  CHECK_FALSE(h.get("Content-Length").has_value());
  CHECK_FALSE(h.get("Content-Typ").has_value());
  CHECK(h.contains("cOnTeNt-TyPe"));
  CHECK_FALSE(h.contains("x"));
  CHECK(h.value_or("retry-after", "none") == "none");
  CHECK(h.value_or("content-type", "none") == "application/json");
  CHECK(h.size() == 3);
}

TEST_CASE("set replaces every header of a name whatever its case; erase removes them all",
          "[headers]") {
  Headers h;
  h.add("Accept", "text/html");
  h.add("accept", "text/plain");
  h.add("X-Other", "1");
  h.set("ACCEPT", "application/json");
  REQUIRE(h.size() == 2);
  CHECK(h.get("accept") == std::optional<std::string>("application/json"));

  // Order and spelling are the caller's.
  std::vector<std::string> names;
  for (const auto& [name, value] : h) names.push_back(name);
  CHECK(names == std::vector<std::string>{"X-Other", "ACCEPT"});

  h.erase("x-other");
  CHECK(h.size() == 1);
  h.erase("not-there");
  CHECK(h.size() == 1);
  h.clear();
  CHECK(h.empty());
}

TEST_CASE("secret headers are recognised in any case", "[headers]") {
  for (const char* name :
       {"Authorization", "authorization", "PROXY-AUTHORIZATION", "Cookie", "set-cookie",
        "X-Api-Key", "x-auth-token", "X-Amz-Security-Token", "Private-Token"}) {
    INFO(name);
    CHECK(mgnify::http::is_secret_header(name));
  }
  for (const char* name : {"Accept", "User-Agent", "Authorization-Hint", "X-Cookie"}) {
    INFO(name);
    CHECK_FALSE(mgnify::http::is_secret_header(name));
  }
}

TEST_CASE("method names and idempotency follow RFC 9110", "[headers][message]") {
  CHECK(std::string(mgnify::http::method_name(Method::get)) == "GET");
  CHECK(std::string(mgnify::http::method_name(Method::head)) == "HEAD");
  CHECK(std::string(mgnify::http::method_name(Method::post)) == "POST");
  CHECK(std::string(mgnify::http::method_name(Method::put)) == "PUT");
  CHECK(std::string(mgnify::http::method_name(Method::patch)) == "PATCH");
  CHECK(std::string(mgnify::http::method_name(Method::del)) == "DELETE");
  CHECK(std::string(mgnify::http::method_name(Method::options)) == "OPTIONS");

  CHECK(mgnify::http::is_idempotent(Method::get));
  CHECK(mgnify::http::is_idempotent(Method::head));
  CHECK(mgnify::http::is_idempotent(Method::put));
  CHECK(mgnify::http::is_idempotent(Method::del));
  CHECK(mgnify::http::is_idempotent(Method::options));
  CHECK_FALSE(mgnify::http::is_idempotent(Method::post));
  CHECK_FALSE(mgnify::http::is_idempotent(Method::patch));
}

TEST_CASE("Response classifies success and redirect statuses", "[headers][message]") {
  mgnify::http::Response r;
  for (int s : {200, 201, 204, 299}) {
    r.status = s;
    INFO(s);
    CHECK(r.is_success());
    CHECK_FALSE(r.is_redirect());
  }
  for (int s : {0, 199, 300, 304, 400, 500}) {
    r.status = s;
    INFO(s);
    CHECK_FALSE(r.is_success());
  }
  for (int s : {301, 302, 303, 307, 308}) {
    r.status = s;
    INFO(s);
    CHECK(r.is_redirect());
  }
  for (int s : {300, 304, 305, 306, 309, 200}) {
    r.status = s;
    INFO(s);
    CHECK_FALSE(r.is_redirect());
  }
  CHECK(mgnify::http::Response{}.attempts == 1);
  CHECK(mgnify::http::Request{}.method == Method::get);
  CHECK(mgnify::http::Request{}.timeout.count() == 0);
}

TEST_CASE("version macros, constants and string agree", "[version]") {
  const std::string expected = std::to_string(MGNIFY_VERSION_MAJOR) + "." +
                               std::to_string(MGNIFY_VERSION_MINOR) + "." +
                               std::to_string(MGNIFY_VERSION_PATCH);
  CHECK(expected == MGNIFY_VERSION_STRING);
  CHECK(std::string(mgnify::version_string()) == expected);
  CHECK(mgnify::version_major == MGNIFY_VERSION_MAJOR);
  CHECK(mgnify::MGNIFY_ABI_NAMESPACE::version_minor == MGNIFY_VERSION_MINOR);
  CHECK(mgnify::version_patch == MGNIFY_VERSION_PATCH);
}

TEST_CASE("the ABI namespace is named after the version", "[version]") {
  const std::string abi = "abi_" + std::to_string(MGNIFY_VERSION_MAJOR) + "_" +
                          std::to_string(MGNIFY_VERSION_MINOR) + "_" +
                          std::to_string(MGNIFY_VERSION_PATCH);
  // Mangled names carry the inline namespace, so a type declared outside it would not.
  for (const std::string mangled :
       {typeid(mgnify::http::Request).name(), typeid(mgnify::http::Headers).name()}) {
    CAPTURE(mangled);
    CHECK(mangled.find(abi) != std::string::npos);
  }
}
