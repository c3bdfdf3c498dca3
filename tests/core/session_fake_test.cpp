// Session behaviour (headers, redirects, retries, error mapping, logging) over
// FakeTransport and FakeClock: no sockets, no real waiting.

#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/test_support.hpp"

using namespace std::chrono_literals;
using mgnify::http::Headers;
using mgnify::http::Method;
using mgnify::http::Request;
using mgnify::test::FakeRig;
using Kind = mgnify::TransportError::Kind;

using mgnify::test::http_date;

namespace {

Headers location(const std::string& to) { return Headers{{"Location", to}}; }

std::string auth_of(const Request& r) { return r.headers.value_or("Authorization", "<none>"); }

std::string format_date(std::chrono::system_clock::time_point t, const char* fmt) {
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
  const std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, fmt, &tm);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------------------
// Headers every request carries.

TEST_CASE("requests carry Accept, User-Agent, extra headers and the bearer token", "[session]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 200, "{}");
  auto s = rig.session([](mgnify::ClientOptions& o) {
    o.token = "tok-123";
    o.user_agent_suffix = "my-pipeline/2.1";
    o.extra_headers.add("X-Trace", "abc");
    o.extra_headers.add("Accept", "text/plain");  // does not override the SDK's Accept
  });
  const auto r = s->get(FakeRig::url("a"));
  CHECK(r.status == 200);
  CHECK(r.attempts == 1);
  CHECK(r.redirects.empty());
  CHECK(r.url == FakeRig::url("a"));
  const auto sent = rig.requests();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].method == Method::get);
  CHECK(sent[0].headers.get("Accept") == std::optional<std::string>("application/json"));
  CHECK(sent[0].headers.get("User-Agent") ==
        std::optional<std::string>(std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING +
                                   " my-pipeline/2.1"));
  CHECK(sent[0].headers.get("X-Trace") == std::optional<std::string>("abc"));
  CHECK(auth_of(sent[0]) == "Bearer tok-123");
  CHECK(rig.sleeps().empty());
}

TEST_CASE("a caller's Accept is kept, send_token=false and set_token control auth", "[session]") {
  FakeRig rig;
  rig.transport->fallback([](const Request&) {
    mgnify::http::Response r;
    r.status = 200;
    return r;
  });
  auto s = rig.session();
  CHECK_FALSE(s->has_token());

  Request custom;
  custom.url = FakeRig::url("file.tsv");
  custom.headers.set("Accept", "text/tab-separated-values");
  s->execute(custom);
  s->set_token(std::string("t1"));
  CHECK(s->has_token());
  CHECK(s->token() == std::optional<std::string>("t1"));
  s->get(FakeRig::url("a"));
  mgnify::http::RequestOptions anonymous;
  anonymous.send_token = false;
  s->get(FakeRig::url("a"), anonymous);
  s->set_token(std::nullopt);
  s->get(FakeRig::url("a"));

  const auto sent = rig.requests();
  REQUIRE(sent.size() == 4);
  CHECK(sent[0].headers.get("Accept") == std::optional<std::string>("text/tab-separated-values"));
  CHECK(auth_of(sent[0]) == "<none>");
  CHECK(auth_of(sent[1]) == "Bearer t1");
  CHECK(auth_of(sent[2]) == "<none>");
  CHECK(auth_of(sent[3]) == "<none>");
  CHECK(sent[0].headers.get("User-Agent") ==
        std::optional<std::string>(std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING));
}

TEST_CASE("post_json sends the JSON body with its content type; call timeout reaches the transport",
          "[session]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("search"), 201, R"({"id": 1})");
  auto s = rig.session();
  mgnify::http::RequestOptions call;
  call.timeout = 1500ms;
  const auto r = s->post_json(FakeRig::url("search"), {{"q", "a b"}, {"n", 2}}, call);
  CHECK(r.status == 201);
  CHECK(r.body == R"({"id": 1})");
  const auto sent = rig.requests();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].method == Method::post);
  CHECK(nlohmann::json::parse(sent[0].body) == nlohmann::json{{"q", "a b"}, {"n", 2}});
  CHECK(sent[0].headers.get("Content-Type") == std::optional<std::string>("application/json"));
  CHECK(sent[0].timeout == 1500ms);
}

TEST_CASE("every 2xx is returned, not thrown", "[session]") {
  for (int status : {200, 201, 202, 204, 206}) {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), status);
    auto s = rig.session();
    INFO(status);
    CHECK(s->get(FakeRig::url("a")).status == status);
  }
}

// ---------------------------------------------------------------------------
// Redirects.

