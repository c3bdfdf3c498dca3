#include "mgnify/error_body.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mgnify/detail/text_excerpt.hpp"
#include "mgnify/error.hpp"

using mgnify::ErrorBody;
using mgnify::parse_error_body;
using Shape = mgnify::ErrorBody::Shape;

namespace {
// The HTML page the mock's Fault::html(502) sends, as a proxy would.
const char* const kProxyPage =
    "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
    "<p>The proxy server received an invalid response.</p></body></html>";
}  // namespace

TEST_CASE("error body: {\"detail\": \"string\"}", "[error_body]") {
  const auto b = parse_error_body(R"({"detail": "Study with accession = MGYS99999999  was not found"})");
  CHECK(b.shape == Shape::detail_string);
  // The server's text exactly, double space included.
  CHECK(b.message == "Study with accession = MGYS99999999  was not found");
  CHECK(b.code.empty());
  CHECK(b.issues.empty());
  CHECK(b.api_errors.empty());
  CHECK(b.field_errors.empty());
}

TEST_CASE("error body: a detail string with a code and extra keys (ninja-jwt)", "[error_body]") {
  const auto b = parse_error_body(
      R"({"detail": "Given token not valid for any token type", "code": "token_not_valid",)"
      R"( "messages": [{"token_class": "SlidingToken", "message": "Token is invalid or expired"}]})");
  CHECK(b.shape == Shape::detail_string);
  CHECK(b.message == "Given token not valid for any token type");
  CHECK(b.code == "token_not_valid");
}

TEST_CASE("error body: a multi-line detail becomes one line", "[error_body]") {
  const auto b = parse_error_body(R"({"detail": "first line\n  second\tline\r\n"})");
  CHECK(b.shape == Shape::detail_string);
  CHECK(b.message == "first line second line");
}

TEST_CASE("error body: {\"detail\": [{type, loc, msg}]} gives issues and a joined message", "[error_body]") {
  const auto b = parse_error_body(R"({"detail": [
      {"type": "missing", "loc": ["query", "page"], "msg": "Field required"},
      {"type": "int_parsing", "loc": ["path", "ids", 2], "msg": "Input should be a valid integer",
       "ctx": {"error": "x"}},
      {"type": "value_error", "loc": ["query"], "msg": "Provide exactly one of biome_id or pfam_accession"}
  ]})");
  CHECK(b.shape == Shape::detail_list);
  REQUIRE(b.issues.size() == 3);
  CHECK(b.issues[0].type == "missing");
  CHECK(b.issues[0].loc == std::vector<std::string>{"query", "page"});
  CHECK(b.issues[0].msg == "Field required");
  CHECK(b.issues[1].loc == std::vector<std::string>{"path", "ids", "2"});
  CHECK(b.issues[1].raw.at("ctx").at("error") == "x");
  CHECK(b.issues[2].loc == std::vector<std::string>{"query"});
  CHECK(b.message ==
        "query.page: Field required; path.ids.2: Input should be a valid integer; "
        "query: Provide exactly one of biome_id or pfam_accession");
}

TEST_CASE("error body: detail list items without loc or that are plain strings", "[error_body]") {
  const auto b = parse_error_body(R"({"detail": [{"msg": "no location"}, "bare text", {"type": "t"}]})");
  CHECK(b.shape == Shape::detail_list);
  REQUIRE(b.issues.size() == 3);
  CHECK(b.issues[0].loc.empty());
  CHECK(b.issues[1].msg == "bare text");
  CHECK(b.issues[2].type == "t");
  CHECK(b.issues[2].msg.empty());
  CHECK(b.message == "no location; bare text; ");
}

