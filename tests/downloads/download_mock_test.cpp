// End to end through libcurl against the mock's /files routes.

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "download_support.hpp"
#include "files/files.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mock_server.hpp"

using namespace mgnify;
using namespace mgnify::http;
using namespace mgnify::files;
using mgnify::test::dl::KnownFile;

namespace {

// One session for the whole test, and a scratch directory.
struct Rig : mgnify::test::dl::FilesRig {
  std::unique_ptr<Session> session = mgnify::test::dl::FilesRig::session();
  mgnify::test::dl::TempDir dir;
};

std::string header(const mock::RecordedRequest& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

Checksum expected(const KnownFile& f, HashAlgorithm algorithm) {
  switch (algorithm) {
    case HashAlgorithm::md5:
      return Checksum::of(algorithm, f.md5);
    case HashAlgorithm::sha1:
      return Checksum::of(algorithm, f.sha1);
    case HashAlgorithm::sha256:
      return Checksum::of(algorithm, f.sha256);
  }
  return Checksum::of(algorithm, f.sha256);
}

}  // namespace

TEST_CASE("fresh downloads are verified with MD5, SHA1 and SHA256", "[downloads][mock]") {
  Rig rig;
  const auto algorithm = GENERATE(HashAlgorithm::md5, HashAlgorithm::sha1, HashAlgorithm::sha256);
  const KnownFile file = GENERATE(mgnify::test::dl::kSmall, mgnify::test::dl::kMedium,
                                  mgnify::test::dl::kLarge, mgnify::test::dl::kEmpty);
  CAPTURE(file.name, hash_algorithm_name(algorithm));

  DownloadOptions options;
  options.checksum = expected(file, algorithm);
  options.expected_size = file.size;
  const auto target = rig.dir / "out" / file.name;  // the parent is created
  const auto r = download(*rig.session, rig.url(file.name), target, options);

  CHECK(r.bytes == file.size);
  CHECK(r.bytes_transferred == file.size);
  CHECK(r.attempts == 1);
  CHECK_FALSE(r.resumed);
  CHECK_FALSE(r.already_present);
  CHECK(r.size_verified);
  REQUIRE(r.verified_checksum.has_value());
  CHECK(*r.verified_checksum == *options.checksum);
  CHECK(r.path == target);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file(file.name));
  CHECK_FALSE(std::filesystem::exists(partial_path(target)));

  const auto sent = rig.requests(file.name);
  REQUIRE(sent.size() == 1);
  CHECK(header(sent[0], "range").empty());
  CHECK(header(sent[0], "accept-encoding") == "identity");
}

TEST_CASE("a checksum mismatch throws IntegrityError and leaves no file", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "small.tsv";
  DownloadOptions options;
  options.checksum =
      Checksum::of(HashAlgorithm::md5, mgnify::test::dl::kMedium.md5);  // the wrong file's
  try {
    download(*rig.session, rig.url("small.tsv"), target, options);
    FAIL("expected IntegrityError");
  } catch (const IntegrityError& e) {
    CHECK(e.kind() == IntegrityError::Kind::checksum);
    CHECK(e.expected() == std::string("MD5:") + mgnify::test::dl::kMedium.md5);
    CHECK(e.actual() == std::string("MD5:") + mgnify::test::dl::kSmall.md5);
    CHECK(e.path() == target);
    CHECK(e.url() == rig.url("small.tsv"));
  }
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK_FALSE(std::filesystem::exists(partial_path(target)));
  CHECK(rig.server.hits("/files/small.tsv") == 1);  // a mismatch is not retried
}

TEST_CASE("a size mismatch throws IntegrityError and leaves no file", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "medium.bin";
  DownloadOptions options;
  options.expected_size = mgnify::test::dl::kMedium.size - 1;
  try {
    download(*rig.session, rig.url("medium.bin"), target, options);
    FAIL("expected IntegrityError");
  } catch (const IntegrityError& e) {
    CHECK(e.kind() == IntegrityError::Kind::size);
    CHECK(e.expected() == std::to_string(mgnify::test::dl::kMedium.size - 1));
    CHECK(e.actual() == std::to_string(mgnify::test::dl::kMedium.size));
  }
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK_FALSE(std::filesystem::exists(partial_path(target)));

  options.expected_size = mgnify::test::dl::kMedium.size;
  const auto r = download(*rig.session, rig.url("medium.bin"), target, options);
  CHECK(r.size_verified);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("medium.bin"));
}

