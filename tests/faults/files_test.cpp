// What a hostile server, or a hostile neighbour in the download directory, can
// make a download do to local files: a planted link at `<path>.part` is never
// followed, a .part swapped mid-transfer is never renamed onto the
// destination, an old .part is never spliced onto a changed remote file, a
// body never grows past its cap, and batch jobs never share temporary files.

#include <httplib.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "downloads/download_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mock_server.hpp"

namespace files_test {

namespace fs = std::filesystem;
using mgnify::mock::MockServer;

std::string pattern(std::size_t size, char first) {
  std::string s(size, '\0');
  for (std::size_t i = 0; i < size; ++i)
    s[i] = static_cast<char>(first + static_cast<char>(i % 23));
  return s;
}

std::string request_header(const mgnify::mock::RecordedRequest& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

// Serves one file at /f whose content and ETag the test can change between
// calls, like a remote file replaced by a new release. Range is honoured as a
// careful server does: a 206 only when If-Range is absent or names the current
// version. Bodies are chunked, so httplib leaves the ranges to this handler.
class VersionedFile {
 public:
  VersionedFile() {
    server_.server().Get("/f", [this](const httplib::Request& req, httplib::Response& res) {
      std::string body;
      std::string etag;
      std::optional<std::size_t> cut;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        body = body_;
        etag = etag_;
        cut = cut_;
        cut_.reset();
      }
      res.set_header("ETag", etag);
      std::size_t first = 0;
      const std::string range = req.get_header_value("Range");
      if (range.rfind("bytes=", 0) == 0 && range.back() == '-') {
        first = static_cast<std::size_t>(std::stoull(range.substr(6, range.size() - 7)));
        const std::string if_range = req.get_header_value("If-Range");
        if (!if_range.empty() && if_range != etag) first = 0;
      }
      if (first >= body.size() && first > 0) {
        res.status = 416;
        res.set_header("Content-Range", "bytes */" + std::to_string(body.size()));
        return;
      }
      res.status = first > 0 ? 206 : 200;
      if (first > 0) {
        res.set_header("Content-Range", "bytes " + std::to_string(first) + "-" +
                                            std::to_string(body.size() - 1) + "/" +
                                            std::to_string(body.size()));
      }
      const std::size_t end = cut ? std::min(*cut, body.size()) : body.size();
      auto shared = std::make_shared<const std::string>(std::move(body));
      res.set_chunked_content_provider(
          "application/octet-stream",
          [shared, first, end, cut](std::size_t offset, httplib::DataSink& sink) {
            const std::size_t at = first + offset;
            if (at >= end) {
              if (cut) return false;  // the connection closes mid-body
              sink.done();
              return true;
            }
            return sink.write(shared->data() + at, std::min<std::size_t>(16 * 1024, end - at));
          });
    });
    server_.start();
  }

  void set(std::string body, std::string etag) {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = std::move(body);
    etag_ = std::move(etag);
  }
  /// The next response stops after this many bytes of the file.
  void cut_next_at(std::size_t byte) {
    std::lock_guard<std::mutex> lock(mutex_);
    cut_ = byte;
  }

  std::string url() const { return server_.origin() + "/f"; }
  MockServer& server() { return server_; }

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o = mgnify::test::dl::fast_options();
    o.retry.max_attempts = 3;
    return o;
  }

 private:
  MockServer server_;
  std::mutex mutex_;
  std::string body_;
  std::string etag_;
  std::optional<std::size_t> cut_;
};

}  // namespace files_test

using files_test::VersionedFile;