TEST_CASE("error body: JSON:API errors array", "[error_body]") {
  const auto b = parse_error_body(
      R"({"errors":[{"detail":"Error decoding signature.","source":{"pointer":"/data"},)"
      R"("status":"401","code":"authentication_failed"},{"detail":"Second.","status":401}]})");
  CHECK(b.shape == Shape::jsonapi_errors);
  REQUIRE(b.api_errors.size() == 2);
  CHECK(b.api_errors[0].detail == "Error decoding signature.");
  CHECK(b.api_errors[0].status == "401");
  CHECK(b.api_errors[0].code == "authentication_failed");
  CHECK(b.api_errors[0].source_pointer == "/data");
  CHECK(b.api_errors[1].status == "401");  // a numeric status is kept as its text
  CHECK(b.api_errors[1].source_pointer.empty());
  CHECK(b.code == "authentication_failed");
  CHECK(b.message == "Error decoding signature.; Second.");
}

TEST_CASE("error body: {\"errors\": {\"field\": [...]}}", "[error_body]") {
  const auto b = parse_error_body(
      R"({"errors": {"non_field_errors": ["Unable to log in with provided credentials."],)"
      R"( "username": ["This field is required.", "Too short."], "password": "Blank."}})");
  CHECK(b.shape == Shape::field_errors);
  REQUIRE(b.field_errors.size() == 3);
  CHECK(b.field_errors.at("username") == std::vector<std::string>{"This field is required.", "Too short."});
  CHECK(b.field_errors.at("password") == std::vector<std::string>{"Blank."});
  CHECK(b.field_errors.at("non_field_errors") ==
        std::vector<std::string>{"Unable to log in with provided credentials."});
  // Fields in name order; the catch-all key shows only its message.
  CHECK(b.message ==
        "Unable to log in with provided credentials.; password: Blank.; "
        "username: This field is required.; username: Too short.");
}

TEST_CASE("error body: an HTML page keeps a short text excerpt", "[error_body]") {
  const auto b = parse_error_body(kProxyPage);
  CHECK(b.shape == Shape::text);
  CHECK(b.message == "502 Bad Gateway 502 Bad Gateway The proxy server received an invalid response.");
}

TEST_CASE("error body: a framework's page skips comments, scripts and styles and decodes entities", "[error_body]") {
  const auto b = parse_error_body(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Server Error (500)</title>"
      "<style type=\"text/css\">html * { padding:0; margin:0; }</style>"
      "<SCRIPT>var x = '<b>';</SCRIPT></head><body><!-- a comment <p>hidden</p> -->"
      "<h1>Server Error &amp; more</h1><p>Don&#39;t panic &lt;3&nbsp;ok &unknown; &</p></body></html>");
  CHECK(b.shape == Shape::text);
  CHECK(b.message == "Server Error (500) Server Error & more Don't panic <3 ok &unknown; &");
  // An element that merely starts like one is ordinary markup.
  CHECK(parse_error_body("<styles>kept</styles>").message == "kept");
  // Unterminated markup ends the text instead of leaking into it.
  CHECK(parse_error_body("<h1>Bad Gateway</h1><style>body{").message == "Bad Gateway");
  CHECK(parse_error_body("<h1>Bad Gateway</h1><!-- never closed").message == "Bad Gateway");
}

TEST_CASE("error body: a long page is cut to the excerpt limit, between UTF-8 characters", "[error_body]") {
  std::string page = "<html><body><pre>";
  for (int i = 0; i < 500; ++i) page += "\xC3\xA9";  // 'é', two bytes each
  page += "</pre></body></html>";
  const auto b = parse_error_body(page);
  CHECK(b.shape == Shape::text);
  REQUIRE(b.message.size() >= mgnify::detail::kErrorExcerptLimit);
  CHECK(b.message.size() <= mgnify::detail::kErrorExcerptLimit + 4);
  CHECK(b.message.substr(b.message.size() - 3) == "...");
  const std::string kept = b.message.substr(0, b.message.size() - 3);
  CHECK(kept.size() % 2 == 0);
  // Valid UTF-8 round-trips through nlohmann::json.
  CHECK_NOTHROW(nlohmann::json(b.message).dump());

  const auto plain = parse_error_body(std::string(1000, 'x'));
  CHECK(plain.message == std::string(mgnify::detail::kErrorExcerptLimit, 'x') + "...");
}

TEST_CASE("error body: plain text is kept with whitespace collapsed", "[error_body]") {
  const auto b = parse_error_body("Service Unavailable\r\n\r\n  try later");
  CHECK(b.shape == Shape::text);
  CHECK(b.message == "Service Unavailable try later");
}