TEST_CASE("a transfer cut mid-body resumes with a Range request", "[downloads][mock]") {
  Rig rig;
  const std::uint64_t cut = 1'000'000;
  const auto target = rig.dir / "large.fasta";
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::sha256, mgnify::test::dl::kLarge.sha256);
  const auto r =
      download(*rig.session, rig.url("large.fasta?cut=" + std::to_string(cut)), target, options);

  CHECK(r.attempts == 2);
  CHECK(r.resumed);
  CHECK(r.bytes == mgnify::test::dl::kLarge.size);
  // Every byte crossed the network exactly once.
  CHECK(r.bytes_transferred == mgnify::test::dl::kLarge.size);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("large.fasta"));

  const auto sent = rig.requests("large.fasta");
  REQUIRE(sent.size() == 2);
  CHECK(header(sent[0], "range").empty());
  CHECK(header(sent[1], "range") == "bytes=" + std::to_string(cut) + "-");
  CHECK(header(sent[1], "if-range").rfind("\"", 0) == 0);  // the ETag of the first response
  // The retry slept through the session's (fake) clock.
  CHECK(rig.clock->sleeps().size() == 1);
}

TEST_CASE("a .part left by an earlier run is resumed, only the rest is fetched",
          "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "medium.bin";
  const std::string& full = mock::mock_file("medium.bin");
  mgnify::test::dl::write_file(partial_path(target), full.substr(0, 12345));

  std::vector<DownloadProgress> seen;
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::sha1, mgnify::test::dl::kMedium.sha1);
  options.progress = [&](const DownloadProgress& p) { seen.push_back(p); };
  const auto r = download(*rig.session, rig.url("medium.bin"), target, options);

  CHECK(r.resumed);
  CHECK(r.attempts == 1);
  CHECK(r.bytes_transferred == full.size() - 12345);
  CHECK(mgnify::test::dl::read_file(target) == full);
  const auto sent = rig.requests("medium.bin");
  REQUIRE(sent.size() == 1);
  CHECK(header(sent[0], "range") == "bytes=12345-");
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.front().bytes_done == 12345);  // the kept bytes are reported first
  CHECK(seen.front().total == mgnify::test::dl::kMedium.size);
  CHECK(seen.back().bytes_done == full.size());
}

TEST_CASE("resume=false discards an existing .part", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "small.tsv";
  mgnify::test::dl::write_file(partial_path(target), "garbage that must not survive");
  DownloadOptions options;
  options.resume = false;
  const auto r = download(*rig.session, rig.url("small.tsv"), target, options);
  CHECK_FALSE(r.resumed);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("small.tsv"));
  CHECK(header(rig.requests("small.tsv").at(0), "range").empty());
}

TEST_CASE("a server that ignores Range restarts the file cleanly", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "medium.bin";
  // Bytes that are NOT the file's prefix: appending to them would corrupt it.
  mgnify::test::dl::write_file(partial_path(target), std::string(5000, 'x'));
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::md5, mgnify::test::dl::kMedium.md5);
  const auto r = download(*rig.session, rig.url("medium.bin?ignore_range=1"), target, options);

  CHECK_FALSE(r.resumed);
  CHECK(r.bytes == mgnify::test::dl::kMedium.size);
  CHECK(r.bytes_transferred == mgnify::test::dl::kMedium.size);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("medium.bin"));
  const auto sent = rig.requests("medium.bin");
  REQUIRE(sent.size() == 1);
  CHECK(header(sent[0], "range") == "bytes=5000-");
}

