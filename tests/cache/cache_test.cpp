// The on-disk response cache (ClientOptions::cache) through the real session
// and libcurl against the mock: what is stored, what is answered without a
// request, and what happens when the directory is shared, damaged or full.

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/cache/response_cache.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock/all_services.hpp"
#include "mock/mock_server.hpp"
#include "mock/v2/v2_mock.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using mgnify::CacheOptions;
using mgnify::ResponseCache;

namespace {

mgnify::mock::MockServer& cache_mock() {
  static mgnify::mock::MockServer& server = mgnify::mock::start_all_services();
  return server;
}

class CacheDir {
 public:
  CacheDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() /
            ("mgnify-cache-test-" + std::to_string(rd()) + std::to_string(rd()));
  }
  ~CacheDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  CacheDir(const CacheDir&) = delete;
  CacheDir& operator=(const CacheDir&) = delete;
  const fs::path& path() const { return path_; }

  std::vector<fs::path> files_ending(const std::string& suffix) const {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(path_, ec)) {
      const std::string name = f.path().filename().string();
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        found.push_back(f.path());
      }
    }
    return found;
  }
  std::vector<fs::path> entries() const { return files_ending(".entry"); }
  std::vector<fs::path> all_files() const { return files_ending(""); }

 private:
  fs::path path_;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::shared_ptr<ResponseCache> make_cache(const CacheDir& dir, CacheOptions options = {}) {
  options.directory = dir.path();
  return std::make_shared<ResponseCache>(std::move(options));
}

mgnify::ClientOptions cached_options(const std::string& base_url,
                                     std::shared_ptr<ResponseCache> cache,
                                     std::shared_ptr<mgnify::http::Clock> clock = nullptr) {
  mgnify::ClientOptions o;
  o.base_url = base_url;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.retry.max_attempts = 2;
  o.retry.initial_backoff = std::chrono::milliseconds(1);
  o.retry.max_backoff = std::chrono::milliseconds(2);
  o.read_ahead = false;
  o.cache = std::move(cache);
  o.clock = std::move(clock);
  return o;
}

std::string v2_study_path(const std::string& accession) {
  return std::string(mgnify::mock::kV2Prefix) + "/studies/" + accession;
}
std::string v2_study_url(const std::string& accession) {
  return cache_mock().origin() + v2_study_path(accession);
}

std::size_t requests_seen() { return cache_mock().requests().size(); }

}  // namespace

TEST_CASE("a cached response is answered without a request, by all three clients",
          "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  auto& mock = cache_mock();
  mock.clear_requests();

  mgnify::proteins::ProteinClient proteins(cached_options(mock.proteins_url(), cache));
  const auto protein = proteins.get("MGYP000000000013");
  CHECK(requests_seen() == 1);
  CHECK(nlohmann::json(proteins.get("MGYP000000000013")) == nlohmann::json(protein));
  CHECK(requests_seen() == 1);

  mgnify::v1::LegacyClient legacy(cached_options(mock.v1_url(), cache));
  const auto study = legacy.study("MGYS00000001");
  CHECK(requests_seen() == 2);
  CHECK(nlohmann::json(legacy.study("MGYS00000001")) == nlohmann::json(study));
  CHECK(requests_seen() == 2);

  mgnify::v2::V2Client v2(cached_options(mock.v2_url(), cache));
  const auto detail = v2.study("MGYS00000003");
  CHECK(requests_seen() == 3);
  CHECK(nlohmann::json(v2.study("MGYS00000003")) == nlohmann::json(detail));
  CHECK(requests_seen() == 3);

  const auto stats = cache->stats();
  CHECK(stats.hits == 3);
  CHECK(stats.misses == 3);
  CHECK(stats.stores == 3);
  CHECK(stats.evictions == 0);
  CHECK(stats.damaged == 0);
  CHECK(dir.entries().size() == 3);

  cache->clear();
  CHECK(dir.entries().empty());
  v2.study("MGYS00000003");
  CHECK(requests_seen() == 4);
}

TEST_CASE("a hit is marked, keeps its body and URL, and never waits for the rate limit",
          "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  auto options = cached_options(cache_mock().v2_url(), cache, clock);
  options.rate_limit.enabled = true;
  options.rate_limit.adaptive = false;
  options.rate_limit.requests_per_second = 1;
  options.rate_limit.burst = 1;
  mgnify::http::Session session(mgnify::with_default_transport(options), "");
  cache_mock().clear_requests();

  const std::string url = v2_study_url("MGYS00000004");
  const auto first = session.get(url);
  CHECK_FALSE(first.from_cache);
  for (int i = 0; i < 5; ++i) {
    const auto again = session.get(url);
    CHECK(again.from_cache);
    CHECK(again.status == 200);
    CHECK(again.body == first.body);
    CHECK(again.url == first.url);
    CHECK(again.headers.get("Content-Type") == first.headers.get("Content-Type"));
  }
  CHECK(requests_seen() == 1);
  // One token a second: five more requests would have slept about four seconds.
  CHECK(clock->total_slept() == std::chrono::nanoseconds::zero());
  CHECK(cache->stats().hits == 5);
}