TEST_CASE("each redirect status is followed and recorded", "[session][redirect]") {
  for (int status : {301, 302, 303, 307, 308}) {
    INFO("status " << status);
    FakeRig rig;
    rig.transport->respond(FakeRig::url("old"), status, "", location("/base/new"));
    rig.transport->respond(FakeRig::url("new"), 200, "payload");
    auto s = rig.session();
    const auto r = s->get(FakeRig::url("old"));
    CHECK(r.status == 200);
    CHECK(r.body == "payload");
    CHECK(r.url == FakeRig::url("new"));
    CHECK(r.redirects == std::vector<std::string>{FakeRig::url("old")});
    CHECK(r.attempts == 1);
    const auto sent = rig.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].method == Method::get);
    CHECK(sent[1].url == FakeRig::url("new"));
  }
}

TEST_CASE("303 turns POST into a body-less GET; 307 and 308 keep POST and its body",
          "[session][redirect]") {
  struct Case {
    int status;
    Method method_after;
    bool body_kept;
  };
  // 301 and 302 after a POST become GET too, as every browser and curl do.
  for (const Case c :
       {Case{303, Method::get, false}, Case{301, Method::get, false}, Case{302, Method::get, false},
        Case{307, Method::post, true}, Case{308, Method::post, true}}) {
    INFO("status " << c.status);
    FakeRig rig;
    rig.transport->respond(FakeRig::url("submit"), c.status, "", location("result"));
    rig.transport->respond(FakeRig::url("result"), 200, "done");
    auto s = rig.session();
    const auto r = s->post_json(FakeRig::url("submit"), {{"x", 1}});
    CHECK(r.body == "done");
    const auto sent = rig.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].method == Method::post);
    CHECK(sent[1].method == c.method_after);
    CHECK(sent[1].body == (c.body_kept ? R"({"x":1})" : ""));
    CHECK(sent[1].headers.contains("Content-Type") == c.body_kept);
  }
}

TEST_CASE("303 keeps HEAD as HEAD", "[session][redirect]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("r"), 303, "", location("s"));
  rig.transport->respond(FakeRig::url("s"), 200);
  auto s = rig.session();
  Request head;
  head.method = Method::head;
  head.url = FakeRig::url("r");
  CHECK(s->execute(head).status == 200);
  const auto sent = rig.requests();
  REQUIRE(sent.size() == 2);
  CHECK(sent[1].method == Method::head);
}

TEST_CASE("post/redirect/get to the same URL is not a loop; the same GET again is",
          "[session][redirect]") {
  SECTION("POST /a -> 303 -> GET /a") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 303, "", location("a"));
    rig.transport->respond(FakeRig::url("a"), 200, "created");
    auto s = rig.session();
    const auto r = s->post_json(FakeRig::url("a"), {{"x", 1}});
    CHECK(r.body == "created");
    CHECK(r.redirects == std::vector<std::string>{FakeRig::url("a")});
    const auto sent = rig.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].method == Method::post);
    CHECK(sent[1].method == Method::get);
  }
  SECTION("GET /a -> 303 -> GET /a") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 303, "", location("a"));
    auto s = rig.session();
    CHECK_THROWS_WITH(s->get(FakeRig::url("a")), Catch::Contains("redirect loop back to"));
    CHECK(rig.transport->request_count() == 1);
  }
}

TEST_CASE("303 turns PUT into GET while 301 keeps PUT", "[session][redirect]") {
  for (int status : {303, 301}) {
    INFO(status);
    FakeRig rig;
    rig.transport->respond(FakeRig::url("r"), status, "", location("s"));
    rig.transport->respond(FakeRig::url("s"), 204);
    auto s = rig.session();
    Request put;
    put.method = Method::put;
    put.url = FakeRig::url("r");
    put.body = "data";
    s->execute(put);
    const auto sent = rig.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].method == (status == 303 ? Method::get : Method::put));
  }
}

TEST_CASE("relative, absolute, scheme-relative and query-only Locations resolve against the hop",
          "[session][redirect]") {
  struct Case {
    const char* from;
    const char* location;
    const char* to;
  };
  const Case cases[] = {
      {"studies/A", "B", "https://api.example.org/base/studies/B"},
      {"studies/A", "../samples/S", "https://api.example.org/base/samples/S"},
      {"studies/A", "/other/path", "https://api.example.org/other/path"},
      {"studies/A", "https://api.example.org/base/x?y=1", "https://api.example.org/base/x?y=1"},
      {"studies/A", "//api.example.org/z", "https://api.example.org/z"},
      {"studies/A", "?page=2", "https://api.example.org/base/studies/A?page=2"},
  };
  for (const auto& c : cases) {
    INFO(c.location);
    FakeRig rig;
    rig.transport->respond(FakeRig::url(c.from), 302, "", location(c.location));
    rig.transport->respond(c.to, 200, "ok");
    auto s = rig.session();
    const auto r = s->get(FakeRig::url(c.from));
    CHECK(r.url == c.to);
    CHECK(r.body == "ok");
  }
}

