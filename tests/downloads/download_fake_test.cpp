// Download protocol details against a scripted FakeTransport: no sockets, exact
// control over statuses and headers the mock's HTTP library does not produce.

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "core/test_support.hpp"
#include "download_support.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/testing/fake_transport.hpp"

using namespace mgnify;
using namespace mgnify::http;
using namespace mgnify::files;

namespace {

constexpr const char* kBase = "https://www.ebi.ac.uk/metagenomics/api/v1";
constexpr const char* kFileUrl =
    "https://www.ebi.ac.uk/metagenomics/api/v1/studies/MGYS00001392/pipelines/3.0/file/x.tsv";

// The core tests' fake-transport rig, with a token, one session for the whole
// test and a scratch directory.
struct FakeRig : mgnify::test::FakeRig {
  std::unique_ptr<Session> session =
      mgnify::test::FakeRig::session([](ClientOptions& o) { o.token = "secret-token"; }, kBase);
  mgnify::test::dl::TempDir dir;
};

std::string body_of(std::size_t size) {
  std::string s(size, '\0');
  for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

}  // namespace

TEST_CASE("body_sink receives a 2xx body in chunks and Response::body stays empty",
          "[downloads][fake]") {
  FakeRig rig;
  const std::string body = body_of(10000);
  rig.transport->respond(kFileUrl, 200, body, {{"Content-Length", "10000"}});
  std::string received;
  int chunks = 0;
  Request request;
  request.url = kFileUrl;
  request.body_sink = [&](const Response& head, const char* data, std::size_t size) {
    CHECK(head.status == 200);
    CHECK(head.headers.get("Content-Length") == std::string("10000"));
    received.append(data, size);
    ++chunks;
    return true;
  };
  const Response r = rig.session->execute(request);
  CHECK(r.status == 200);
  CHECK(r.body.empty());
  CHECK(received == body);
  CHECK(chunks == 3);  // 4096-byte chunks
}

TEST_CASE("body_sink is not used for error bodies, which keep their text", "[downloads][fake]") {
  FakeRig rig;
  rig.transport->respond(kFileUrl, 404, "{\"detail\": \"Not found.\"}");
  bool called = false;
  Request request;
  request.url = kFileUrl;
  request.body_sink = [&](const Response&, const char*, std::size_t) { return called = true; };
  try {
    rig.session->execute(request);
    FAIL("expected NotFoundError");
  } catch (const NotFoundError& e) {
    CHECK(e.message() == "Not found.");
  }
  CHECK_FALSE(called);
}

TEST_CASE("a sink returning false aborts with TransportError", "[downloads][fake]") {
  FakeRig rig;
  rig.transport->respond(kFileUrl, 200, body_of(100));
  Request request;
  request.url = kFileUrl;
  request.body_sink = [](const Response&, const char*, std::size_t) { return false; };
  RequestOptions call;
  call.max_attempts = 1;
  CHECK_THROWS_AS(rig.session->execute(request, call), TransportError);
  CHECK(rig.transport->request_count() == 1);
}

TEST_CASE("a 200 with Content-Length to a Range request replaces the .part", "[downloads][fake]") {
  FakeRig rig;
  const std::string body = body_of(9000);
  const auto target = rig.dir / "x.tsv";
  mgnify::test::dl::write_file(partial_path(target), "stale bytes");
  rig.transport->respond(kFileUrl, 200, body, {{"Content-Length", "9000"}});
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::sha256, hash_bytes(HashAlgorithm::sha256, body));
  const auto r = download(*rig.session, kFileUrl, target, options);
  CHECK_FALSE(r.resumed);
  CHECK(mgnify::test::dl::read_file(target) == body);
  const auto sent = rig.transport->requests();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].headers.get("Range") == std::string("bytes=11-"));
}