TEST_CASE("files: whatever is planted at <path>.part is refused and never followed",
          "[faults][files]") {
  namespace fs = std::filesystem;
  VersionedFile remote;
  remote.set(files_test::pattern(50000, 'a'), "\"v1\"");
  mgnify::http::Session session(mgnify::with_default_transport(remote.options()),
                                remote.server().origin());
  mgnify::test::dl::TempDir dir;
  const auto target = dir / "table.tsv";
  const auto part = mgnify::files::partial_path(target);
  const auto victim = dir / "victim.txt";

  auto expect_refused = [&](const mgnify::files::DownloadOptions& options) {
    bool refused = false;
    try {
      mgnify::files::download(session, remote.url(), target, options);
    } catch (const mgnify::FileError& e) {
      refused = true;
      CHECK(e.path() == part);
    }
    CHECK(refused);
    CHECK_FALSE(fs::exists(fs::symlink_status(target)));
  };

  SECTION("a symlink to an existing file") {
    mgnify::test::dl::write_file(victim, "precious");
    fs::create_symlink(victim, part);
    expect_refused({});
    CHECK(fs::file_size(victim) == 8);
    CHECK((mgnify::test::dl::read_file(victim) == "precious"));
    CHECK(fs::is_symlink(part));
  }
  SECTION("a dangling symlink") {
    fs::create_symlink(victim, part);
    expect_refused({});
    CHECK_FALSE(fs::exists(fs::symlink_status(victim)));
  }
  SECTION("a symlink with resume = false") {
    mgnify::test::dl::write_file(victim, "precious");
    fs::create_symlink(victim, part);
    mgnify::files::DownloadOptions options;
    options.resume = false;
    expect_refused(options);
    CHECK(fs::file_size(victim) == 8);
    CHECK((mgnify::test::dl::read_file(victim) == "precious"));
  }
  SECTION("a fifo") {
    REQUIRE(::mkfifo(part.c_str(), 0600) == 0);
    expect_refused({});
  }
  SECTION("a symlink at the saved validator of a regular .part") {
    mgnify::test::dl::write_file(part, "abc");
    mgnify::test::dl::write_file(victim, "\"v1\"\n");
    fs::create_symlink(victim, mgnify::files::validator_path(target));
    bool refused = false;
    try {
      mgnify::files::download(session, remote.url(), target, {});
    } catch (const mgnify::FileError& e) {
      refused = true;
      CHECK(e.path() == mgnify::files::validator_path(target));
    }
    CHECK(refused);
    CHECK(mgnify::test::dl::read_file(victim) == "\"v1\"\n");
  }
  SECTION("a directory") {
    fs::create_directory(part);
    expect_refused({});
    CHECK(fs::is_directory(part));
  }
  CHECK(remote.server().requests().empty());
}

TEST_CASE("files: a .part replaced during the transfer is not renamed onto the destination",
          "[faults][files]") {
  namespace fs = std::filesystem;
  VersionedFile remote;
  const std::string body = files_test::pattern(200000, 'a');
  remote.set(body, "\"v1\"");
  mgnify::http::Session session(mgnify::with_default_transport(remote.options()),
                                remote.server().origin());
  mgnify::test::dl::TempDir dir;
  const auto target = dir / "table.tsv";
  const auto part = mgnify::files::partial_path(target);

  mgnify::files::DownloadOptions options;
  options.checksum = mgnify::files::Checksum::of(
      mgnify::files::HashAlgorithm::sha256,
      mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::sha256, body));
  bool swapped = false;
  options.progress = [&](const mgnify::files::DownloadProgress& p) {
    if (swapped || p.bytes_done == 0) return;
    swapped = true;
    // Someone with write access to the directory moves our file away and puts theirs in its place.
    fs::rename(part, dir / "moved-away");
    mgnify::test::dl::write_file(part, "planted by someone else");
  };
  bool refused = false;
  try {
    mgnify::files::download(session, remote.url(), target, options);
  } catch (const mgnify::FileError& e) {
    refused = true;
    CHECK(e.path() == part);
  }
  CHECK(swapped);
  CHECK(refused);
  INFO("the destination holds: " +
       (fs::exists(target) ? mgnify::test::dl::read_file(target).substr(0, 40) : std::string("nothing")));
  CHECK_FALSE(fs::exists(target));
  CHECK(mgnify::test::dl::read_file(part) == "planted by someone else");
}