TEST_CASE("a redirect chain records every hop in order", "[session][redirect]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 301, "", location("b"));
  rig.transport->respond(FakeRig::url("b"), 302, "", location("c"));
  rig.transport->respond(FakeRig::url("c"), 307, "", location("d"));
  rig.transport->respond(FakeRig::url("d"), 200, "end");
  mgnify::test::LogCapture log;
  auto s = rig.session([&](mgnify::ClientOptions& o) { o.logger = log.logger(); });
  const auto r = s->get(FakeRig::url("a"));
  CHECK(r.redirects ==
        std::vector<std::string>{FakeRig::url("a"), FakeRig::url("b"), FakeRig::url("c")});
  CHECK(r.url == FakeRig::url("d"));
  int redirect_events = 0;
  for (const auto& e : log.events()) {
    if (e.kind == mgnify::http::LogEvent::Kind::redirect) {
      ++redirect_events;
      CHECK(e.message.rfind("to https://api.example.org/base/", 0) == 0);
    }
  }
  CHECK(redirect_events == 3);
}

TEST_CASE("at most max_redirects hops are followed", "[session][redirect]") {
  auto chain = [](FakeRig& rig, int redirects) {
    for (int i = 0; i < redirects; ++i) {
      rig.transport->respond(FakeRig::url("r" + std::to_string(i)), 302, "",
                             location("r" + std::to_string(i + 1)));
    }
    rig.transport->respond(FakeRig::url("r" + std::to_string(redirects)), 200, "end");
  };
  SECTION("exactly the default limit of 5 succeeds") {
    FakeRig rig;
    chain(rig, 5);
    auto s = rig.session();
    CHECK(s->options().max_redirects == 5);
    const auto r = s->get(FakeRig::url("r0"));
    CHECK(r.body == "end");
    CHECK(r.redirects.size() == 5);
    CHECK(rig.transport->request_count() == 6);
  }
  SECTION("one more fails with RedirectError, not retried") {
    FakeRig rig;
    chain(rig, 6);
    auto s = rig.session();
    try {
      s->get(FakeRig::url("r0"));
      FAIL("no throw");
    } catch (const mgnify::RedirectError& e) {
      CHECK(e.status() == 302);
      CHECK(e.attempts() == 1);
      CHECK(e.message() == "more than 5 redirects");
      CHECK(e.redirects().size() == 6);
      CHECK(e.url() == FakeRig::url("r5"));
      CHECK(std::string(e.what()).find("more than 5 redirects") != std::string::npos);
    }
    CHECK(rig.transport->request_count() == 6);
    CHECK(rig.sleeps().empty());
  }
  SECTION("max_redirects = 0 refuses the first redirect") {
    FakeRig rig;
    chain(rig, 1);
    auto s = rig.session([](mgnify::ClientOptions& o) { o.max_redirects = 0; });
    CHECK_THROWS_AS(s->get(FakeRig::url("r0")), mgnify::RedirectError);
    CHECK(rig.transport->request_count() == 1);
  }
  SECTION("a custom limit of 2") {
    FakeRig rig;
    chain(rig, 3);
    auto s = rig.session([](mgnify::ClientOptions& o) { o.max_redirects = 2; });
    CHECK_THROWS_WITH(s->get(FakeRig::url("r0")), Catch::Contains("more than 2 redirects"));
    CHECK(rig.transport->request_count() == 3);
  }
}

TEST_CASE("redirect loops are detected before the hop limit", "[session][redirect]") {
  SECTION("a -> b -> a") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 302, "", location("b"));
    rig.transport->respond(FakeRig::url("b"), 307, "", location("a"));
    auto s = rig.session([](mgnify::ClientOptions& o) { o.max_redirects = 50; });
    try {
      s->get(FakeRig::url("a"));
      FAIL("no throw");
    } catch (const mgnify::RedirectError& e) {
      CHECK(e.message() == "redirect loop back to " + FakeRig::url("a"));
      CHECK(e.redirects() == std::vector<std::string>{FakeRig::url("a"), FakeRig::url("b")});
      CHECK(e.status() == 307);
    }
    CHECK(rig.transport->request_count() == 2);
  }
  SECTION("a -> a") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 301, "", location(FakeRig::url("a")));
    auto s = rig.session();
    CHECK_THROWS_WITH(s->get(FakeRig::url("a")), Catch::Contains("redirect loop back to"));
    CHECK(rig.transport->request_count() == 1);
  }
}

