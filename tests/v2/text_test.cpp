// GET /openapi.json, and text bodies (a listed file read whole or streamed)
// through V2Client, end to end against the mock.

#include "mgnify/http/text.hpp"

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>

#include "support/v2_rig.hpp"

using namespace mgnify::v2;

TEST_CASE("openapi() returns the service's OpenAPI document, as JSON and as text",
          "[v2][integration][text]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const auto doc = client.openapi();
  CHECK(rig.hits("openapi.json") == 1);
  CHECK(doc.at("openapi").get<std::string>().rfind("3.", 0) == 0);
  CHECK(doc.at("info").at("title") == "MGnify API");
  const auto& paths = doc.at("paths");
  CHECK(paths.contains(std::string(mgnify::mock::kV2Prefix) + "/studies/"));
  CHECK(paths.at(std::string(mgnify::mock::kV2Prefix) + "/auth/verify").contains("post"));

  const std::string text = client.openapi_text();
  CHECK(nlohmann::json::parse(text) == doc);
  const auto requests = rig.server.requests();
  CHECK(requests.back().headers.find("accept")->second == "application/json");
}

TEST_CASE("openapi() failures are the usual typed errors", "[v2][integration][text]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  rig.server.push_fault(rig.path("openapi.json"), mgnify::mock::Fault::html(502));
  rig.server.push_fault(rig.path("openapi.json"), mgnify::mock::Fault::html(502));
  try {
    client.openapi();
    FAIL("expected ServerError");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 502);
    CHECK(e.url().find("/openapi.json") != std::string::npos);
  }
  rig.server.push_fault(rig.path("openapi.json"),
                        mgnify::mock::Fault::status_only(200, "{not json"));
  CHECK_THROWS_AS(client.openapi(), mgnify::DecodeError);
}

TEST_CASE("a listed file is read whole or streamed, bounded and cancellable",
          "[v2][integration][text][stream]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const auto analysis = client.analysis("MGYA00000002");
  const DownloadFile* file = nullptr;
  for (const auto& f : analysis.downloads) {
    if (f.file_size_bytes && *f.file_size_bytes > 1000) file = &f;
  }
  REQUIRE(file != nullptr);
  const auto whole = client.read_text(*file->url);
  CHECK(static_cast<std::int64_t>(whole.text.size()) == *file->file_size_bytes);

  std::string streamed;
  const auto result = client.stream_text(
      *file->url, [&](const mgnify::http::Response&, const char* data, std::size_t n) {
        streamed.append(data, n);
        return true;
      });
  CHECK(streamed == whole.text);
  CHECK(result.bytes == whole.text.size());

  mgnify::http::StreamOptions capped;
  capped.max_bytes = 100;
  try {
    client.stream_text(
        *file->url, "*/*",
        [](const mgnify::http::Response&, const char*, std::size_t) { return true; }, capped);
    FAIL("expected TransportError");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == mgnify::TransportError::Kind::body_too_large);
  }

  mgnify::CancelToken cancel;
  cancel.cancel();
  CHECK_THROWS_AS(
      client.stream_text(
          *file->url, [](const mgnify::http::Response&, const char*, std::size_t) { return true; },
          {}, cancel),
      mgnify::CancelledError);
  CHECK_THROWS_AS(
      client.read_text(rig.server.origin() + "/pub/databases/metagenomics/no-such-file.tsv"),
      mgnify::NotFoundError);
  CHECK_THROWS_AS(
      client.stream_text(rig.server.v2_url() + "/openapi.json", mgnify::http::BodySink{}),
      mgnify::InvalidArgument);
}

TEST_CASE("read_text and stream_text refuse what is not an absolute http(s) URL, sending nothing",
          "[v2][integration][text]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const auto sink = [](const mgnify::http::Response&, const char*, std::size_t) { return true; };
  // libcurl would guess a scheme for the first two and send them somewhere.
  for (const std::string url : {"files.invalid/x.tsv", "studies/MGYS00000001", "",
                                "ftp://127.0.0.1:1/x.tsv", "file:///etc/passwd"}) {
    INFO(url);
    rig.server.clear_requests();
    CHECK_THROWS_AS(client.read_text(url), mgnify::InvalidArgument);
    CHECK_THROWS_AS(client.stream_text(url, sink), mgnify::InvalidArgument);
    CHECK(rig.server.requests().empty());
  }
}