TEST_CASE("files: a .part from an earlier run is never spliced onto a changed remote file",
          "[faults][files]") {
  namespace fs = std::filesystem;
  VersionedFile remote;
  const std::string old_release = files_test::pattern(100000, 'a');
  const std::string new_release = files_test::pattern(100000, 'A');
  remote.set(old_release, "\"v1\"");
  mgnify::http::Session session(mgnify::with_default_transport(remote.options()),
                                remote.server().origin());
  mgnify::test::dl::TempDir dir;
  const auto target = dir / "table.tsv";
  const auto part = mgnify::files::partial_path(target);
  const std::size_t kept = 30000;

  // The earlier run: its transfer is cut and it gives up, keeping the .part.
  auto earlier_run = [&] {
    remote.cut_next_at(kept);
    mgnify::files::DownloadOptions once;
    once.max_attempts = 1;
    CHECK_THROWS_AS(mgnify::files::download(session, remote.url(), target, once),
                    mgnify::TransportError);
    REQUIRE(fs::file_size(part) == kept);
    remote.server().clear_requests();
  };

  SECTION("the remote file changed: the first resumed request carries If-Range") {
    earlier_run();
    remote.set(new_release, "\"v2\"");
    const auto r = mgnify::files::download(session, remote.url(), target, {});
    CHECK(fs::file_size(target) == new_release.size());
    CHECK((mgnify::test::dl::read_file(target) == new_release));
    CHECK_FALSE(r.resumed);
    const auto sent = remote.server().requests();
    REQUIRE(sent.size() == 1);
    CHECK(files_test::request_header(sent[0], "range") == "bytes=" + std::to_string(kept) + "-");
    CHECK(files_test::request_header(sent[0], "if-range") == "\"v1\"");
    CHECK_FALSE(fs::exists(part));
    CHECK_FALSE(fs::exists(mgnify::files::validator_path(target)));
  }
  SECTION("the remote file is unchanged: the .part is resumed") {
    earlier_run();
    const auto r = mgnify::files::download(session, remote.url(), target, {});
    CHECK(fs::file_size(target) == old_release.size());
    CHECK((mgnify::test::dl::read_file(target) == old_release));
    CHECK(r.resumed);
    CHECK(r.bytes_transferred == old_release.size() - kept);
  }
  SECTION("no validator and nothing to verify with: the file restarts from byte 0") {
    mgnify::test::dl::write_file(part, old_release.substr(0, kept));
    remote.set(new_release, "\"v2\"");
    const auto r = mgnify::files::download(session, remote.url(), target, {});
    CHECK(fs::file_size(target) == new_release.size());
    CHECK((mgnify::test::dl::read_file(target) == new_release));
    CHECK_FALSE(r.resumed);
    const auto sent = remote.server().requests();
    REQUIRE(sent.size() == 1);
    CHECK(files_test::request_header(sent[0], "range").empty());
  }
  SECTION("no validator but a checksum: a wrong splice is caught and the file restarts") {
    mgnify::test::dl::write_file(part, old_release.substr(0, kept));
    remote.set(new_release, "\"v2\"");
    mgnify::files::DownloadOptions options;
    options.checksum = mgnify::files::Checksum::of(
        mgnify::files::HashAlgorithm::md5,
        mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::md5, new_release));
    const auto r = mgnify::files::download(session, remote.url(), target, options);
    CHECK(fs::file_size(target) == new_release.size());
    CHECK((mgnify::test::dl::read_file(target) == new_release));
    CHECK(r.attempts == 2);
    CHECK(r.verified_checksum.has_value());
    const auto sent = remote.server().requests();
    REQUIRE(sent.size() == 2);
    CHECK(files_test::request_header(sent[0], "range") == "bytes=" + std::to_string(kept) + "-");
    CHECK(files_test::request_header(sent[1], "range").empty());
  }
}