TEST_CASE("unusable redirects fail with RedirectError", "[session][redirect]") {
  SECTION("no Location header") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 302, "moved");
    auto s = rig.session();
    try {
      s->get(FakeRig::url("a"));
      FAIL("no throw");
    } catch (const mgnify::RedirectError& e) {
      CHECK(e.message() == "redirect without a Location header");
      CHECK(e.body() == "moved");
    }
  }
  SECTION("empty Location header") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 301, "", location(""));
    auto s = rig.session();
    CHECK_THROWS_AS(s->get(FakeRig::url("a")), mgnify::RedirectError);
  }
  SECTION("a Location with another scheme") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 302, "", location("ftp://files.example.org/x"));
    auto s = rig.session();
    CHECK_THROWS_WITH(
        s->get(FakeRig::url("a")),
        Catch::Contains("redirect to a URL that is not http(s): ftp://files.example.org/x"));
    CHECK(rig.transport->request_count() == 1);
  }
}

TEST_CASE("Authorization is dropped when a redirect leaves the origin and kept on it",
          "[session][redirect][auth]") {
  struct Case {
    const char* target;
    bool keeps_auth;
  };
  const Case cases[] = {
      {"https://api.example.org/base/same", true},
      {"https://API.EXAMPLE.ORG:443/base/same-case", true},
      {"https://other.example.org/base/x", false},
      {"http://api.example.org/base/x", false},        // scheme downgrade
      {"https://api.example.org:8443/base/x", false},  // other port
      {"https://api.example.org.evil.com/base/x", false},
  };
  for (const auto& c : cases) {
    INFO(c.target);
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), 302, "", location(c.target));
    rig.transport->respond(c.target, 200, "{}");
    auto s = rig.session([](mgnify::ClientOptions& o) {
      o.token = "s3cr3t";
      o.extra_headers.add("Cookie", "session=abc");
    });
    s->get(FakeRig::url("a"));
    const auto sent = rig.requests();
    REQUIRE(sent.size() == 2);
    CHECK(auth_of(sent[0]) == "Bearer s3cr3t");
    CHECK(sent[0].headers.contains("Cookie"));
    CHECK(auth_of(sent[1]) == (c.keeps_auth ? "Bearer s3cr3t" : "<none>"));
    CHECK(sent[1].headers.contains("Cookie") == c.keeps_auth);
    // Other headers travel on.
    CHECK(sent[1].headers.get("Accept") == std::optional<std::string>("application/json"));
  }
}

TEST_CASE("credentials dropped on leaving the origin are not restored on coming back",
          "[session][redirect][auth]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 302, "", location("https://cdn.example.net/x"));
  rig.transport->respond("https://cdn.example.net/x", 302, "", location(FakeRig::url("b")));
  rig.transport->respond(FakeRig::url("b"), 200);
  auto s = rig.session([](mgnify::ClientOptions& o) { o.token = "s3cr3t"; });
  s->get(FakeRig::url("a"));
  const auto sent = rig.requests();
  REQUIRE(sent.size() == 3);
  CHECK(auth_of(sent[0]) == "Bearer s3cr3t");
  CHECK(auth_of(sent[1]) == "<none>");
  CHECK(auth_of(sent[2]) == "<none>");
}

// ---------------------------------------------------------------------------
// Retries.

TEST_CASE("each retryable status is retried until success", "[session][retry]") {
  for (int status : {408, 429, 500, 502, 503, 504}) {
    INFO("status " << status);
    FakeRig rig;
    rig.transport->respond(FakeRig::url("a"), status, R"({"detail": "busy"})");
    rig.transport->respond(FakeRig::url("a"), status, R"({"detail": "busy"})");
    rig.transport->respond(FakeRig::url("a"), 200, "ok");
    auto s = rig.session();
    const auto r = s->get(FakeRig::url("a"));
    CHECK(r.status == 200);
    CHECK(r.body == "ok");
    CHECK(r.attempts == 3);
    CHECK(rig.transport->request_count() == 3);
    CHECK(rig.sleeps().size() == 2);
  }
}

