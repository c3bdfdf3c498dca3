// The shared HTTP layer end to end: Session -> CurlTransport -> loopback TCP ->
// the cpp-httplib mock, with faults scripted per path. A FakeClock takes the
// retry waits, so nothing here sleeps except where a timeout is the point.

#include <curl/curl.h>
#include <httplib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mock_server.hpp"
#include "skip.hpp"

using namespace std::chrono_literals;
using mgnify::mock::Fault;
using mgnify::mock::MockServer;
using Kind = mgnify::TransportError::Kind;

using mgnify::test::http_date;

namespace {

// One mock server (routes added by `setup` before it starts) plus sessions on it.
struct Live {
  std::unique_ptr<MockServer> server;
  std::shared_ptr<mgnify::testing::FakeClock> clock =
      std::make_shared<mgnify::testing::FakeClock>();

  explicit Live(const std::function<void(MockServer&)>& setup = {},
                MockServer::Options options = MockServer::Options{}) {
    options.threads = 8;
    server = std::make_unique<MockServer>(options);
    if (setup) setup(*server);
    server->start();
  }

  std::unique_ptr<mgnify::http::Session> session(
      const std::function<void(mgnify::ClientOptions&)>& tweak = {}) const {
    auto o = mgnify::test::curl_options(clock);
    if (tweak) tweak(o);
    return std::make_unique<mgnify::http::Session>(mgnify::with_default_transport(std::move(o)),
                                                   server->origin());
  }
  std::string url(const std::string& path) const { return server->origin() + path; }
};

nlohmann::json json_of(const mgnify::http::Response& r) { return nlohmann::json::parse(r.body); }

std::string header_of(const nlohmann::json& echo, const char* name) {
  const auto& headers = echo.at("headers");
  return headers.contains(name) ? headers.at(name).get<std::string>() : std::string("<none>");
}

}  // namespace

TEST_CASE("live: the server sees Accept, User-Agent, the token and exact query encoding",
          "[integration]") {
  Live live;
  auto s = live.session([](mgnify::ClientOptions& o) {
    o.token = "tok-abc";
    o.user_agent_suffix = "core-tests/1";
  });
  const mgnify::http::Query q{{"lineage", "root:Host-associated:Human:Digestive system"},
                              {"q", "a b+c&d=e#f"}};
  const auto r = s->get(s->url("test/echo", q));
  CHECK(r.status == 200);
  CHECK(r.attempts == 1);
  CHECK(r.url ==
        live.url(
            "/test/"
            "echo?lineage=root:Host-associated:Human:Digestive%20system&q=a%20b%2Bc%26d%3De%23f"));
  CHECK(r.elapsed.count() > 0);
  CHECK(r.headers.get("content-type") == std::optional<std::string>("application/json"));
  const auto echo = json_of(r);
  CHECK(echo.at("method") == "GET");
  CHECK(header_of(echo, "accept") == "application/json");
  CHECK(header_of(echo, "user-agent") ==
        std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING + " core-tests/1");
  CHECK(header_of(echo, "authorization") == "Bearer tok-abc");
  CHECK(header_of(echo, "expect") == "<none>");
  CHECK(echo.at("params").at("lineage") == "root:Host-associated:Human:Digestive system");
  CHECK(echo.at("params").at("q") == "a b+c&d=e#f");
  CHECK(echo.at("target") ==
        "/test/echo?lineage=root:Host-associated:Human:Digestive%20system&q=a%20b%2Bc%26d%3De%23f");
}

TEST_CASE("live: sequential requests reuse one handle and one connection", "[integration]") {
  Live live([](MockServer& m) {
    m.server().Get("/test/peer", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::to_string(req.remote_port), "text/plain");
    });
  });
  auto s = live.session();
  std::set<std::string> ports;
  for (int i = 0; i < 8; ++i) ports.insert(s->get(live.url("/test/peer")).body);
  auto& curl = mgnify::test::curl_of(*s);
  CHECK(curl.handles_created() == 1);
  CHECK(curl.idle_handles() == 1);
  CHECK(ports.size() == 1);  // the same client port: one keep-alive TCP connection
  CHECK(live.server->hits("/test/peer") == 8);
}