TEST_CASE("a 206 for another range restarts without Range", "[downloads][fake]") {
  FakeRig rig;
  const std::string body = body_of(5000);
  const auto target = rig.dir / "x.tsv";
  mgnify::test::dl::write_file(partial_path(target), body.substr(0, 100));
  rig.transport->respond(kFileUrl, 206, body.substr(50), {{"Content-Range", "bytes 50-4999/5000"}});
  rig.transport->respond(kFileUrl, 200, body, {{"Content-Length", "5000"}});
  DownloadOptions options;  // the digest lets a .part without a saved validator be resumed
  options.checksum = Checksum::of(HashAlgorithm::sha256, hash_bytes(HashAlgorithm::sha256, body));
  const auto r = download(*rig.session, kFileUrl, target, options);
  CHECK(r.attempts == 2);
  CHECK(mgnify::test::dl::read_file(target) == body);
  const auto sent = rig.transport->requests();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].headers.get("Range") == std::string("bytes=100-"));
  CHECK_FALSE(sent[1].headers.contains("Range"));
}

TEST_CASE("a 206 resumes, taking the total from Content-Range", "[downloads][fake]") {
  FakeRig rig;
  const std::string body = body_of(5000);
  const auto target = rig.dir / "x.tsv";
  mgnify::test::dl::write_file(partial_path(target), body.substr(0, 1000));
  mgnify::test::dl::write_file(validator_path(target), "\"v1\"\n");  // saved by the earlier run
  rig.transport->respond(
      kFileUrl, 206, body.substr(1000),
      {{"Content-Range", "bytes 1000-4999/5000"}, {"Content-Length", "4000"}, {"ETag", "\"v1\""}});
  std::optional<std::uint64_t> total;
  DownloadOptions options;
  options.progress = [&](const DownloadProgress& p) { total = p.total; };
  const auto r = download(*rig.session, kFileUrl, target, options);
  CHECK(r.resumed);
  CHECK(r.bytes == 5000);
  CHECK(r.bytes_transferred == 4000);
  CHECK(total == std::uint64_t{5000});
  CHECK(mgnify::test::dl::read_file(target) == body);
  CHECK(rig.transport->requests().at(0).headers.get("If-Range") == std::string("\"v1\""));
  CHECK_FALSE(std::filesystem::exists(validator_path(target)));
}

TEST_CASE("a 416 without a way to confirm the .part restarts the file", "[downloads][fake]") {
  FakeRig rig;
  const std::string body = body_of(3000);
  const auto target = rig.dir / "x.tsv";
  mgnify::test::dl::write_file(partial_path(target), body);
  mgnify::test::dl::write_file(validator_path(target), "\"v1\"\n");
  rig.transport->respond(kFileUrl, 416, "", {{"Content-Range", "bytes */3000"}});
  rig.transport->respond(kFileUrl, 200, body);
  const auto r = download(*rig.session, kFileUrl, target, {});
  CHECK(r.attempts == 2);
  CHECK(r.bytes == 3000);
  CHECK(mgnify::test::dl::read_file(target) == body);
}

TEST_CASE("a server size that contradicts the expected size fails before the body",
          "[downloads][fake]") {
  FakeRig rig;
  rig.transport->respond(kFileUrl, 200, body_of(9000), {{"Content-Length", "9000"}});
  const auto target = rig.dir / "x.tsv";
  DownloadOptions options;
  options.expected_size = 8000;
  try {
    download(*rig.session, kFileUrl, target, options);
    FAIL("expected IntegrityError");
  } catch (const IntegrityError& e) {
    CHECK(e.kind() == IntegrityError::Kind::size);
    CHECK(e.actual() == "9000");
  }
  CHECK_FALSE(std::filesystem::exists(partial_path(target)));
}

TEST_CASE("retries back off through the session's clock, honouring Retry-After",
          "[downloads][fake]") {
  FakeRig rig;
  rig.transport->respond(kFileUrl, 503, "{\"detail\": \"busy\"}", {{"Retry-After", "7"}});
  rig.transport->fail(kFileUrl, TransportError::Kind::receive);
  rig.transport->respond(kFileUrl, 200, "done");
  const auto r = download(*rig.session, kFileUrl, rig.dir / "x.tsv", {});
  CHECK(r.attempts == 3);
  const auto sleeps = rig.clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(sleeps[0] == std::chrono::seconds(7));
  CHECK(sleeps[1] <= std::chrono::milliseconds(40));
}