TEST_CASE("query order does not matter to the key; Accept does", "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  cache_mock().clear_requests();

  const std::string base = cache_mock().v2_url() + "/studies/";
  const auto one = session.get(base + "?page=2&page_size=5");
  const auto two = session.get(base + "?page_size=5&page=2");
  CHECK(two.from_cache);
  CHECK(two.body == one.body);
  CHECK(requests_seen() == 1);

  mgnify::http::Request other_accept;
  other_accept.url = base + "?page=2&page_size=5";
  other_accept.headers.set("Accept", "application/json, text/plain");
  CHECK_FALSE(session.execute(other_accept).from_cache);
  CHECK(requests_seen() == 2);
  CHECK(dir.entries().size() == 2);
}

TEST_CASE("an entry older than the TTL is fetched again (session clock)", "[cache][integration]") {
  CacheDir dir;
  CacheOptions options;
  options.ttl = std::chrono::seconds(60);
  auto cache = make_cache(dir, options);
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  mgnify::v2::V2Client client(cached_options(cache_mock().v2_url(), cache, clock));
  const std::string path = v2_study_path("MGYS00000005");
  cache_mock().clear_requests();

  client.study("MGYS00000005");
  clock->advance(std::chrono::seconds(59));
  client.study("MGYS00000005");
  CHECK(cache_mock().hits(path) == 1);
  clock->advance(std::chrono::seconds(2));
  client.study("MGYS00000005");
  CHECK(cache_mock().hits(path) == 2);
  // The refetch is stored afresh, so the TTL counts from it.
  clock->advance(std::chrono::seconds(30));
  client.study("MGYS00000005");
  CHECK(cache_mock().hits(path) == 2);

  const auto stats = cache->stats();
  CHECK(stats.expired == 1);
  CHECK(stats.misses == 2);
  CHECK(stats.hits == 2);
  CHECK(stats.stores == 2);
}

TEST_CASE("over the size bound, the least recently used entry is evicted", "[cache][integration]") {
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  const std::vector<std::string> studies = {"MGYS00000006", "MGYS00000007", "MGYS00000008"};
  // Entry sizes, measured with an unbounded cache.
  std::vector<std::uint64_t> sizes;
  {
    CacheDir probe;
    mgnify::http::Session session(mgnify::with_default_transport(cached_options(
                                      cache_mock().v2_url(), make_cache(probe), clock)),
                                  "");
    for (const auto& s : studies) {
      session.get(v2_study_url(s));
      std::uint64_t total = 0;
      for (const auto& e : probe.entries()) total += fs::file_size(e);
      sizes.push_back(total - std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0}));
    }
  }
  REQUIRE(sizes.size() == 3);
  CacheDir dir;
  CacheOptions options;
  // Room for the first and third entry but not all three.
  options.max_bytes = sizes[0] + sizes[2] + sizes[1] / 2;
  auto cache = make_cache(dir, options);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache, clock)), "");
  cache_mock().clear_requests();

  session.get(v2_study_url(studies[0]));
  clock->advance(std::chrono::seconds(1));
  session.get(v2_study_url(studies[1]));
  clock->advance(std::chrono::seconds(1));
  CHECK(session.get(v2_study_url(studies[0])).from_cache);  // now the most recently used
  clock->advance(std::chrono::seconds(1));
  session.get(v2_study_url(studies[2]));
  CHECK(cache->stats().evictions == 1);
  CHECK(dir.entries().size() == 2);

  const std::size_t before = requests_seen();
  CHECK(session.get(v2_study_url(studies[0])).from_cache);
  CHECK(session.get(v2_study_url(studies[2])).from_cache);
  CHECK(requests_seen() == before);
  CHECK_FALSE(session.get(v2_study_url(studies[1])).from_cache);
  CHECK(requests_seen() == before + 1);
}