TEST_CASE("live: cancellable requests keep their connection too", "[integration][cancel]") {
  Live live([](MockServer& m) {
    m.server().Get("/test/peer", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::to_string(req.remote_port), "text/plain");
    });
  });
  auto s = live.session();
  mgnify::http::RequestOptions call;
  call.cancel = mgnify::CancelToken();
  std::set<std::string> ports;
  for (int i = 0; i < 8; ++i) ports.insert(s->get(live.url("/test/peer"), call).body);
  // They run on a multi handle (to poll the token), which must keep the
  // connection between requests as a plain request does.
  CHECK(ports.size() == 1);
  CHECK(mgnify::test::curl_of(*s).handles_created() == 1);
}

TEST_CASE("live: compressed responses are requested and decoded", "[integration][gzip]") {
  Live live;
  auto s = live.session();
  SECTION("every encoding curl supports is offered; the body arrives decoded") {
    const auto r = s->get(live.url("/test/json?bytes=200000"));
    const auto doc = json_of(r);
    CHECK(doc.at("size") == 200000);
    CHECK(doc.at("padding").get<std::string>() == std::string(200000, 'a'));
    const auto encoding = r.headers.value_or("Content-Encoding", "<none>");
    CHECK((encoding == "gzip" || encoding == "br"));
    CHECK(std::stoul(r.headers.value_or("Content-Length", "0")) < 20000);
    const auto recorded = live.server->requests();
    REQUIRE(recorded.size() == 1);
    const auto accept = recorded[0].headers.find("accept-encoding");
    REQUIRE(accept != recorded[0].headers.end());
    CHECK(accept->second.find("gzip") != std::string::npos);
    CHECK(accept->second.find("deflate") != std::string::npos);
  }
  SECTION("gzip specifically") {
    mgnify::http::Request req;
    req.url = live.url("/test/json?bytes=100000");
    req.headers.set("Accept-Encoding", "gzip");
    const auto r = s->execute(req);
    CHECK(r.headers.get("Content-Encoding") == std::optional<std::string>("gzip"));
    CHECK(json_of(r).at("padding").get<std::string>().size() == 100000);
  }
  SECTION("compression off on the server") {
    live.server->set_compression(false);
    const auto r = s->get(live.url("/test/json?bytes=50000"));
    CHECK_FALSE(r.headers.contains("Content-Encoding"));
    CHECK(r.headers.get("Content-Length") ==
          std::optional<std::string>(std::to_string(r.body.size())));
    CHECK(json_of(r).at("size") == 50000);
  }
}

TEST_CASE("live: redirect chains within and beyond the limit", "[integration][redirect]") {
  Live live;
  auto s = live.session();
  SECTION("3 hops") {
    const auto r = s->get(live.url("/test/redirect/3"));
    CHECK(r.url == live.url("/test/redirect/0"));
    CHECK(r.redirects == std::vector<std::string>{live.url("/test/redirect/3"),
                                                  live.url("/test/redirect/2"),
                                                  live.url("/test/redirect/1")});
    CHECK(json_of(r).at("path") == "/test/redirect/0");
  }
  SECTION("exactly 5 hops") {
    const auto r = s->get(live.url("/test/redirect/5"));
    CHECK(r.redirects.size() == 5);
    CHECK(live.server->hits("/test/redirect/0") == 1);
  }
  SECTION("6 hops is one too many") {
    try {
      s->get(live.url("/test/redirect/6"));
      FAIL("no throw");
    } catch (const mgnify::RedirectError& e) {
      CHECK(e.status() == 302);
      CHECK(e.message() == "more than 5 redirects");
      CHECK(e.redirects().size() == 6);
      CHECK(e.url() == live.url("/test/redirect/1"));
    }
    CHECK(live.server->hits("/test/redirect/1") == 1);
    CHECK(live.server->hits("/test/redirect/0") == 0);
  }
}

TEST_CASE("live: a redirect loop is detected", "[integration][redirect]") {
  Live live;
  auto s = live.session();
  try {
    s->get(live.url("/test/loop/a"));
    FAIL("no throw");
  } catch (const mgnify::RedirectError& e) {
    CHECK(e.message() == "redirect loop back to " + live.url("/test/loop/a"));
    CHECK(e.status() == 307);
    CHECK(e.redirects() ==
          std::vector<std::string>{live.url("/test/loop/a"), live.url("/test/loop/b")});
  }
  CHECK(live.server->hits("/test/loop/a") == 1);
  CHECK(live.server->hits("/test/loop/b") == 1);
}