TEST_CASE("a .part that already holds the whole file is finished after a 416",
          "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "small.tsv";
  mgnify::test::dl::write_file(partial_path(target), mock::mock_file("small.tsv"));
  DownloadOptions options;
  options.expected_size = mgnify::test::dl::kSmall.size;
  options.checksum = Checksum::of(HashAlgorithm::sha256, mgnify::test::dl::kSmall.sha256);
  const auto r = download(*rig.session, rig.url("small.tsv"), target, options);
  CHECK(r.bytes == mgnify::test::dl::kSmall.size);
  CHECK(r.bytes_transferred == 0);
  CHECK(r.verified_checksum.has_value());
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("small.tsv"));
  const auto sent = rig.requests("small.tsv");
  REQUIRE(sent.size() == 1);
  CHECK(header(sent[0], "range") == "bytes=1000-");
}

TEST_CASE("an existing valid file is verified, not downloaded again", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "medium.bin";
  mgnify::test::dl::write_file(target, mock::mock_file("medium.bin"));
  std::vector<DownloadProgress> seen;
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::sha256, mgnify::test::dl::kMedium.sha256);
  options.progress = [&](const DownloadProgress& p) { seen.push_back(p); };
  const auto r = download(*rig.session, rig.url("medium.bin"), target, options);

  CHECK(r.already_present);
  CHECK(r.attempts == 0);
  CHECK(r.bytes == mgnify::test::dl::kMedium.size);
  CHECK(r.bytes_transferred == 0);
  CHECK(r.verified_checksum.has_value());
  CHECK(rig.server.hits("/files/medium.bin") == 0);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].bytes_done == mgnify::test::dl::kMedium.size);
  CHECK(seen[0].total == mgnify::test::dl::kMedium.size);
}

TEST_CASE("an existing corrupt file is downloaded again", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "medium.bin";
  std::string corrupt = mock::mock_file("medium.bin");
  corrupt[777] = static_cast<char>(corrupt[777] ^ 0x01);
  mgnify::test::dl::write_file(target, corrupt);

  SECTION("detected by checksum") {
    DownloadOptions options;
    options.checksum = Checksum::of(HashAlgorithm::md5, mgnify::test::dl::kMedium.md5);
    const auto r = download(*rig.session, rig.url("medium.bin"), target, options);
    CHECK_FALSE(r.already_present);
    CHECK(r.bytes_transferred == mgnify::test::dl::kMedium.size);
  }
  SECTION("detected by size") {
    mgnify::test::dl::write_file(target, corrupt.substr(0, 1000));
    DownloadOptions options;
    options.expected_size = mgnify::test::dl::kMedium.size;
    const auto r = download(*rig.session, rig.url("medium.bin"), target, options);
    CHECK_FALSE(r.already_present);
    CHECK(r.size_verified);
  }
  SECTION("nothing to verify against: never trusted") {
    const auto r = download(*rig.session, rig.url("medium.bin"), target, {});
    CHECK_FALSE(r.already_present);
    CHECK_FALSE(r.verified_checksum.has_value());
    CHECK_FALSE(r.size_verified);
  }
  CHECK(rig.server.hits("/files/medium.bin") == 1);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("medium.bin"));
}

TEST_CASE("progress is monotonic and ends at the total", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "large.fasta";
  std::vector<DownloadProgress> seen;
  DownloadOptions options;
  options.progress = [&](const DownloadProgress& p) { seen.push_back(p); };
  SECTION("total from Content-Length") {
    download(*rig.session, rig.url("large.fasta"), target, options);
  }
  SECTION("across a resumption") {
    download(*rig.session, rig.url("large.fasta?cut=2000000"), target, options);
  }
  REQUIRE(seen.size() > 10);  // chunk by chunk, not once at the end
  for (std::size_t i = 1; i < seen.size(); ++i) {
    CHECK(seen[i].bytes_done >= seen[i - 1].bytes_done);
  }
  for (const auto& p : seen) {
    REQUIRE(p.total.has_value());
    CHECK(*p.total == mgnify::test::dl::kLarge.size);
  }
  CHECK(seen.back().bytes_done == mgnify::test::dl::kLarge.size);
}

TEST_CASE("progress without a known size ends with bytes == total", "[downloads][mock]") {
  Rig rig;  // chunked, no Content-Length, no expected size
  const auto target = rig.dir / "medium.bin";
  std::vector<DownloadProgress> seen;
  DownloadOptions options;
  options.progress = [&](const DownloadProgress& p) { seen.push_back(p); };
  download(*rig.session, rig.url("medium.bin?ignore_range=1"), target, options);
  REQUIRE(seen.size() >= 2);
  CHECK_FALSE(seen.front().total.has_value());
  CHECK(seen.back().bytes_done == mgnify::test::dl::kMedium.size);
  CHECK(seen.back().total == mgnify::test::dl::kMedium.size);
}