TEST_CASE("a damaged entry is a miss that is refetched and replaced, never a crash",
          "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  const std::string url = v2_study_url("MGYS00000009");
  const std::string path = v2_study_path("MGYS00000009");
  cache_mock().clear_requests();
  const std::string body = session.get(url).body;
  REQUIRE(dir.entries().size() == 1);
  const fs::path entry = dir.entries().front();
  const std::string intact = read_all(entry);

  const auto write = [&](const std::string& bytes) {
    std::ofstream out(entry, std::ios::binary | std::ios::trunc);
    out << bytes;
  };
  std::string garbled = intact;
  garbled[garbled.size() / 2] = static_cast<char>(garbled[garbled.size() / 2] ^ 0x20);
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"truncated to half", intact.substr(0, intact.size() / 2)},
      {"one byte flipped", garbled},
      {"empty", ""},
      {"missing its digest", intact.substr(0, intact.size() - 64)},
      {"not an entry at all", std::string(300, '\xff')},
  };
  std::size_t fetches = 1;
  for (const auto& [what, bytes] : damages) {
    INFO(what);
    write(bytes);
    const auto refetched = session.get(url);
    ++fetches;
    CHECK_FALSE(refetched.from_cache);
    CHECK(refetched.body == body);
    CHECK(cache_mock().hits(path) == fetches);
    CHECK(read_all(entry) != bytes);
    const auto hit = session.get(url);
    CHECK(hit.from_cache);
    CHECK(hit.body == body);
  }
  CHECK(cache->stats().damaged == damages.size());
}

TEST_CASE("another token never receives a response stored for the first",
          "[cache][integration][auth]") {
  namespace data = mgnify::mock::v2data;
  CacheDir dir;
  CacheOptions options;
  options.store_authenticated = true;
  auto cache = make_cache(dir, options);
  const std::string private_study = data::kPrivateStudies.front();
  const std::string path = v2_study_path(private_study);
  cache_mock().clear_requests();

  auto owner_options = cached_options(cache_mock().v2_url(), cache);
  owner_options.token = data::kValidToken;
  mgnify::v2::V2Client owner(owner_options);
  const auto seen = owner.study(private_study);
  CHECK(seen.accession == private_study);
  CHECK(owner.study(private_study).accession == private_study);
  CHECK(cache_mock().hits(path) == 1);

  auto other_options = cached_options(cache_mock().v2_url(), cache);
  other_options.token = data::kOtherUserToken;
  mgnify::v2::V2Client other(other_options);
  CHECK_THROWS_AS(other.study(private_study), mgnify::NotFoundError);
  CHECK(cache_mock().hits(path) == 2);

  mgnify::v2::V2Client anonymous(cached_options(cache_mock().v2_url(), cache));
  CHECK_THROWS_AS(anonymous.study(private_study), mgnify::NotFoundError);
  CHECK(cache_mock().hits(path) == 3);

  // The token is in no file name and no file.
  for (const auto& file : dir.all_files()) {
    CHECK(file.filename().string().find(data::kValidToken) == std::string::npos);
    CHECK(read_all(file).find(data::kValidToken) == std::string::npos);
  }
  CHECK(cache->stats().hits == 1);
}

TEST_CASE("authenticated responses are not stored unless asked for", "[cache][integration][auth]") {
  namespace data = mgnify::mock::v2data;
  CacheDir dir;
  auto cache = make_cache(dir);
  cache_mock().clear_requests();

  auto with_token = cached_options(cache_mock().v2_url(), cache);
  with_token.token = data::kValidToken;
  mgnify::v2::V2Client client(with_token);
  client.study("MGYS00000010");
  client.study("MGYS00000010");
  CHECK(cache_mock().hits(v2_study_path("MGYS00000010")) == 2);

  auto with_key = cached_options(cache_mock().v2_url(), cache);
  with_key.extra_headers.set("X-Api-Key", "a-secret-key");
  mgnify::http::Session keyed(mgnify::with_default_transport(with_key), "");
  keyed.get(v2_study_url("MGYS00000011"));
  keyed.get(v2_study_url("MGYS00000011"));
  CHECK(cache_mock().hits(v2_study_path("MGYS00000011")) == 2);

  // A credential in the URL is never written, even when authenticated
  // responses may be stored.
  CacheOptions opted;
  opted.store_authenticated = true;
  CacheDir opted_dir;
  mgnify::http::Session in_url(mgnify::with_default_transport(cached_options(
                                   cache_mock().v2_url(), make_cache(opted_dir, opted))),
                               "");
  in_url.get(v2_study_url("MGYS00000012") + "?api_key=a-secret-key");
  in_url.get(v2_study_url("MGYS00000012") + "?api_key=a-secret-key");
  CHECK(cache_mock().hits(v2_study_path("MGYS00000012")) == 2);
  CHECK(opted_dir.entries().empty());

  CHECK(dir.entries().empty());
  CHECK(cache->stats().stores == 0);
  CHECK(cache->stats().misses == 0);
}