TEST_CASE("live: Authorization is stripped on a redirect to another host, kept on the same one",
          "[integration][redirect][auth]") {
  Live live;
  auto s = live.session([](mgnify::ClientOptions& o) { o.token = "s3cr3t"; });
  const std::string other =
      "http://localhost:" + std::to_string(live.server->port()) + "/test/echo";

  const auto away = s->get(s->url("test/redirect-to", {{"to", other}}));
  CHECK(away.url == other);
  CHECK(header_of(json_of(away), "authorization") == "<none>");
  CHECK(header_of(json_of(away), "accept") == "application/json");

  const auto home = s->get(s->url("test/redirect-to", {{"to", "/test/echo"}}));
  CHECK(home.url == live.url("/test/echo"));
  CHECK(header_of(json_of(home), "authorization") == "Bearer s3cr3t");

  // Both first hops carried the token to the origin the caller chose.
  int with_token = 0;
  for (const auto& rec : live.server->requests()) {
    if (rec.path == "/test/redirect-to") {
      const auto it = rec.headers.find("authorization");
      with_token += it != rec.headers.end() && it->second == "Bearer s3cr3t";
    }
  }
  CHECK(with_token == 2);
}

TEST_CASE("live: 303 turns a POST into a GET, 307 keeps the POST and its body",
          "[integration][redirect]") {
  Live live;
  auto s = live.session();
  const auto see_other = s->post_json(
      s->url("test/redirect-to", {{"status", "303"}, {"to", "/test/echo"}}), {{"x", 1}});
  CHECK(json_of(see_other).at("method") == "GET");
  CHECK(json_of(see_other).at("body") == "");
  const auto temporary = s->post_json(
      s->url("test/redirect-to", {{"status", "307"}, {"to", "/test/echo"}}), {{"x", 1}});
  CHECK(json_of(temporary).at("method") == "POST");
  CHECK(json_of(temporary).at("body") == R"({"x":1})");
  CHECK(header_of(json_of(temporary), "content-type") == "application/json");
}

TEST_CASE("live: 429 with Retry-After in seconds, then success", "[integration][retry]") {
  Live live;
  live.server->push_fault("/test/echo", Fault::throttled(std::string("3")));
  live.server->push_fault("/test/echo", Fault::throttled(std::string("1")));
  auto s = live.session();
  const auto r = s->get(live.url("/test/echo"));
  CHECK(r.status == 200);
  CHECK(r.attempts == 3);
  CHECK(live.server->hits("/test/echo") == 3);
  CHECK(live.clock->sleeps() == mgnify::test::ns_list({3s, 1s}));
}

TEST_CASE("live: 429 with Retry-After as an HTTP-date, then success", "[integration][retry]") {
  Live live;
  live.server->push_fault("/test/echo", Fault::throttled(http_date(live.clock->wall_now() + 12s)));
  auto s = live.session();
  CHECK(s->get(live.url("/test/echo")).attempts == 2);
  CHECK(live.clock->sleeps() == mgnify::test::ns_list({12s}));
}

TEST_CASE("live: 429 beyond the budget is a RateLimitedError with the server's Retry-After",
          "[integration][retry]") {
  Live live;
  live.server->push_faults("/test/echo", Fault::throttled(std::string("4")), 5);
  auto s = live.session();
  try {
    s->get(live.url("/test/echo"));
    FAIL("no throw");
  } catch (const mgnify::RateLimitedError& e) {
    CHECK(e.attempts() == 3);
    CHECK(e.retry_after() == std::optional<std::chrono::seconds>(4s));
    CHECK(e.message() == "Request was throttled.");
  }
  CHECK(live.server->hits("/test/echo") == 3);
}

TEST_CASE("live: a 503 burst longer than the budget is a ServerError counting the attempts",
          "[integration][retry]") {
  Live live;
  live.server->push_faults("/test/echo", Fault::status_only(503), 10);
  auto s = live.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 4; });
  try {
    s->get(live.url("/test/echo"));
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 503);
    CHECK(e.attempts() == 4);
    CHECK(e.message() == "injected");
    CHECK(e.url() == live.url("/test/echo"));
  }
  CHECK(live.server->hits("/test/echo") == 4);
  CHECK(live.clock->sleeps().size() == 3);
  // A burst shorter than the budget is absorbed.
  live.server->clear_faults();
  live.server->push_faults("/test/echo", Fault::status_only(502), 3);
  CHECK(s->get(live.url("/test/echo")).attempts == 4);
}

