// multipart/form-data POSTs: what the FakeTransport records, what libcurl
// puts on the wire (read back by the mock's echo route), the redirect and
// credential rules they share with every other request, and the rule that a
// POST is sent again only when the server says it did not act on it.

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/form.hpp"
#include "mock_server.hpp"

using mgnify::http::FormPart;
using mgnify::mock::Fault;

namespace {

// The mock's /test routes, with a token that must never leave the origin.
struct FormRig : mgnify::test::TestRoutesRig {
  std::unique_ptr<mgnify::http::Session> session(int max_attempts = 3) const {
    return mgnify::test::TestRoutesRig::session([max_attempts](mgnify::ClientOptions& o) {
      o.retry.max_attempts = max_attempts;
      o.token = "form-secret-token";
    });
  }
};

std::vector<FormPart> sample_form(const std::filesystem::path& file) {
  return {
      FormPart::text("mag_catalogues", "human-gut-v2-0-2"),
      FormPart::text("mag_catalogues", "marine-v2-0"),
      FormPart::file_content("file_uploaded", "in-memory.sig", "{\"a\": 1}", "application/json"),
      FormPart::file_at("file_uploaded", file, "application/json")};
}

std::filesystem::path write_temp_signature(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

const nlohmann::json* part_named(const nlohmann::json& parts, const std::string& filename) {
  for (const auto& p : parts) {
    if (p.at("filename") == filename) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("form posts are recorded part by part by the fake transport", "[form]") {
  mgnify::test::FakeRig rig;
  auto session = rig.session();
  rig.transport->respond(rig.url("upload"), 200, "{}");
  // The file must be a regular file (checked), but the fake never reads it.
  const auto path = write_temp_signature("mgnify-form-never-read.sig", "{}");
  session->post_form(rig.url("upload"), sample_form(path));
  std::filesystem::remove(path);

  const auto requests = rig.requests();
  REQUIRE(requests.size() == 1);
  const auto& form = requests[0].form;
  REQUIRE(form.size() == 4);
  CHECK(requests[0].method == mgnify::http::Method::post);
  CHECK(requests[0].body.empty());
  CHECK(form[0].name == "mag_catalogues");
  CHECK(form[0].value == "human-gut-v2-0-2");
  CHECK_FALSE(form[0].is_file());
  CHECK(form[2].filename == "in-memory.sig");
  CHECK(form[2].value == "{\"a\": 1}");
  CHECK(form[2].content_type == "application/json");
  REQUIRE(form[3].file.has_value());
  CHECK(*form[3].file == path);
  CHECK(form[3].filename == "mgnify-form-never-read.sig");
  // The transport writes the boundary; a Content-Type set here would lack it.
  CHECK_FALSE(requests[0].headers.contains("Content-Type"));
}

TEST_CASE("form posts need named parts", "[form][validation]") {
  mgnify::test::FakeRig rig;
  auto session = rig.session();
  CHECK_THROWS_AS(session->post_form(rig.url("upload"), {}), mgnify::InvalidArgument);
  CHECK_THROWS_AS(session->post_form(rig.url("upload"), {FormPart::text("", "x")}),
                  mgnify::InvalidArgument);
  CHECK(rig.transport->request_count() == 0);
}

TEST_CASE("form part headers take no line breaks, NUL or escapable characters",
          "[form][validation][hostile]") {
  mgnify::test::FakeRig rig;
  auto session = rig.session();
  auto refused = [&](FormPart part) {
    CAPTURE(part.name, part.filename, part.content_type);
    CHECK_THROWS_AS(session->post_form(rig.url("upload"), {FormPart::text("seq", "ACGT"), part}),
                    mgnify::InvalidArgument);
  };
  refused(FormPart::file_content("f", "a.sig", "{}", "application/json\r\nX-Injected: 1"));
  refused(FormPart::file_content("f", "a.sig", "{}", "application/json\nX-Injected: 1"));
  refused(FormPart::file_content("f", "a.sig", "{}", std::string("text/plain\0x", 12)));
  refused(FormPart::file_content("f", "a\r\nX-Injected: 1.sig", "{}"));
  refused(FormPart::file_content("f", "a\".sig", "{}"));
  // libcurl before 7.81 escapes a backslash, later ones do not: two names on the wire.
  refused(FormPart::file_content("f", "a\\b.sig", "{}"));
  refused(FormPart::file_content("f", "a\x01b.sig", "{}"));
  refused(FormPart::file_content("f", "a\x7f.sig", "{}"));
  refused(FormPart::text("seq\r\nX-Injected: 1", "ACGT"));
  refused(FormPart::text("se\"q", "ACGT"));
  refused(FormPart::text(std::string("se\0q", 4), "ACGT"));
  refused(FormPart::text("se\tq", "ACGT"));
  CHECK(rig.transport->request_count() == 0);

  // A text field's value is content, not a header: line breaks are its own business.
  rig.transport->respond(rig.url("upload"), 200, "{}");
  session->post_form(rig.url("upload"), {FormPart::text("seq", ">a\r\nACGT\n\"x\"\\")});
  CHECK(rig.transport->request_count() == 1);
}

TEST_CASE("live: an injected part header never leaves the process", "[form][hostile]") {
  FormRig rig;
  const std::vector<FormPart> forms[] = {
      {FormPart::file_content("file_uploaded", "a.sig", "{}", "application/json\r\nX-Injected: 1")},
      {FormPart::file_content("file_uploaded", "a\"; name=\"other.sig", "{}")},
      {FormPart::text("seq\r\nX-Injected: 1", "ACGT")}};
  for (const auto& form : forms) {
    // Through the session, and straight to the transport as a hand-built request.
    CHECK_THROWS_AS(rig.session()->post_form(rig.url("test/echo"), form), mgnify::InvalidArgument);
    mgnify::http::CurlTransport transport;
    mgnify::http::Request request;
    request.method = mgnify::http::Method::post;
    request.url = rig.url("test/echo");
    request.form = form;
    CHECK_THROWS_AS(transport.send(request), mgnify::InvalidArgument);
  }
  CHECK(rig.hits("test/echo") == 0);
}

TEST_CASE("form file parts are read only from regular files", "[form][validation][hostile]") {
  FormRig rig;
  auto session = rig.session();
  const auto dir = std::filesystem::temp_directory_path();
  // Missing, a directory, and a character device that never ends (an upload forever).
  for (const std::filesystem::path& path :
       {dir / "mgnify-no-such-file.sig", dir, std::filesystem::path("/dev/zero")}) {
    CAPTURE(path);
    REQUIRE_THROWS_AS(
        session->post_form(rig.url("test/echo"),
                           {FormPart::file_at("file_uploaded", path, "text/plain", "named.sig")}),
        mgnify::InvalidArgument);
  }
  CHECK(rig.hits("test/echo") == 0);
}

TEST_CASE("live: libcurl sends text fields, in-memory files and files from disk",
          "[form][integration]") {
  FormRig rig;
  auto session = rig.session();
  const auto file = write_temp_signature("mgnify-form-test-disk.sig", "[{\"name\": \"on disk\"}]");
  const auto response = session->post_form(rig.url("test/echo"), sample_form(file));
  std::filesystem::remove(file);

  const auto echo = nlohmann::json::parse(response.body);
  CHECK(echo.at("method") == "POST");
  CHECK(echo.at("headers")
            .at("content-type")
            .get<std::string>()
            .rfind("multipart/form-data; boundary=", 0) == 0);
  const auto& parts = echo.at("parts");
  REQUIRE(parts.size() == 4);
  int catalogues = 0;
  for (const auto& p : parts) {
    if (p.at("name") == "mag_catalogues") {
      ++catalogues;
      CHECK(p.at("filename") == "");
    }
  }
  CHECK(catalogues == 2);
  const auto* memory = part_named(parts, "in-memory.sig");
  REQUIRE(memory != nullptr);
  CHECK(memory->at("content") == "{\"a\": 1}");
  CHECK(memory->at("content_type") == "application/json");
  const auto* disk = part_named(parts, "mgnify-form-test-disk.sig");
  REQUIRE(disk != nullptr);
  CHECK(disk->at("content") == "[{\"name\": \"on disk\"}]");
  CHECK(disk->at("name") == "file_uploaded");
}

TEST_CASE("live: a form post answered 303 continues as a GET without the form",
          "[form][redirect]") {
  FormRig rig;
  auto session = rig.session();
  const auto response = session->post_form(rig.url("test/redirect-to?status=303&to=/test/echo"),
                                           {FormPart::text("seq", "ACGT")});
  const auto echo = nlohmann::json::parse(response.body);
  CHECK(echo.at("method") == "GET");
  CHECK(echo.at("parts").empty());
  CHECK(echo.at("body") == "");
  REQUIRE(response.redirects.size() == 1);
  // Same origin: the token still goes along.
  CHECK(echo.at("headers").at("authorization") == "Bearer form-secret-token");
}

TEST_CASE("a form is never carried to another origin and the token is dropped there",
          "[form][redirect][secrets]") {
  mgnify::test::FakeRig rig;
  auto session = rig.session([](mgnify::ClientOptions& o) { o.token = "form-secret-token"; });

  // 307 keeps the method and the body: refused across origins.
  rig.transport->respond(rig.url("upload"), 307, "",
                         mgnify::http::Headers{{"Location", "https://elsewhere.example/upload"}});
  CHECK_THROWS_AS(session->post_form(rig.url("upload"), {FormPart::text("seq", "ACGT")}),
                  mgnify::RedirectError);
  CHECK(rig.transport->request_count() == 1);

  // 303 turns it into a GET, which may go on, without the token.
  rig.transport->respond(rig.url("upload"), 303, "",
                         mgnify::http::Headers{{"Location", "https://elsewhere.example/result"}});
  rig.transport->respond("https://elsewhere.example/result", 200, "{}");
  session->post_form(rig.url("upload"), {FormPart::text("seq", "ACGT")});
  const auto requests = rig.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[1].headers.contains("Authorization"));
  CHECK(requests[2].method == mgnify::http::Method::get);
  CHECK(requests[2].form.empty());
  CHECK_FALSE(requests[2].headers.contains("Authorization"));
}

TEST_CASE("live: a POST answered 500 is sent once", "[form][retry]") {
  FormRig rig;
  auto session = rig.session(4);
  rig.server.push_faults("/test/echo", Fault::status_only(500), 3);
  CHECK_THROWS_AS(session->post_form(rig.url("test/echo"), {FormPart::text("seq", "ACGT")}),
                  mgnify::ServerError);
  CHECK(rig.hits("test/echo") == 1);
  // The same holds for a 503 that does not say when to come back...
  rig.server.clear_faults();
  rig.server.push_faults("/test/echo", Fault::status_only(503), 3);
  CHECK_THROWS_AS(session->post_json(rig.url("test/echo"), {{"seq", "ACGT"}}), mgnify::ServerError);
  CHECK(rig.hits("test/echo") == 2);
  // ...while a GET answered 500 is retried.
  rig.server.clear_faults();
  rig.server.push_fault("/test/echo", Fault::status_only(500));
  session->get(rig.url("test/echo"));
  CHECK(rig.hits("test/echo") == 4);
}

TEST_CASE("live: a POST answered 503 or 429 with Retry-After is sent again", "[form][retry]") {
  FormRig rig;
  auto session = rig.session(4);
  Fault busy = Fault::status_only(
      503, "{\"detail\": \"Genome search is temporarily unavailable. Please try later.\"}");
  busy.headers.emplace_back("Retry-After", "2");
  rig.server.push_fault("/test/echo", busy);
  rig.server.push_fault("/test/echo", Fault::throttled(std::string("1")));
  const auto response = session->post_form(rig.url("test/echo"), {FormPart::text("seq", "ACGT")});
  CHECK(response.attempts == 3);
  CHECK(rig.hits("test/echo") == 3);
  const auto echo = nlohmann::json::parse(response.body);
  REQUIRE(echo.at("parts").size() == 1);
  CHECK(echo.at("parts")[0].at("content") == "ACGT");
  // The waits were the server's (on the fake clock), not shorter.
  const auto sleeps = rig.clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(sleeps[0] >= std::chrono::seconds(2));
  CHECK(sleeps[1] >= std::chrono::seconds(1));
}