TEST_CASE("the token goes to the API origin only", "[downloads][fake]") {
  FakeRig rig;
  const std::string foreign = "https://ftp.ebi.ac.uk/pub/databases/metagenomics/x.tsv";
  rig.transport->respond(kFileUrl, 200, "a");
  rig.transport->respond(foreign, 200, "b");
  download(*rig.session, kFileUrl, rig.dir / "a.tsv", {});
  download(*rig.session, foreign, rig.dir / "b.tsv", {});
  const auto sent = rig.transport->requests();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].headers.get("Authorization") == std::string("Bearer secret-token"));
  CHECK_FALSE(sent[1].headers.contains("Authorization"));
  CHECK(sent[1].headers.get("Accept-Encoding") == std::string("identity"));
}

TEST_CASE("bad input is rejected before any request", "[downloads][fake]") {
  FakeRig rig;
  CHECK_THROWS_AS(download(*rig.session, "not a url", rig.dir / "x", {}), InvalidArgument);
  CHECK_THROWS_AS(download(*rig.session, kFileUrl, "", {}), InvalidArgument);
  CHECK_THROWS_AS(download(*rig.session, kFileUrl, rig.dir.path(), {}), InvalidArgument);
  DownloadOptions negative;
  negative.max_attempts = -1;
  CHECK_THROWS_AS(download(*rig.session, kFileUrl, rig.dir / "x", negative), InvalidArgument);
  CHECK(rig.transport->request_count() == 0);
}

TEST_CASE("an empty body produces an empty, verified file", "[downloads][fake]") {
  FakeRig rig;
  rig.transport->respond(kFileUrl, 200, "", {{"Content-Length", "0"}});
  DownloadOptions options;
  options.expected_size = 0;
  options.checksum = Checksum::of(HashAlgorithm::md5, "d41d8cd98f00b204e9800998ecf8427e");
  const auto target = rig.dir / "x.tsv";
  const auto r = download(*rig.session, kFileUrl, target, options);
  CHECK(r.bytes == 0);
  CHECK(std::filesystem::exists(target));
  CHECK(std::filesystem::file_size(target) == 0);
}

TEST_CASE("hashing a file already there, or a .part, watches the call's cancel and deadline",
          "[downloads][fake][cancel]") {
  FakeRig rig;
  const std::string body = body_of(300000);
  const auto target = rig.dir / "x.tsv";
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::sha256, hash_bytes(HashAlgorithm::sha256, body));
  const CancelToken cancelled;
  cancelled.cancel();

  // A complete file: stopped while hashing it, not reported as present.
  mgnify::test::dl::write_file(target, body);
  CHECK_THROWS_WITH(download(*rig.session, kFileUrl, target, options, cancelled),
                    Catch::Contains("cancelled: hashing") && Catch::Contains("x.tsv"));
  auto late = CallOptions();
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  try {
    download(*rig.session, kFileUrl, target, options, late);
    FAIL("expected a timeout");
  } catch (const TransportError& e) {
    CHECK(e.kind() == TransportError::Kind::timeout);
  }
  CHECK(mgnify::test::dl::read_file(target) == body);

  // A .part to resume: stopped while hashing it, and kept for the next run.
  std::filesystem::remove(target);
  mgnify::test::dl::write_file(partial_path(target), body.substr(0, 200000));
  CHECK_THROWS_WITH(download(*rig.session, kFileUrl, target, options, cancelled),
                    Catch::Contains("cancelled: hashing") && Catch::Contains("x.tsv.part"));
  CHECK(mgnify::test::dl::read_file(partial_path(target)) == body.substr(0, 200000));
  CHECK(rig.transport->requests().empty());
}