TEST_CASE("error body: empty and whitespace-only bodies", "[error_body]") {
  for (const char* body : {"", " ", "\r\n\t "}) {
    INFO('"' << body << '"');
    const auto b = parse_error_body(body);
    CHECK(b.shape == Shape::empty);
    CHECK(b.message.empty());
  }
}

TEST_CASE("error body: other JSON shapes keep a compact excerpt", "[error_body]") {
  const auto obj = parse_error_body(R"({ "message" : "Internal error", "code": "E42" })");
  CHECK(obj.shape == Shape::other_json);
  CHECK(obj.message == R"({"code":"E42","message":"Internal error"})");
  CHECK(obj.code == "E42");

  const auto arr = parse_error_body("[1, 2]");
  CHECK(arr.shape == Shape::other_json);
  CHECK(arr.message == "[1,2]");

  // "errors" that is neither list nor object is just other JSON.
  const auto odd = parse_error_body(R"({"errors": "boom"})");
  CHECK(odd.shape == Shape::other_json);
  CHECK(odd.message == R"({"errors":"boom"})");

  const auto null_detail = parse_error_body(R"({"detail": null})");
  CHECK(null_detail.shape == Shape::detail_string);
  CHECK(null_detail.message.empty());
}

TEST_CASE("error body: broken JSON is treated as text, never thrown", "[error_body]") {
  ErrorBody b;
  REQUIRE_NOTHROW(b = parse_error_body(R"({"detail": "unterminated)"));
  CHECK(b.shape == Shape::text);
  CHECK(b.message == R"({"detail": "unterminated)");
  REQUIRE_NOTHROW(b = parse_error_body("\xFF\xFE{\"detail\": 1}"));
  CHECK(b.shape == Shape::text);
}

// ---------------------------------------------------------------------------
// The exception types built on the parsed body.

namespace {
mgnify::ApiErrorInfo info_for(int status, const std::string& body) {
  mgnify::ApiErrorInfo info;
  info.status = status;
  info.method = "GET";
  info.url = "https://api.example.org/x";
  info.body = body;
  info.parsed = parse_error_body(body);
  return info;
}

template <class E>
bool throws_as(int status) {
  try {
    mgnify::throw_api_error(info_for(status, "{}"));
  } catch (const E& e) {
    return e.status() == status;
  } catch (...) {
    return false;
  }
  return false;
}
}  // namespace

TEST_CASE("throw_api_error picks the subclass for the status", "[error]") {
  CHECK(throws_as<mgnify::NotFoundError>(404));
  CHECK(throws_as<mgnify::AuthError>(401));
  CHECK(throws_as<mgnify::AuthError>(403));
  CHECK(throws_as<mgnify::ValidationError>(400));
  CHECK(throws_as<mgnify::ValidationError>(422));
  CHECK(throws_as<mgnify::RateLimitedError>(429));
  for (int s : {500, 502, 503, 504, 599}) {
    INFO(s);
    CHECK(throws_as<mgnify::ServerError>(s));
  }
  CHECK(throws_as<mgnify::RedirectError>(304));
  // Statuses without a subclass are plain ApiErrors.
  for (int s : {402, 405, 408, 409, 410, 418}) {
    INFO(s);
    try {
      mgnify::throw_api_error(info_for(s, ""));
      FAIL("no throw");
    } catch (const mgnify::NotFoundError&) {
      FAIL("wrong type");
    } catch (const mgnify::ValidationError&) {
      FAIL("wrong type");
    } catch (const mgnify::RateLimitedError&) {
      FAIL("wrong type");
    } catch (const mgnify::ServerError&) {
      FAIL("wrong type");
    } catch (const mgnify::ApiError& e) {
      CHECK(e.status() == s);
    }
  }
}

TEST_CASE("ApiError carries everything and what() is one readable line", "[error]") {
  auto info = info_for(422, R"({"detail": [{"type": "missing", "loc": ["query", "page"], "msg": "Field required"}]})");
  info.attempts = 1;
  try {
    mgnify::throw_api_error(info);
    FAIL("no throw");
  } catch (const mgnify::ValidationError& e) {
    CHECK(std::string(e.what()) == "HTTP 422 for GET https://api.example.org/x: query.page: Field required");
    CHECK(e.message() == "query.page: Field required");
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].msg == "Field required");
    CHECK(e.method() == "GET");
    CHECK(e.url() == "https://api.example.org/x");
    CHECK(e.attempts() == 1);
    CHECK_FALSE(e.retry_after().has_value());
  }

  auto retried = info_for(503, "<html><body>\n<h1>503 Service Unavailable</h1>\n</body></html>");
  retried.attempts = 4;
  retried.hint = "see status page";
  const mgnify::ServerError e(retried);
  CHECK(std::string(e.what()) ==
        "HTTP 503 for GET https://api.example.org/x: 503 Service Unavailable (after 4 attempts) "
        "[see status page]");
  CHECK(std::string(e.what()).find('\n') == std::string::npos);
  CHECK(e.body() == retried.body);

  const mgnify::ApiError bare(info_for(500, ""));
  CHECK(std::string(bare.what()) == "HTTP 500 for GET https://api.example.org/x");
}