TEST_CASE("each retryable status makes exactly max_attempts attempts, then throws its type",
          "[session][retry]") {
  for (int status : {408, 429, 500, 502, 503, 504}) {
    for (int max_attempts : {1, 2, 4}) {
      INFO("status " << status << ", max_attempts " << max_attempts);
      FakeRig rig;
      rig.transport->fallback([status](const Request&) {
        mgnify::http::Response r;
        r.status = status;
        r.body = R"({"detail": "still busy"})";
        return r;
      });
      auto s = rig.session([&](mgnify::ClientOptions& o) { o.retry.max_attempts = max_attempts; });
      try {
        s->get(FakeRig::url("a"));
        FAIL("no throw");
      } catch (const mgnify::ApiError& e) {
        CHECK(e.status() == status);
        CHECK(e.attempts() == max_attempts);
        CHECK(e.message() == "still busy");
        if (status == 429) CHECK(dynamic_cast<const mgnify::RateLimitedError*>(&e) != nullptr);
        if (status >= 500) CHECK(dynamic_cast<const mgnify::ServerError*>(&e) != nullptr);
        if (max_attempts > 1) {
          CHECK(std::string(e.what()).find("(after " + std::to_string(max_attempts) +
                                           " attempts)") != std::string::npos);
        }
      }
      CHECK(rig.transport->request_count() == static_cast<std::size_t>(max_attempts));
      CHECK(rig.sleeps().size() == static_cast<std::size_t>(max_attempts - 1));
    }
  }
}

TEST_CASE("client errors are not retried", "[session][retry]") {
  struct Case {
    int status;
    const char* body;
  };
  const Case cases[] = {
      {400, R"({"detail": "Invalid study accession."})"},
      {401, R"({"detail": "Unauthorized"})"},
      {403, R"({"detail": "You do not have permission to perform this action."})"},
      {404, R"({"detail": "Not found."})"},
      {409, R"({"detail": "conflict"})"},
      {422,
       R"({"detail": [{"type": "missing", "loc": ["query", "page"], "msg": "Field required"}]})"},
  };
  for (const auto& c : cases) {
    INFO(c.status);
    FakeRig rig;
    rig.transport->fallback([&](const Request&) {
      mgnify::http::Response r;
      r.status = c.status;
      r.body = c.body;
      return r;
    });
    auto s = rig.session();
    try {
      s->get(FakeRig::url("a"));
      FAIL("no throw");
    } catch (const mgnify::ApiError& e) {
      CHECK(e.status() == c.status);
      CHECK(e.attempts() == 1);
      CHECK(e.body() == c.body);
      switch (c.status) {
        case 400:
        case 422:
          CHECK(dynamic_cast<const mgnify::ValidationError*>(&e) != nullptr);
          break;
        case 401:
        case 403:
          CHECK(dynamic_cast<const mgnify::AuthError*>(&e) != nullptr);
          break;
        case 404:
          CHECK(dynamic_cast<const mgnify::NotFoundError*>(&e) != nullptr);
          break;
        default:
          CHECK(std::string(e.what()).find("HTTP 409") == 0);
      }
      if (c.status == 422) {
        REQUIRE(e.issues().size() == 1);
        CHECK(e.issues()[0].loc == std::vector<std::string>{"query", "page"});
        CHECK(e.message() == "query.page: Field required");
      }
    }
    CHECK(rig.transport->request_count() == 1);
    CHECK(rig.sleeps().empty());
  }
}

TEST_CASE("POST and PATCH are not retried when the server may have acted; PUT and DELETE are",
          "[session][retry]") {
  SECTION("POST on 503 and 429 without Retry-After, and a connect failure") {
    for (int status : {503, 429}) {
      FakeRig rig;
      rig.transport->respond(FakeRig::url("search"), status, R"({"detail": "x"})");
      rig.transport->respond(FakeRig::url("search"), 200);
      auto s = rig.session();
      try {
        s->post_json(FakeRig::url("search"), {{"q", 1}});
        FAIL("no throw");
      } catch (const mgnify::ApiError& e) {
        CHECK(e.status() == status);
        CHECK(e.attempts() == 1);
        CHECK(e.method() == "POST");
      }
      CHECK(rig.transport->request_count() == 1);
      CHECK(rig.sleeps().empty());
    }
    FakeRig rig;
    rig.transport->fail(FakeRig::url("search"), Kind::connect);
    auto s = rig.session();
    try {
      s->post_json(FakeRig::url("search"), {});
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::connect);
      CHECK(e.attempts() == 1);
    }
    CHECK(rig.transport->request_count() == 1);
  }
  SECTION("PATCH") {
    FakeRig rig;
    rig.transport->respond(FakeRig::url("x"), 502);
    auto s = rig.session();
    Request patch;
    patch.method = Method::patch;
    patch.url = FakeRig::url("x");
    CHECK_THROWS_AS(s->execute(patch), mgnify::ServerError);
    CHECK(rig.transport->request_count() == 1);
  }
  SECTION("PUT and DELETE") {
    for (Method m : {Method::put, Method::del}) {
      FakeRig rig;
      rig.transport->respond(FakeRig::url("x"), 503);
      rig.transport->respond(FakeRig::url("x"), 204);
      auto s = rig.session();
      Request req;
      req.method = m;
      req.url = FakeRig::url("x");
      CHECK(s->execute(req).attempts == 2);
      CHECK(rig.transport->request_count() == 2);
    }
  }
}

