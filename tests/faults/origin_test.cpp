// What a server (or a link it sends) can make the SDK send elsewhere: the
// token and credential headers go only to the base URL's origin, URLs are
// redacted in messages and logs, a request body is never carried
// across origins by a 307/308, header values cannot add header lines, and a
// file is stored exactly as served.

#include <httplib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mgnify/default_transport.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mgnify/v2.hpp"
#include "mock_server.hpp"

namespace {

using mgnify::mock::MockServer;

// Two loopback servers on different ports: two origins.
struct TwoOrigins {
  MockServer home;
  MockServer elsewhere;
  TwoOrigins() {
    for (MockServer* m : {&home, &elsewhere}) {
      m->server().Get("/echo", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("{}", "application/json");
      });
      m->server().Post("/echo", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("{}", "application/json");
      });
    }
    home.server().Post("/login", [this](const httplib::Request&, httplib::Response& res) {
      res.status = 307;
      res.set_header("Location", elsewhere.origin() + "/echo");
    });
    home.server().Get("/hop", [this](const httplib::Request&, httplib::Response& res) {
      res.status = 302;
      res.set_header("Location", elsewhere.origin() + "/echo");
    });
    home.server().Get("/hop-signed", [this](const httplib::Request&, httplib::Response& res) {
      res.status = 302;
      res.set_header("Location", elsewhere.origin() + "/gone?token=TOKSECRET&page=2");
    });
    home.start();
    elsewhere.start();
  }
  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.base_url = home.origin();
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.max_attempts = 1;
    return o;
  }
};

bool has_header(const mgnify::mock::RecordedRequest& r, const std::string& name) {
  return r.headers.count(name) > 0;
}

}  // namespace

TEST_CASE("origin: the token never goes to another origin, even with foreign links allowed",
          "[faults][origin]") {
  TwoOrigins servers;
  auto o = servers.options();
  o.allow_foreign_links = true;
  o.token = "secret-token-123456";
  mgnify::http::Session session(mgnify::with_default_transport(o), "");
  session.get(servers.home.origin() + "/echo");
  session.get(servers.elsewhere.origin() + "/echo");
  const auto home = servers.home.requests();
  const auto elsewhere = servers.elsewhere.requests();
  REQUIRE(home.size() == 1);
  REQUIRE(elsewhere.size() == 1);
  CHECK(has_header(home[0], "authorization"));
  CHECK_FALSE(has_header(elsewhere[0], "authorization"));
}

TEST_CASE("origin: a 307 never carries a request body to another origin", "[faults][origin]") {
  TwoOrigins servers;
  mgnify::http::Session session(mgnify::with_default_transport(servers.options()), "");
  CHECK_THROWS_AS(session.post_json(servers.home.origin() + "/login",
                                    {{"username", "Webin-1"}, {"password", "hunter2-secret"}}),
                  mgnify::RedirectError);
  CHECK(servers.elsewhere.requests().empty());
}

TEST_CASE("origin: CR, LF or NUL in a header value is refused before any request",
          "[faults][origin]") {
  TwoOrigins servers;
  {
    auto o = servers.options();
    o.user_agent_suffix = "tool/1\r\nX-Injected: 1";
    CHECK_THROWS_AS(mgnify::http::Session(mgnify::with_default_transport(o), ""),
                    mgnify::InvalidArgument);
  }
  {
    auto o = servers.options();
    o.extra_headers.set("X-Note", "a\nX-Injected: 1");
    CHECK_THROWS_AS(mgnify::http::Session(mgnify::with_default_transport(o), ""),
                    mgnify::InvalidArgument);
  }
  {
    auto o = servers.options();
    o.token = std::string("tok\0en", 6);
    CHECK_THROWS_AS(mgnify::http::Session(mgnify::with_default_transport(o), ""),
                    mgnify::InvalidArgument);
  }
  mgnify::http::Session session(mgnify::with_default_transport(servers.options()), "");
  CHECK_THROWS_AS(session.set_token(std::string("issued\r\nX-Injected: 1")),
                  mgnify::InvalidArgument);
  CHECK_FALSE(session.has_token());
  CHECK(servers.home.requests().empty());
}