TEST_CASE("every SDK exception is an mgnify::Error and a std::runtime_error", "[error]") {
  const mgnify::TransportError t(mgnify::TransportError::Kind::timeout, 28, "https://h/x", "Operation timed out");
  const mgnify::DecodeError d("/data/3/id", "https://h/x", "expected string");
  const mgnify::InvalidArgument a("bad");
  const mgnify::NotFoundError n(info_for(404, ""));
  const mgnify::Error* all[] = {&t, &d, &a, &n};
  for (const auto* e : all) {
    CHECK(dynamic_cast<const std::runtime_error*>(e) != nullptr);
  }
  CHECK(dynamic_cast<const mgnify::ApiError*>(all[3]) != nullptr);
}

TEST_CASE("TransportError names its kind, URL and attempts", "[error]") {
  using Kind = mgnify::TransportError::Kind;
  const mgnify::TransportError t(Kind::timeout, 28, "https://h/x", "Operation timed out");
  CHECK(std::string(t.what()) == "timeout error for https://h/x: Operation timed out");
  CHECK(t.kind() == Kind::timeout);
  CHECK(t.curl_code() == 28);
  CHECK(t.url() == "https://h/x");
  CHECK(t.detail() == "Operation timed out");
  CHECK(t.attempts() == 1);

  const auto again = t.with_attempts(3);
  CHECK(again.attempts() == 3);
  CHECK(again.kind() == Kind::timeout);
  CHECK(again.curl_code() == 28);
  CHECK(std::string(again.what()) == "timeout error for https://h/x: Operation timed out (after 3 attempts)");

  CHECK(std::string(mgnify::TransportError::kind_name(Kind::connect)) == "connect");
  CHECK(std::string(mgnify::TransportError::kind_name(Kind::tls)) == "tls");
  CHECK(std::string(mgnify::TransportError::kind_name(Kind::send)) == "send");
  CHECK(std::string(mgnify::TransportError::kind_name(Kind::receive)) == "receive");
  CHECK(std::string(mgnify::TransportError::kind_name(Kind::body_too_large)) == "body too large");
  CHECK(std::string(mgnify::TransportError::kind_name(Kind::other)) == "transport");
}

TEST_CASE("DecodeError names the JSON path and the URL", "[error]") {
  const mgnify::DecodeError d("/data/3/attributes/samples-count", "https://h/studies", "expected number, got string");
  CHECK(std::string(d.what()) ==
        "cannot decode /data/3/attributes/samples-count from https://h/studies: expected number, got string");
  CHECK(d.json_path() == "/data/3/attributes/samples-count");
  CHECK(d.url() == "https://h/studies");
  CHECK(d.detail() == "expected number, got string");
  const mgnify::DecodeError whole("", "", "invalid JSON");
  CHECK(std::string(whole.what()) == "cannot decode response: invalid JSON");
}