TEST_CASE("files: a body is stopped at its byte cap and leaves nothing behind", "[faults][files]") {
  namespace fs = std::filesystem;
  mgnify::mock::MockServer server;
  constexpr std::size_t kServed = 8u << 20;  // 8 MB, far more than the cap
  constexpr std::size_t kCap = 1u << 20;
  auto chunk = std::make_shared<const std::string>(files_test::pattern(64 * 1024, 'a'));
  auto endless = [chunk](int status, std::string content_range) {
    return [chunk, status, content_range](const httplib::Request&, httplib::Response& res) {
      res.status = status;
      if (!content_range.empty()) res.set_header("Content-Range", content_range);
      res.set_chunked_content_provider("application/octet-stream",
                                       [chunk](std::size_t offset, httplib::DataSink& sink) {
                                         if (offset >= kServed) {
                                           sink.done();
                                           return true;
                                         }
                                         return sink.write(chunk->data(), chunk->size());
                                       });
    };
  };
  server.server().Get("/endless", endless(200, ""));
  // A 206 that says the file has 1000 bytes, then keeps sending.
  server.server().Get("/lying", endless(206, "bytes 0-999/1000"));
  server.start();
  mgnify::ClientOptions o = mgnify::test::dl::fast_options();
  o.retry.max_attempts = 2;
  mgnify::http::Session session(mgnify::with_default_transport(o), server.origin());
  mgnify::test::dl::TempDir dir;
  const auto target = dir / "big.bin";

  std::uint64_t most = 0;
  mgnify::files::DownloadOptions options;
  options.progress = [&](const mgnify::files::DownloadProgress& p) {
    most = std::max(most, p.bytes_done);
  };
  std::uint64_t limit = 0;
  SECTION("more than max_bytes") {
    options.max_bytes = kCap;
    limit = kCap;
    try {
      mgnify::files::download(session, server.origin() + "/endless", target, options);
      FAIL("expected SizeLimitError");
    } catch (const mgnify::SizeLimitError& e) {
      CHECK(e.limit() == kCap);
      CHECK(e.path() == target);
    }
  }
  SECTION("a Content-Range total above max_bytes, refused before the body") {
    options.max_bytes = 999;
    try {
      mgnify::files::download(session, server.origin() + "/lying", target, options);
      FAIL("expected SizeLimitError");
    } catch (const mgnify::SizeLimitError& e) {
      CHECK(e.limit() == 999);
    }
  }
  SECTION("more than the server's own Content-Range total") {
    limit = 1000;
    try {
      mgnify::files::download(session, server.origin() + "/lying", target, options);
      FAIL("expected SizeLimitError");
    } catch (const mgnify::SizeLimitError& e) {
      CHECK(e.limit() == 1000);
    }
  }
  CHECK(most <= limit);
  CHECK_FALSE(fs::exists(target));
  CHECK_FALSE(fs::exists(mgnify::files::partial_path(target)));
  // Not retried: the same server would send the same bytes again.
  CHECK(server.requests().size() == 1);
}

TEST_CASE("files: download_many refuses jobs whose files would overlap, before any request",
          "[faults][files]") {
  VersionedFile remote;
  remote.set(files_test::pattern(1000, 'a'), "\"v1\"");
  mgnify::http::Session session(mgnify::with_default_transport(remote.options()),
                                remote.server().origin());
  mgnify::test::dl::TempDir dir;
  std::vector<mgnify::files::DownloadJob> jobs(2);
  jobs[0].url = remote.url();
  jobs[1].url = remote.url();
  // Destinations that would share a file: another job's .part (listed either way
  // round) or validator file, and names that differ only in case.
  const std::pair<const char*, const char*> overlapping[] = {{"a", "a.part"},
                                                             {"a.part", "a"},
                                                             {"a", "a.part.validator"},
                                                             {"Table.tsv", "table.TSV"},
                                                             {"a", "A.PART"}};
  for (const auto& [first, second] : overlapping) {
    INFO(first << " and " << second);
    jobs[0].path = dir / first;
    jobs[1].path = dir / second;
    try {
      mgnify::files::download_many(session, jobs);
      FAIL("expected InvalidArgument");
    } catch (const mgnify::InvalidArgument& e) {
      const std::string what = e.what();
      CHECK(what.find(jobs[0].path.filename().string()) != std::string::npos);
      CHECK(what.find(jobs[1].path.filename().string()) != std::string::npos);
    }
  }
  CHECK(remote.server().requests().empty());
}