TEST_CASE("errors, other 2xx statuses, POSTs and streamed bodies are not stored",
          "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  auto& mock = cache_mock();
  const std::string path = v2_study_path("MGYS00000013");
  const std::string url = v2_study_url("MGYS00000013");
  mock.clear_requests();

  mock.push_fault(path, mgnify::mock::Fault::status_only(404));
  CHECK_THROWS_AS(session.get(url), mgnify::NotFoundError);
  mgnify::mock::Fault partial = mgnify::mock::Fault::status_only(203, "{\"accession\": \"x\"}");
  mock.push_fault(path, partial);
  CHECK(session.get(url).status == 203);
  CHECK(dir.entries().empty());
  // A 503 retried into a 200: the 200 is stored.
  mock.push_fault(path, mgnify::mock::Fault::status_only(503));
  CHECK_FALSE(session.get(url).from_cache);
  CHECK(mock.hits(path) == 4);
  CHECK(session.get(url).from_cache);
  CHECK(mock.hits(path) == 4);
  CHECK(cache->stats().stores == 1);

  mgnify::http::Request streamed;
  streamed.url = v2_study_url("MGYS00000014");
  std::string received;
  streamed.body_sink = [&](const mgnify::http::Response&, const char* data, std::size_t size) {
    received.append(data, size);
    return true;
  };
  session.execute(streamed);
  session.execute(streamed);
  CHECK(mock.hits(v2_study_path("MGYS00000014")) == 2);
  CHECK_FALSE(received.empty());
  CHECK(cache->stats().stores == 1);
}

TEST_CASE("a redirected response is stored with its final URL and hops", "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  auto& mock = cache_mock();
  mock.clear_requests();
  const std::string from = v2_study_url("MGYS00000015");
  const std::string to = v2_study_url("MGYS00000016");
  mock.push_fault(v2_study_path("MGYS00000015"), mgnify::mock::Fault::redirect(302, to));

  const auto fetched = session.get(from);
  CHECK(fetched.url == to);
  CHECK(fetched.redirects == std::vector<std::string>{from});
  const auto hit = session.get(from);
  CHECK(hit.from_cache);
  CHECK(hit.url == to);
  CHECK(hit.redirects == std::vector<std::string>{from});
  CHECK(hit.body == fetched.body);
  CHECK(requests_seen() == 2);
}

// The child half of the two-process test below. It runs in a fresh process
// (the parent re-executes this program), because a forked copy of a process
// that has threads, such as the mock's, may inherit a lock held by one of
// them and hang. Hidden: it runs only when named, with its inputs in the
// environment.
TEST_CASE("cache child process: fill one entry and read it back", "[.][cache-child]") {
  const char* directory = std::getenv("MGNIFY_TEST_CACHE_DIR");
  const char* url = std::getenv("MGNIFY_TEST_CACHE_URL");
  const char* base_url = std::getenv("MGNIFY_TEST_CACHE_BASE_URL");
  const char* go_fd = std::getenv("MGNIFY_TEST_CACHE_GO_FD");
  const char* result_fd = std::getenv("MGNIFY_TEST_CACHE_RESULT_FD");
  if (!directory || !url || !base_url || !go_fd || !result_fd) {
    MGNIFY_SKIP_TEST("run only by the two-process cache test, which sets its inputs");
  }
  // Start together with the other child: both requests are then in flight at once.
  char byte = 0;
  REQUIRE(::read(std::atoi(go_fd), &byte, 1) == 1);

  CacheOptions options;
  options.directory = directory;
  auto cache = std::make_shared<ResponseCache>(options);
  mgnify::http::Session session(mgnify::with_default_transport(cached_options(base_url, cache)),
                                "");
  const auto fetched = session.get(url);
  mgnify::http::Request request;
  request.url = url;
  request.headers.set("Accept", "application/json");
  const auto key = cache->key_for(request);
  REQUIRE(key);
  // Then store and read the same entry over and over: every read is whole.
  for (int round = 0; round < 200; ++round) {
    cache->store(*key, fetched, std::chrono::system_clock::now());
    const auto read = cache->lookup(*key, std::chrono::system_clock::now());
    REQUIRE(read);
    REQUIRE(read->body == fetched.body);
  }
  CHECK(cache->stats().damaged == 0);
  const std::string digest =
      mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::sha256, session.get(url).body);
  REQUIRE(::write(std::atoi(result_fd), digest.data(), digest.size()) ==
          static_cast<ssize_t>(digest.size()));
}