TEST_CASE("origin: a download is stored as served, never decoded", "[faults][origin]") {
  MockServer server;
  // Bytes that are not valid gzip, sent as Content-Encoding: gzip: a decoder
  // would fail on them; a file store keeps them.
  const std::string served = std::string("\x1f\x8b\x08\x00", 4) + "not really gzip, kept as is";
  server.server().Get("/files/table.tsv.gz", [&](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Encoding", "gzip");
    res.set_content(served, "application/octet-stream");
  });
  server.start();
  mgnify::ClientOptions o;
  o.base_url = server.origin();
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  mgnify::http::Session session(mgnify::with_default_transport(o), "");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mgnify-origin-" + std::to_string(::getpid()) + "-" +
                    std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const auto path = dir / "table.tsv.gz";
  const auto result =
      mgnify::files::download(session, server.origin() + "/files/table.tsv.gz", path);
  std::ifstream in(path, std::ios::binary);
  const std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(stored == served);
  CHECK(result.bytes == served.size());
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile input: JSON nested a million levels deep is an error, not a crash",
          "[faults][origin]") {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  SECTION("as an error body") {
    MockServer server;
    server.server().Get("/deep", [&](const httplib::Request&, httplib::Response& res) {
      res.status = 500;
      res.set_content(deep, "application/json");
    });
    server.start();
    mgnify::ClientOptions o;
    o.base_url = server.origin();
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.max_attempts = 1;
    mgnify::http::Session session(mgnify::with_default_transport(o), "");
    try {
      session.get(server.origin() + "/deep");
      FAIL("expected ServerError");
    } catch (const mgnify::ServerError& e) {
      CHECK(e.status() == 500);
      CHECK(std::string(e.what()).find("[[[[") != std::string::npos);  // the body, as text
    }
  }
  SECTION("as a success body, on both decoding paths") {
    CHECK_THROWS_AS((mgnify::detail::decode_body<mgnify::v2::CountedPage<mgnify::v2::Study>>(
                        deep, "http://x/")),
                    mgnify::DecodeError);
    std::string objects;
    for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
    objects += "1" + std::string(100000, '}');
    CHECK_THROWS_AS((mgnify::detail::decode_body<mgnify::v2::StudyDetail>(objects, "http://x/")),
                    mgnify::DecodeError);
  }
}

TEST_CASE("origin: credential headers from extra_headers stay on the base origin",
          "[faults][origin]") {
  TwoOrigins servers;
  auto o = servers.options();
  o.allow_foreign_links = true;
  o.extra_headers.set("X-Api-Key", "key-secret-1");
  o.extra_headers.set("Authorization", "Basic c2VjcmV0");
  o.extra_headers.set("X-Pipeline", "run-7");  // not a credential: goes everywhere
  mgnify::http::Session session(mgnify::with_default_transport(o), "");
  session.get(servers.home.origin() + "/echo");
  session.get(servers.elsewhere.origin() + "/echo");  // a foreign link
  session.get(servers.home.origin() + "/hop");        // a redirect to another origin
  const auto home = servers.home.requests();
  const auto elsewhere = servers.elsewhere.requests();
  REQUIRE(home.size() == 2);
  REQUIRE(elsewhere.size() == 2);
  for (const auto& r : home) {
    CHECK(has_header(r, "x-api-key"));
    CHECK(has_header(r, "authorization"));
  }
  for (const auto& r : elsewhere) {
    INFO(r.path);
    CHECK_FALSE(has_header(r, "x-api-key"));
    CHECK_FALSE(has_header(r, "authorization"));
    CHECK(has_header(r, "x-pipeline"));
  }
}

TEST_CASE("origin: URLs are redacted in error messages, redirect lists and log events",
          "[faults][origin]") {
  TwoOrigins servers;
  std::vector<std::string> logged;
  auto o = servers.options();
  o.logger = [&](const mgnify::http::LogEvent& e) { logged.push_back(e.url + " " + e.message); };
  mgnify::http::Session session(mgnify::with_default_transport(o), "");
  const std::string port = servers.home.origin().substr(servers.home.origin().rfind(':'));
  const std::string with_userinfo =
      "http://reader:PWSECRET@127.0.0.1" + port + "/missing?X-Amz-Signature=SIGSECRET&page=2";
  auto secret_free = [](const std::string& text) {
    INFO(text);
    CHECK(text.find("PWSECRET") == std::string::npos);
    CHECK(text.find("SIGSECRET") == std::string::npos);
    CHECK(text.find("TOKSECRET") == std::string::npos);
    CHECK(text.find("KEYSECRET") == std::string::npos);
  };
  try {
    session.get(with_userinfo);
    FAIL("expected a 404");
  } catch (const mgnify::NotFoundError& e) {
    secret_free(e.what());
    CHECK(std::string(e.what()).find("page=2") != std::string::npos);
    CHECK(std::string(e.what()).find("X-Amz-Signature=***") != std::string::npos);
    CHECK(e.url() == with_userinfo);  // the accessor keeps what was requested
  }
  try {
    session.get(servers.home.origin() + "/hop-signed");
    FAIL("expected a 404");
  } catch (const mgnify::NotFoundError& e) {
    secret_free(e.what());
    for (const auto& url : e.redirects()) secret_free(url);
  }
  // Port 1 on loopback refuses the connection: a TransportError.
  try {
    session.get("http://reader:PWSECRET@127.0.0.1:1/x?api_key=KEYSECRET");
    FAIL("expected a transport error");
  } catch (const mgnify::TransportError& e) {
    secret_free(e.what());
  }
  REQUIRE_FALSE(logged.empty());
  for (const auto& line : logged) secret_free(line);
}
