#pragma once

// Shared by the download tests: a scratch directory that removes itself, pinned
// digests of the mock's files, session options that keep retries instant, and
// the rig of the mock's /files routes.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "files/files.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/options.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mock_server.hpp"
#include "support/rig.hpp"

namespace mgnify::test::dl {

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("mgnify-downloads-" + std::to_string(rd()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

/// Digests of the mock's files, computed once with md5sum, sha1sum and sha256sum
/// (not with the SDK's own hashing, which is what is under test).
struct KnownFile {
  const char* name;
  std::uint64_t size;
  const char* md5;
  const char* sha1;
  const char* sha256;
};
inline constexpr KnownFile kSmall{
    "small.tsv", 1000, "02befd56bd24a3acceb61307057ac8a7",
    "17aa0d7e555ac583ac14aad55a54e01d13910a2b",
    "da1032c125a74facd964653e79bebaf5aff0835dbea77781ba5b4cb7947e1712"};
inline constexpr KnownFile kMedium{
    "medium.bin", 200000, "e6bb054478c3c4df09f579043f1a071b",
    "ff47df4a1f3050e83ae43092fb04d9186f69c982",
    "e81c8cb1ab0a215f2085ada76c62f471659e66d26bf0064a174de696d712df7f"};
inline constexpr KnownFile kLarge{
    "large.fasta", 3145851, "fdab4b37192f14b20af7c27df9c005e6",
    "2bd73c8763fcdb2cd4777f6a067937cc665943ed",
    "db5427beb01f4187aa28706da6e19e0690239094340dd8add16a552059a912d2"};
inline constexpr KnownFile kEmpty{
    "empty.txt", 0, "d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"};

/// Backoffs short enough for a test that forgets the fake clock, a timeout long enough
/// for the large file.
inline void tune_for_files(mgnify::ClientOptions& o) {
  o.retry.initial_backoff = std::chrono::milliseconds(10);
  o.retry.max_backoff = std::chrono::milliseconds(40);
  o.request_timeout = std::chrono::milliseconds(10'000);
}

/// Fast, deterministic retries: the fake clock records backoff sleeps instead of sleeping.
inline mgnify::ClientOptions fast_options() {
  mgnify::ClientOptions o;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.clock = std::make_shared<mgnify::testing::FakeClock>();
  tune_for_files(o);
  return o;
}

/// The mock's /files routes, reached with a bare session (rig.session()).
struct FilesService {
  static constexpr const char* kPrefix = mgnify::mock::kFilesPrefix;
  static constexpr bool kFakeClock = true;
  static void register_routes(mgnify::mock::MockServer& server) {
    mgnify::mock::register_file_routes(server);
  }
  static std::string base_url(const mgnify::mock::MockServer& server) { return server.origin(); }
  static void tune(mgnify::ClientOptions& o) { tune_for_files(o); }
};

using FilesRig = ServiceRig<FilesService>;

/// Wraps a transport and records how many requests were in flight at once.
class CountingTransport final : public mgnify::http::Transport {
 public:
  explicit CountingTransport(std::shared_ptr<mgnify::http::Transport> inner)
      : inner_(std::move(inner)) {}
  mgnify::http::Response send(const mgnify::http::Request& request) override {
    const int now = ++in_flight_;
    int seen = max_in_flight_.load();
    while (now > seen && !max_in_flight_.compare_exchange_weak(seen, now)) {
    }
    try {
      auto r = inner_->send(request);
      --in_flight_;
      return r;
    } catch (...) {
      --in_flight_;
      throw;
    }
  }
  int max_in_flight() const noexcept { return max_in_flight_.load(); }

 private:
  std::shared_ptr<mgnify::http::Transport> inner_;
  std::atomic<int> in_flight_{0};
  std::atomic<int> max_in_flight_{0};
};

}  // namespace mgnify::test::dl