TEST_CASE("two processes filling the same entry at once leave one valid entry",
          "[cache][integration][processes]") {
  CacheDir dir;
  auto& mock = cache_mock();
  const std::string accession = "MGYS00000017";
  const std::string url = v2_study_url(accession);
  const std::string expected =
      mgnify::http::Session(mgnify::with_default_transport(cached_options(mock.v2_url(), nullptr)),
                            "")
          .get(url)
          .body;
  mock.clear_requests();
  // Both children's requests are in flight together, so both store.
  mgnify::mock::Fault slow;
  slow.action = mgnify::mock::Fault::Action::pass;
  slow.latency = std::chrono::milliseconds(300);
  mock.push_faults(v2_study_path(accession), slow, 2);

  int go[2];
  int results[2];
  REQUIRE(::pipe(go) == 0);
  REQUIRE(::pipe(results) == 0);
  // Everything the children need is built before fork: between fork and exec
  // only async-signal-safe calls are allowed.
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  cli_test::Argv argv({self, "cache child process: fill one entry and read it back"});
  cli_test::Argv envp(cli_test::child_environment({
      "MGNIFY_TEST_CACHE_DIR=" + dir.path().string(),
      "MGNIFY_TEST_CACHE_URL=" + url,
      "MGNIFY_TEST_CACHE_BASE_URL=" + mock.v2_url(),
      "MGNIFY_TEST_CACHE_GO_FD=" + std::to_string(go[0]),
      "MGNIFY_TEST_CACHE_RESULT_FD=" + std::to_string(results[1]),
  }));
  std::vector<pid_t> children;
  for (int child = 0; child < 2; ++child) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Catch's report goes to stderr, which ctest shows on failure; the
      // results pipe carries only the digests.
      ::dup2(2, 1);
      ::close(go[1]);
      ::close(results[0]);
      ::execve(self.c_str(), argv.get(), envp.get());
      ::_exit(127);
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(results[1]);
  REQUIRE(::write(go[1], "gg", 2) == 2);
  ::close(go[1]);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::vector<int> codes;
  for (const pid_t pid : children) {
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  std::string digests(128, '\0');
  std::size_t got = 0;
  while (got < digests.size()) {
    const ssize_t n = ::read(results[0], &digests[got], digests.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(results[0]);

  CHECK(codes == std::vector<int>{0, 0});
  REQUIRE(got == 128);
  const std::string want =
      mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::sha256, expected);
  CHECK(digests.substr(0, 64) == want);
  CHECK(digests.substr(64) == want);
  CHECK(mock.hits(v2_study_path(accession)) == 2);
  CHECK(dir.entries().size() == 1);
  CHECK(dir.all_files().size() == 1);

  auto cache = make_cache(dir);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(mock.v2_url(), cache)), "");
  const auto read = session.get(url);
  CHECK(read.from_cache);
  CHECK(read.body == expected);
}
TEST_CASE("cache options are checked before use", "[cache]") {
  CHECK_THROWS_AS(ResponseCache(CacheOptions{}), mgnify::InvalidArgument);
  CacheDir dir;
  CacheOptions zero_ttl;
  zero_ttl.directory = dir.path();
  zero_ttl.ttl = std::chrono::seconds(0);
  CHECK_THROWS_AS(ResponseCache(zero_ttl), mgnify::InvalidArgument);
  CacheOptions zero_bound;
  zero_bound.directory = dir.path();
  zero_bound.max_bytes = 0;
  CHECK_THROWS_AS(ResponseCache(zero_bound), mgnify::InvalidArgument);

  fs::create_directories(dir.path());
  std::ofstream(dir.path() / "a-file") << "x";
  CacheOptions on_a_file;
  on_a_file.directory = dir.path() / "a-file";
  CHECK_THROWS_AS(ResponseCache(on_a_file), mgnify::FileError);

  // Keys name files: anything but what key_for makes is refused.
  CacheOptions in_subfolder;
  in_subfolder.directory = dir.path() / "cache";
  ResponseCache cache(in_subfolder);
  mgnify::http::Response ok;
  ok.status = 200;
  ok.url = "http://127.0.0.1/x";
  for (const std::string& key :
       std::vector<std::string>{"../escaped", "", std::string(64, 'G'), std::string(63, 'a')}) {
    CHECK_FALSE(cache.store(key, ok, std::chrono::system_clock::now()));
    CHECK_FALSE(cache.lookup(key, std::chrono::system_clock::now()));
  }
  CHECK(cache.store(std::string(64, 'a'), ok, std::chrono::system_clock::now()));
  CHECK(cache.lookup(std::string(64, 'a'), std::chrono::system_clock::now()));
  CHECK_FALSE(fs::exists(dir.path() / "escaped.entry"));
}