TEST_CASE("live: an HTML 502 page becomes a ServerError with a short text message",
          "[integration][retry]") {
  Live live;
  live.server->push_faults("/test/echo", Fault::html(502), 3);
  auto s = live.session();
  try {
    s->get(live.url("/test/echo"));
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 502);
    CHECK(e.message() ==
          "502 Bad Gateway 502 Bad Gateway The proxy server received an invalid response.");
    CHECK(e.parsed().shape == mgnify::ErrorBody::Shape::text);
    CHECK(e.body().rfind("<html>", 0) == 0);
    CHECK(std::string(e.what()).find('<') == std::string::npos);
  }
}

TEST_CASE("live: 404 and 422 carry the server's message and are not retried", "[integration]") {
  Live live;
  auto s = live.session();
  CHECK_THROWS_MATCHES(
      s->get(live.url("/test/status/404")), mgnify::NotFoundError,
      Catch::Message("HTTP 404 for GET " + live.url("/test/status/404") + ": status 404"));
  CHECK_THROWS_AS(s->get(live.url("/test/status/422")), mgnify::ValidationError);
  CHECK(live.server->hits("/test/status/404") == 1);
  CHECK(live.server->hits("/test/status/422") == 1);
}

TEST_CASE("live: a request slower than its timeout is a TransportError of kind timeout",
          "[integration][timeout]") {
  Live live;
  auto s = live.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 2; });
  mgnify::http::RequestOptions call;
  call.timeout = 100ms;
  const auto start = std::chrono::steady_clock::now();
  try {
    s->get(live.url("/test/slow?ms=300"), call);
    FAIL("no throw");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::timeout);
    CHECK(e.curl_code() == CURLE_OPERATION_TIMEDOUT);
    CHECK(e.attempts() == 2);
    CHECK(e.url() == live.url("/test/slow?ms=300"));
  }
  CHECK(std::chrono::steady_clock::now() - start < 1s);
  CHECK(live.server->hits("/test/slow") == 2);
}

TEST_CASE("live: a body cut off mid-way", "[integration][fault]") {
  Live live;
  auto s = live.session();
  SECTION("every attempt truncated: TransportError receive after the retries") {
    live.server->push_faults("/test/json", Fault::truncated(), 3);
    try {
      s->get(live.url("/test/json"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::receive);
      CHECK(e.curl_code() == CURLE_PARTIAL_FILE);
      CHECK(e.attempts() == 3);
    }
    CHECK(live.server->hits("/test/json") == 3);
  }
  SECTION("truncated once, then whole") {
    live.server->push_fault("/test/json", Fault::truncated());
    const auto r = s->get(live.url("/test/json?bytes=64"));
    CHECK(r.attempts == 2);
    CHECK(json_of(r).at("size") == 64);
  }
  SECTION("a short body the server calls complete: DecodeError naming the URL") {
    Fault f = Fault::status_only(200, R"({"items": [{"id": 1}, {"id)");
    live.server->push_fault("/test/json", f);
    const auto r = s->get(live.url("/test/json"));
    try {
      mgnify::detail::parse_body(r.body, r.url);
      FAIL("no throw");
    } catch (const mgnify::DecodeError& e) {
      CHECK(e.url() == live.url("/test/json"));
      CHECK(e.detail().rfind("invalid JSON", 0) == 0);
    }
  }
}

TEST_CASE("live: a dropped connection is retried, and reported when it persists",
          "[integration][fault]") {
  Live live;
  auto s = live.session();
  live.server->push_fault("/test/echo", Fault::dropped());
  CHECK(s->get(live.url("/test/echo")).attempts == 2);

  live.server->push_faults("/test/echo", Fault::dropped(), 3);
  try {
    s->get(live.url("/test/echo"));
    FAIL("no throw");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::receive);
    CHECK(e.attempts() == 3);
  }
}

TEST_CASE("live: connection refused on a closed port is a TransportError of kind connect",
          "[integration]") {
  int closed_port = 0;
  {
    MockServer probe;
    probe.start();
    closed_port = probe.port();
  }
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  mgnify::http::Session s(mgnify::with_default_transport(mgnify::test::curl_options(clock)),
                          "http://127.0.0.1:" + std::to_string(closed_port));
  try {
    s.get(s.url("test/echo"));
    FAIL("no throw");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::connect);
    CHECK(e.curl_code() == CURLE_COULDNT_CONNECT);
    CHECK(e.attempts() == 3);
  }
  CHECK(clock->sleeps().size() == 2);
}