TEST_CASE("transient failures are retried by resuming", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "small.tsv";
  SECTION("503 then success") {
    rig.server.push_fault("/files/small.tsv", mock::Fault::status_only(503));
  }
  SECTION("429 with Retry-After then success") {
    rig.server.push_fault("/files/small.tsv", mock::Fault::throttled(std::string("1")));
  }
  SECTION("dropped connection then success") {
    rig.server.push_fault("/files/small.tsv", mock::Fault::dropped());
  }
  DownloadOptions options;
  options.checksum = Checksum::of(HashAlgorithm::md5, mgnify::test::dl::kSmall.md5);
  const auto r = download(*rig.session, rig.url("small.tsv"), target, options);
  CHECK(r.attempts == 2);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("small.tsv"));
  CHECK(rig.server.hits("/files/small.tsv") == 2);
}

TEST_CASE("attempts are bounded and the .part is kept for a later resume", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "large.fasta";
  DownloadOptions options;
  options.max_attempts = 1;
  try {
    download(*rig.session, rig.url("large.fasta?cut=1000000"), target, options);
    FAIL("expected TransportError");
  } catch (const TransportError& e) {
    CHECK(e.kind() == TransportError::Kind::receive);
    CHECK(e.attempts() == 1);
  }
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK(std::filesystem::file_size(partial_path(target)) == 1000000);

  options.checksum = Checksum::of(HashAlgorithm::md5, mgnify::test::dl::kLarge.md5);
  const auto r = download(*rig.session, rig.url("large.fasta"), target, options);
  CHECK(r.resumed);
  CHECK(r.bytes_transferred == mgnify::test::dl::kLarge.size - 1000000);
  CHECK(mgnify::test::dl::read_file(target) == mock::mock_file("large.fasta"));

  options.max_attempts = 2;
  rig.server.push_faults("/files/small.tsv", mock::Fault::status_only(503), 5);
  try {
    download(*rig.session, rig.url("small.tsv"), rig.dir / "small.tsv", options);
    FAIL("expected ServerError");
  } catch (const ServerError& e) {
    CHECK(e.status() == 503);
    CHECK(e.attempts() == 2);
  }
  CHECK(rig.server.hits("/files/small.tsv") == 2);
  CHECK_FALSE(std::filesystem::exists(rig.dir / "small.tsv"));
}

TEST_CASE("a 404 is a NotFoundError and nothing is written", "[downloads][mock]") {
  Rig rig;
  const auto target = rig.dir / "missing.tsv";
  CHECK_THROWS_AS(download(*rig.session, rig.url("missing.tsv"), target, {}), NotFoundError);
  CHECK(rig.server.hits("/files/missing.tsv") == 1);
  CHECK_FALSE(std::filesystem::exists(target));
  CHECK_FALSE(std::filesystem::exists(partial_path(target)));
}