TEST_CASE("RequestOptions::max_attempts overrides the session's retry budget for one call",
          "[session][retry]") {
  FakeRig rig;
  rig.transport->fallback([](const Request&) {
    mgnify::http::Response r;
    r.status = 503;
    return r;
  });
  auto s = rig.session();  // 4 attempts by default in the rig
  mgnify::http::RequestOptions once;
  once.max_attempts = 1;
  try {
    s->get(FakeRig::url("a"), once);
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.attempts() == 1);
  }
  mgnify::http::RequestOptions more;
  more.max_attempts = 6;
  try {
    s->get(FakeRig::url("a"), more);
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.attempts() == 6);
  }
  CHECK(rig.transport->request_count() == 7);
  CHECK(rig.sleeps().size() == 5);
}

TEST_CASE("backoff waits grow within the full-jitter bounds", "[session][retry]") {
  FakeRig rig;
  rig.transport->fallback([](const Request&) {
    mgnify::http::Response r;
    r.status = 503;
    return r;
  });
  mgnify::test::LogCapture log;
  auto s = rig.session([&](mgnify::ClientOptions& o) {
    o.retry.max_attempts = 5;
    o.retry.initial_backoff = 100ms;
    o.retry.multiplier = 2.0;
    o.retry.max_backoff = 300ms;
    o.logger = log.logger();
  });
  CHECK_THROWS_AS(s->get(FakeRig::url("a")), mgnify::ServerError);
  const auto sleeps = rig.sleeps();
  REQUIRE(sleeps.size() == 4);
  const std::chrono::nanoseconds caps[] = {100ms, 200ms, 300ms, 300ms};
  for (std::size_t i = 0; i < sleeps.size(); ++i) {
    INFO("retry " << i + 1);
    CHECK(sleeps[i] >= 0ns);
    CHECK(sleeps[i] <= caps[i]);
  }
  // The retry events announce the exact waits that were slept.
  std::vector<std::chrono::nanoseconds> announced;
  for (const auto& e : log.events()) {
    if (e.kind == mgnify::http::LogEvent::Kind::retry) {
      announced.push_back(e.wait);
      CHECK(e.status == 503);
    }
  }
  CHECK(announced == sleeps);
}

TEST_CASE("Retry-After in seconds is honoured exactly", "[session][retry]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 429, "", Headers{{"Retry-After", "7"}});
  rig.transport->respond(FakeRig::url("a"), 503, "", Headers{{"retry-after", "2"}});
  rig.transport->respond(FakeRig::url("a"), 200, "ok");
  auto s = rig.session();
  const auto r = s->get(FakeRig::url("a"));
  CHECK(r.attempts == 3);
  CHECK(rig.sleeps() == mgnify::test::ns_list({7s, 2s}));
}

TEST_CASE("Retry-After as an HTTP-date in each form is honoured against the wall clock",
          "[session][retry]") {
  for (const char* fmt :
       {"%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"}) {
    INFO(fmt);
    FakeRig rig;
    const auto when = rig.clock->wall_now() + 42s;
    rig.transport->respond(FakeRig::url("a"), 429, "",
                           Headers{{"Retry-After", format_date(when, fmt)}});
    rig.transport->respond(FakeRig::url("a"), 200, "ok");
    auto s = rig.session();
    CHECK(s->get(FakeRig::url("a")).attempts == 2);
    CHECK(rig.sleeps() == mgnify::test::ns_list({42s}));
  }
}

TEST_CASE("an HTTP-date Retry-After in the past means a jittered retry, not a wait",
          "[session][retry]") {
  FakeRig rig;
  const auto when = rig.clock->wall_now() - 3600s;
  rig.transport->respond(FakeRig::url("a"), 503, "", Headers{{"Retry-After", http_date(when)}});
  rig.transport->respond(FakeRig::url("a"), 200);
  auto s = rig.session();
  s->get(FakeRig::url("a"));
  REQUIRE(rig.sleeps().size() == 1);
  CHECK(rig.sleeps()[0] <= 1ms);
}