TEST_CASE("live: a body over max_body_bytes is refused and not retried", "[integration]") {
  Live live;
  auto s = live.session([](mgnify::ClientOptions& o) { o.max_body_bytes = 1000; });
  SECTION("compressed: the decoded size counts") {
    try {
      s->get(live.url("/test/json?bytes=5000"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::body_too_large);
      CHECK(e.attempts() == 1);
      CHECK(e.detail() == "response body exceeds the limit of 1000 bytes");
    }
  }
  SECTION("uncompressed: the announced Content-Length is refused") {
    live.server->set_compression(false);
    try {
      s->get(live.url("/test/json?bytes=5000"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::body_too_large);
      CHECK(e.attempts() == 1);
    }
  }
  CHECK(live.server->hits("/test/json") == 1);
  // A body within the limit still works on the same session.
  CHECK(json_of(s->get(live.url("/test/json?bytes=100"))).at("size") == 100);
}

TEST_CASE("live: a POST is not retried on 503", "[integration][retry]") {
  Live live;
  live.server->push_faults("/test/echo", Fault::status_only(503), 3);
  auto s = live.session();
  try {
    s->post_json(live.url("/test/echo"), {{"q", 1}});
    FAIL("no throw");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.attempts() == 1);
    CHECK(e.method() == "POST");
  }
  CHECK(live.server->hits("/test/echo") == 1);
  CHECK(live.clock->sleeps().empty());
  live.server->clear_faults();
  const auto echo = json_of(s->post_json(live.url("/test/echo"), {{"q", 2}}));
  CHECK(echo.at("method") == "POST");
  CHECK(echo.at("body") == R"({"q":2})");
  // The mock's record has the body too (httplib reads it after recording starts).
  const auto recorded = live.server->requests();
  REQUIRE(recorded.size() == 2);
  CHECK(recorded[0].body.empty());  // answered by a fault before the body was read
  CHECK(recorded[1].body == R"({"q":2})");
  CHECK(recorded[1].method == "POST");
}

TEST_CASE("live: parallel requests through one session", "[integration][executor]") {
  Live live;
  auto s = live.session();
  const auto results = mgnify::parallel_map(24, 4, [&](std::size_t i) {
    return json_of(s->get(s->url("test/echo", {{"i", std::to_string(i)}})))
        .at("params")
        .at("i")
        .get<std::string>();
  });
  for (std::size_t i = 0; i < results.size(); ++i) {
    INFO(i);
    REQUIRE(results[i].ok());
    CHECK(*results[i] == std::to_string(i));
  }
  auto& curl = mgnify::test::curl_of(*s);
  CHECK(curl.handles_created() >= 1);
  CHECK(curl.handles_created() <= 4);
  CHECK(live.server->hits("/test/echo") == 24);
}

TEST_CASE("live: the logging hook never sees the token, even across a cross-host redirect",
          "[integration][log]") {
  Live live;
  mgnify::test::LogCapture log;
  auto s = live.session([&](mgnify::ClientOptions& o) {
    o.token = "very-secret-token";
    o.logger = log.logger();
  });
  live.server->push_fault("/test/echo",
                          Fault::status_only(503, R"({"detail": "very-secret-token"})"));
  s->get(
      s->url("test/redirect-to",
             {{"to", "http://localhost:" + std::to_string(live.server->port()) + "/test/echo"}}));
  CHECK(log.events().size() >= 6);
  CHECK_FALSE(log.mentions("very-secret-token"));
}

TEST_CASE("live: a server on IPv6 loopback works", "[integration][ipv6]") {
  MockServer::Options options;
  options.host = "::1";
  std::unique_ptr<Live> live;
  try {
    live = std::make_unique<Live>(std::function<void(MockServer&)>{}, options);
  } catch (const std::exception& e) {
    MGNIFY_SKIP_TEST("no IPv6 loopback here (" << e.what() << ")");
  }
  CHECK(live->server->origin() == "http://[::1]:" + std::to_string(live->server->port()));
  auto s = live->session();
  const auto r = s->get(s->url("test/echo"));
  CHECK(r.status == 200);
  CHECK(json_of(r).at("path") == "/test/echo");
}

TEST_CASE("live: CurlTransport on its own sends HEAD, PUT and DELETE as asked",
          "[integration][transport]") {
  Live live;
  mgnify::http::CurlTransport transport;
  mgnify::http::Request head;
  head.method = mgnify::http::Method::head;
  head.url = live.url("/test/echo");
  const auto h = transport.send(head);
  CHECK(h.status == 200);
  CHECK(h.body.empty());
  CHECK(h.url == live.url("/test/echo"));
  CHECK(h.elapsed.count() > 0);

  mgnify::http::Request put;
  put.method = mgnify::http::Method::put;
  put.url = live.url("/test/echo");
  put.body = "payload";
  mgnify::http::Request del;
  del.method = mgnify::http::Method::del;
  del.url = live.url("/test/echo");
  transport.send(put);  // no such route: whatever the status, the method and body arrived
  transport.send(del);
  const auto recorded = live.server->requests();
  REQUIRE(recorded.size() == 3);
  CHECK(recorded[0].method == "HEAD");
  CHECK(recorded[1].method == "PUT");
  CHECK(recorded[1].body == "payload");
  CHECK(recorded[2].method == "DELETE");
  // The transport itself never follows redirects and never retries.
  mgnify::http::Request redirect;
  redirect.url = live.url("/test/redirect/2");
  const auto r = transport.send(redirect);
  CHECK(r.status == 302);
  CHECK(r.headers.get("Location") == std::optional<std::string>("/test/redirect/1"));
  mgnify::http::Request unavailable;
  unavailable.url = live.url("/test/status/503");
  CHECK(transport.send(unavailable).status == 503);
  CHECK(live.server->hits("/test/status/503") == 1);
  CHECK(transport.handles_created() == 1);
}

TEST_CASE("live: transports created and used on several threads at once",
          "[integration][transport]") {
  Live live;
  std::vector<int> statuses(6, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < statuses.size(); ++t) {
    threads.emplace_back([&, t] {
      mgnify::http::CurlTransport transport;
      mgnify::http::Request req;
      req.url = live.url("/test/echo");
      try {
        statuses[t] = transport.send(req).status;
      } catch (...) {
        statuses[t] = -1;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(statuses == std::vector<int>(6, 200));
}

TEST_CASE("live: mock faults are per path, consumed in order, and latency is real",
          "[integration][mock]") {
  Live live;
  live.server->push_fault("/test/echo", Fault::status_only(418, R"({"detail": "teapot"})"));
  live.server->push_fault("/test/echo", Fault::slow(60ms));
  mgnify::http::CurlTransport transport;
  mgnify::http::Request json;
  json.url = live.url("/test/json?bytes=10");
  CHECK(transport.send(json).status == 200);  // another path: untouched
  mgnify::http::Request echo;
  echo.url = live.url("/test/echo");
  const auto first = transport.send(echo);
  CHECK(first.status == 418);
  CHECK(first.body == R"({"detail": "teapot"})");
  const auto second = transport.send(echo);
  CHECK(second.status == 200);
  CHECK(second.elapsed >= 60ms);
  CHECK(transport.send(echo).status == 200);
  CHECK(live.server->hits("/test/echo") == 3);
  CHECK(live.server->hits("/test/json") == 1);
  live.server->clear_requests();
  CHECK(live.server->hits("/test/echo") == 0);
  CHECK(live.server->requests().empty());
}

TEST_CASE("live: TLS is always verified, and TLS failures are not retried", "[integration][tls]") {
  Live live;
  const std::string https_origin = "https://127.0.0.1:" + std::to_string(live.server->port());
  SECTION("https to a server that does not speak TLS") {
    mgnify::http::Session s(mgnify::with_default_transport(mgnify::test::curl_options(live.clock)),
                            https_origin);
    try {
      s.get(s.url("test/echo"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::tls);
      CHECK(e.attempts() == 1);
      CHECK(e.curl_code() != 0);
    }
    CHECK(live.clock->sleeps().empty());
  }
  SECTION("a CA bundle that does not exist") {
    auto o = mgnify::test::curl_options(live.clock);
    o.ca_bundle_path = "/nonexistent/mgnify-test-ca.pem";
    mgnify::http::Session s(mgnify::with_default_transport(o), https_origin);
    try {
      s.get(s.url("test/echo"));
      FAIL("no throw");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::tls);
      CHECK(e.attempts() == 1);
    }
  }
}