TEST_CASE("download_many runs jobs in parallel, in order, isolating failures",
          "[downloads][mock]") {
  mgnify::test::dl::FilesRig rig;
  rig.server.set_latency(std::chrono::milliseconds(60));
  auto counting =
      std::make_shared<mgnify::test::dl::CountingTransport>(std::make_shared<CurlTransport>());
  const auto session = rig.session([&](ClientOptions& o) { o.transport = counting; });
  mgnify::test::dl::TempDir dir;

  const std::vector<KnownFile> files{mgnify::test::dl::kSmall, mgnify::test::dl::kMedium,
                                     mgnify::test::dl::kLarge, mgnify::test::dl::kEmpty};
  std::vector<DownloadJob> jobs;
  for (int copy = 0; copy < 2; ++copy) {
    for (const auto& f : files) {
      DownloadJob job;
      job.url = rig.url(f.name);
      job.path = dir / (std::to_string(copy) + "-" + f.name);
      job.options.checksum = Checksum::of(HashAlgorithm::sha256, f.sha256);
      job.options.expected_size = f.size;
      jobs.push_back(job);
    }
  }
  DownloadJob failing;
  failing.url = rig.url("does-not-exist.bin");
  failing.path = dir / "does-not-exist.bin";
  jobs.insert(jobs.begin() + 3, failing);

  std::vector<BatchProgress> seen;
  std::vector<std::size_t> files_done;
  BatchOptions batch;
  batch.concurrency = 3;
  batch.progress = [&](std::size_t done, std::size_t total) {
    CHECK(total == jobs.size());
    files_done.push_back(done);
  };
  // job_finished runs on the downloading threads, where Catch cannot check:
  // what it saw is kept and checked below.
  std::mutex finished_mutex;
  std::multimap<std::size_t, std::pair<DownloadResult, bool>> finished;
  const auto results = download_many(
      *session, jobs, batch, [&](const BatchProgress& p) { seen.push_back(p); },
      [&](std::size_t job, const DownloadResult& r) {
        const std::string& url = jobs.at(job).url;
        const bool complete =
            mgnify::test::dl::read_file(r.path) == mock::mock_file(url.substr(url.rfind('/') + 1));
        const std::lock_guard<std::mutex> lock(finished_mutex);
        finished.emplace(job, std::make_pair(r, complete));
      });

  REQUIRE(results.size() == jobs.size());
  // job_finished: once per job that succeeded, with its own index and result,
  // the file complete in place when it is called.
  CHECK(finished.size() == jobs.size() - 1);
  CHECK(finished.count(3) == 0);
  for (const auto& [job, seen_then] : finished) {
    CAPTURE(job);
    CHECK(finished.count(job) == 1);
    CHECK(seen_then.first.path == jobs.at(job).path);
    CHECK(seen_then.second);
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(i, jobs[i].url);
    if (i == 3) {
      REQUIRE_FALSE(results[i].ok());
      CHECK(results[i].error_as<NotFoundError>() != nullptr);
      continue;
    }
    REQUIRE(results[i].ok());
    CHECK(results[i]->path == jobs[i].path);
    const std::string name = jobs[i].url.substr(jobs[i].url.rfind('/') + 1);
    CHECK(mgnify::test::dl::read_file(jobs[i].path) == mock::mock_file(name));
  }
  CHECK(counting->max_in_flight() >= 2);
  CHECK(counting->max_in_flight() <= 3);

  std::uint64_t total = 0;
  for (const auto& f : files) total += 2 * f.size;
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back().files_total == jobs.size());
  CHECK(seen.back().files_done == jobs.size());
  CHECK(seen.back().files_failed == 1);
  CHECK(seen.back().bytes_done == total);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    CHECK(seen[i].files_done >= seen[i - 1].files_done);
    CHECK(seen[i].bytes_done >= seen[i - 1].bytes_done);
  }
  // One call per finished file, failed or not, counting up.
  REQUIRE(files_done.size() == jobs.size());
  for (std::size_t i = 0; i < files_done.size(); ++i) CHECK(files_done[i] == i + 1);
}

TEST_CASE("download_many rejects bad jobs before any request", "[downloads][mock]") {
  Rig rig;
  std::vector<DownloadJob> jobs(2);
  jobs[0].url = rig.url("small.tsv");
  jobs[0].path = rig.dir / "same.tsv";
  jobs[1].url = rig.url("medium.bin");
  jobs[1].path = rig.dir / "same.tsv";
  CHECK_THROWS_AS(download_many(*rig.session, jobs), InvalidArgument);
  jobs[1].path = rig.dir / "other.bin";
  jobs[1].url = "ftp://files.invalid/x";
  CHECK_THROWS_AS(download_many(*rig.session, jobs), InvalidArgument);
  // Its options are checked as download() checks them, before the first job starts.
  jobs[1].url = rig.url("medium.bin");
  jobs[1].options.max_attempts = -1;
  CHECK_THROWS_AS(download_many(*rig.session, jobs), InvalidArgument);
  CHECK_FALSE(std::filesystem::exists(jobs[0].path));
  CHECK(rig.server.requests().empty());
}