TEST_CASE("a long Retry-After is clamped to max_retry_after", "[session][retry]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 429, "", Headers{{"Retry-After", "86400"}});
  rig.transport->respond(FakeRig::url("a"), 200);
  auto s = rig.session([](mgnify::ClientOptions& o) { o.retry.max_retry_after = 30s; });
  s->get(FakeRig::url("a"));
  CHECK(rig.sleeps() == mgnify::test::ns_list({30s}));
}

TEST_CASE("429 past the retry cap is a RateLimitedError carrying the last Retry-After",
          "[session][retry]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 429, R"({"detail": "Request was throttled."})",
                         Headers{{"Retry-After", "5"}});
  rig.transport->respond(FakeRig::url("a"), 429, R"({"detail": "Request was throttled."})",
                         Headers{{"Retry-After", "9"}});
  rig.transport->respond(
      FakeRig::url("a"), 429,
      R"({"detail": "Request was throttled. Expected available in 11 seconds."})",
      Headers{{"Retry-After", "11"}});
  auto s = rig.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 3; });
  try {
    s->get(FakeRig::url("a"));
    FAIL("no throw");
  } catch (const mgnify::RateLimitedError& e) {
    CHECK(e.attempts() == 3);
    REQUIRE(e.retry_after().has_value());
    CHECK(*e.retry_after() == 11s);
    CHECK(e.message() == "Request was throttled. Expected available in 11 seconds.");
    CHECK(std::string(e.what()) ==
          "HTTP 429 for GET " + FakeRig::url("a") +
              ": Request was throttled. Expected available in 11 seconds. (after 3 attempts)");
  }
  CHECK(rig.sleeps() == mgnify::test::ns_list({5s, 9s}));
}

TEST_CASE("a 429 without Retry-After leaves retry_after empty", "[session][retry]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 429);
  auto s = rig.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 1; });
  try {
    s->get(FakeRig::url("a"));
    FAIL("no throw");
  } catch (const mgnify::RateLimitedError& e) {
    CHECK_FALSE(e.retry_after().has_value());
    CHECK(e.attempts() == 1);
  }
}

TEST_CASE("ServerError reports the attempts, final URL and the redirects before it",
          "[session][retry]") {
  FakeRig rig;
  rig.transport->fallback([](const Request& req) {
    mgnify::http::Response r;
    if (req.url == FakeRig::url("old")) {
      r.status = 301;
      r.headers.set("Location", "new");
    } else {
      r.status = 500;
      r.body = "<html><body><h1>Server Error (500)</h1></body></html>";
    }
    return r;
  });
  auto s = rig.session();
  try {
    s->get(FakeRig::url("old"));
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.attempts() == 4);
    CHECK(e.status() == 500);
    CHECK(e.url() == FakeRig::url("new"));
    CHECK(e.redirects() == std::vector<std::string>{FakeRig::url("old")});
    CHECK(e.message() == "Server Error (500)");
    CHECK(e.parsed().shape == mgnify::ErrorBody::Shape::text);
  }
  // Each attempt starts again from the URL the caller asked for.
  const auto sent = rig.requests();
  REQUIRE(sent.size() == 8);
  for (std::size_t i = 0; i < sent.size(); ++i) {
    CHECK(sent[i].url == FakeRig::url(i % 2 == 0 ? "old" : "new"));
  }
}

TEST_CASE("transport failures are retried, then rethrown with the attempt count",
          "[session][retry]") {
  SECTION("connect and timeout failures, then success") {
    FakeRig rig;
    rig.transport->fail(FakeRig::url("a"), Kind::connect);
    rig.transport->fail(FakeRig::url("a"), Kind::timeout);
    rig.transport->fail(FakeRig::url("a"), Kind::receive);
    rig.transport->respond(FakeRig::url("a"), 200, "ok");
    auto s = rig.session();
    const auto r = s->get(FakeRig::url("a"));
    CHECK(r.attempts == 4);
    CHECK(rig.sleeps().size() == 3);
  }
  SECTION("persistent timeouts") {
    FakeRig rig;
    for (int i = 0; i < 10; ++i)
      rig.transport->fail(FakeRig::url("a"), Kind::timeout, "Operation timed out");
    auto s = rig.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 3; });
    try {
      s->get(FakeRig::url("a"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::timeout);
      CHECK(e.attempts() == 3);
      CHECK(e.url() == FakeRig::url("a"));
      CHECK(std::string(e.what()) ==
            "timeout error for " + FakeRig::url("a") + ": Operation timed out (after 3 attempts)");
    }
    CHECK(rig.transport->request_count() == 3);
  }
  SECTION("TLS and oversized bodies are not retried") {
    for (Kind k : {Kind::tls, Kind::body_too_large}) {
      FakeRig rig;
      rig.transport->fail(FakeRig::url("a"), k);
      rig.transport->respond(FakeRig::url("a"), 200);
      auto s = rig.session();
      try {
        s->get(FakeRig::url("a"));
        FAIL("no throw");
      } catch (const mgnify::TransportError& e) {
        CHECK(e.kind() == k);
        CHECK(e.attempts() == 1);
      }
      CHECK(rig.transport->request_count() == 1);
    }
  }
  SECTION("retry_transport_errors = false") {
    FakeRig rig;
    rig.transport->fail(FakeRig::url("a"), Kind::connect);
    auto s = rig.session([](mgnify::ClientOptions& o) { o.retry.retry_transport_errors = false; });
    CHECK_THROWS_AS(s->get(FakeRig::url("a")), mgnify::TransportError);
    CHECK(rig.transport->request_count() == 1);
  }
}

TEST_CASE("the not-found hint is appended to 404s only", "[session]") {
  FakeRig rig;
  rig.transport->respond(FakeRig::url("private"), 404, R"({"detail": "Not found."})");
  rig.transport->respond(FakeRig::url("bad"), 400, R"({"detail": "Invalid study accession."})");
  auto s = rig.session();
  mgnify::http::RequestOptions call;
  call.not_found_hint = "private objects answer 404 without a token";
  try {
    s->get(FakeRig::url("private"), call);
    FAIL("no throw");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.hint() == call.not_found_hint);
    CHECK(std::string(e.what()) == "HTTP 404 for GET " + FakeRig::url("private") +
                                       ": Not found. [private objects answer 404 without a token]");
  }
  try {
    s->get(FakeRig::url("bad"), call);
    FAIL("no throw");
  } catch (const mgnify::ValidationError& e) {
    CHECK(e.hint().empty());
  }
}

// ---------------------------------------------------------------------------
// The logging hook.

TEST_CASE("the logging hook sees each step and never the token", "[session][log]") {
  using LK = mgnify::http::LogEvent::Kind;
  const std::string token = "eyJhbGciOiJIUzI1NiJ9.s3cr3t-payload.sig";
  FakeRig rig;
  rig.transport->respond(FakeRig::url("a"), 302, "", location("https://elsewhere.example.org/b"));
  rig.transport->respond("https://elsewhere.example.org/b", 503, token);  // even a body echoing it
  rig.transport->respond(FakeRig::url("a"), 302, "", location("https://elsewhere.example.org/b"));
  rig.transport->respond("https://elsewhere.example.org/b", 200, "ok");
  rig.transport->respond(FakeRig::url("gone"), 404, R"({"detail": "Not found."})");
  rig.transport->fail(FakeRig::url("down"), Kind::connect, "Could not connect");
  rig.transport->fail(FakeRig::url("down"), Kind::connect, "Could not connect");
  mgnify::test::LogCapture log;
  auto s = rig.session([&](mgnify::ClientOptions& o) {
    o.token = token;
    o.logger = log.logger();
    o.retry.max_attempts = 2;
  });
  s->get(FakeRig::url("a"));
  CHECK_THROWS_AS(s->get(FakeRig::url("gone")), mgnify::NotFoundError);
  CHECK_THROWS_AS(s->get(FakeRig::url("down")), mgnify::TransportError);

  CHECK(log.kinds() == std::vector<LK>{LK::request, LK::response, LK::redirect, LK::request,
                                       LK::response, LK::retry, LK::request, LK::response,
                                       LK::redirect, LK::request, LK::response, LK::request,
                                       LK::response, LK::failure, LK::request, LK::retry,
                                       LK::request, LK::failure});
  CHECK_FALSE(log.mentions(token));
  CHECK_FALSE(log.mentions("s3cr3t"));
  CHECK_FALSE(log.mentions("Bearer"));

  const auto events = log.events();
  CHECK(events[0].method == "GET");
  CHECK(events[0].url == FakeRig::url("a"));
  CHECK(events[1].status == 302);
  CHECK(events[5].status == 503);
  CHECK(events[5].attempt == 1);
  CHECK(events[6].attempt == 2);
  CHECK(events[13].status == 404);
  CHECK(events[13].message == "HTTP 404");
  CHECK(events[17].status == 0);
  CHECK(events[17].attempt == 2);
  CHECK(events[17].message.find("Could not connect") != std::string::npos);
  for (const auto& e : events)
    CHECK(std::string(mgnify::http::LogEvent::kind_name(e.kind)) != "event");
}
