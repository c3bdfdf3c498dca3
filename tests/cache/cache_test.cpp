// The on-disk response cache (ClientOptions::cache) through the real session
// and libcurl against the mock: what is stored, what is answered without a
// request, and what happens when the directory is shared, damaged or full.

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
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
#include "mock/genome_search_mock.hpp"
#include "mock/mock_server.hpp"
#include "mock/v2/v2_mock.hpp"
#include "skip.hpp"
#include "support/all_services.hpp"

namespace fs = std::filesystem;
using mgnify::CacheOptions;
using mgnify::ResponseCache;

namespace {

mgnify::mock::MockServer& cache_mock() {
  static mgnify::mock::MockServer& server = mgnify::test::start_all_services();
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
    for (const auto& f : fs::recursive_directory_iterator(path_, ec)) {
      if (!f.is_regular_file()) continue;
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

// A cache in a fresh directory and a session on the v2 mock that uses it.
struct CachedSession {
  explicit CachedSession(CacheOptions options = {})
      : cache(make_cache(dir, std::move(options))),
        session(mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "") {}
  CacheDir dir;
  std::shared_ptr<ResponseCache> cache;
  mgnify::http::Session session;
};

std::string v2_study_path(const std::string& accession) {
  return std::string(mgnify::mock::kV2Prefix) + "/studies/" + accession;
}
std::string v2_study_url(const std::string& accession) {
  return cache_mock().origin() + v2_study_path(accession);
}

std::size_t requests_seen() { return cache_mock().requests().size(); }

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

// What a co-tenant with write access to the directory can do to an entry: put
// another body in, fix its length, date it, and recompute the trailing SHA-256.
std::string forged_entry(const std::string& intact, const std::string& body,
                         std::optional<std::int64_t> stored_at_ms = std::nullopt) {
  const std::string content = intact.substr(0, intact.size() - 64);
  const std::size_t magic_end = content.find('\n') + 1;
  const std::size_t meta_end = content.find('\n', magic_end);
  auto meta = nlohmann::json::parse(content.substr(magic_end, meta_end - magic_end));
  meta["body_bytes"] = body.size();
  if (stored_at_ms) meta["stored_at_ms"] = *stored_at_ms;
  std::string out = content.substr(0, magic_end) + meta.dump() + "\n" + body;
  out += mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::sha256, out);
  return out;
}

// CallOptions::bypass_cache on `fetch`: the call asks the service although
// an answer is stored, and stores nothing, so the next ordinary call asks too.
template <class Fetch>
void check_bypass(const CacheDir& dir, Fetch fetch) {
  mgnify::CallOptions bypass;
  bypass.bypass_cache = true;
  const std::size_t before = requests_seen();
  fetch(bypass);
  CHECK(requests_seen() == before + 1);
  CHECK(dir.entries().empty());
  fetch(mgnify::CallOptions{});
  CHECK(requests_seen() == before + 2);
  CHECK(dir.entries().size() == 1);
  fetch(mgnify::CallOptions{});
  CHECK(requests_seen() == before + 2);  // answered from the cache
  fetch(bypass);
  CHECK(requests_seen() == before + 3);
  CHECK(dir.entries().size() == 1);
}

}  // namespace

TEST_CASE("a cached response is answered without a request, by all three clients",
          "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  auto& mock = cache_mock();
  mock.clear_requests();

  mgnify::proteins::ProteinClient proteins(cached_options(mock.proteins_url(), cache));
  const auto protein = proteins.protein("MGYP000000000013");
  CHECK(requests_seen() == 1);
  CHECK(nlohmann::json(proteins.protein("MGYP000000000013")) == nlohmann::json(protein));
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
    cache->store(request, *key, fetched, std::chrono::system_clock::now());
    const auto read = cache->lookup(request, *key, std::chrono::system_clock::now());
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
  mgnify::test::cli::Argv argv({self, "cache child process: fill one entry and read it back"});
  mgnify::test::cli::Argv envp(mgnify::test::cli::child_environment({
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
  // No temporary is left: the entry, the folder's tag and its key.
  CHECK(dir.all_files().size() == 3);

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
  mgnify::http::Request request;
  request.url = "http://127.0.0.1/x";
  request.headers.set("Accept", "application/json");
  mgnify::http::Response ok;
  ok.status = 200;
  ok.url = request.url;
  ok.headers.set("Content-Type", "application/json");
  ok.body = "{}";
  const auto now = std::chrono::system_clock::now();
  for (const std::string& key :
       std::vector<std::string>{"../escaped", "", std::string(64, 'G'), std::string(63, 'a')}) {
    CHECK_FALSE(cache.store(request, key, ok, now));
    CHECK_FALSE(cache.lookup(request, key, now));
  }
  CHECK(cache.store(request, std::string(64, 'a'), ok, now));
  CHECK(cache.lookup(request, std::string(64, 'a'), now));
  CHECK_FALSE(fs::exists(dir.path() / "escaped.entry"));
}

TEST_CASE("an entry rewritten with a valid SHA-256 by someone else is not believed",
          "[cache][integration][hostile]") {
  CachedSession rig;
  const std::string url = v2_study_url("MGYS00000015");
  cache_mock().clear_requests();
  const std::string genuine = rig.session.get(url).body;
  REQUIRE(rig.dir.entries().size() == 1);
  const fs::path entry = rig.dir.entries().front();

  auto forged = nlohmann::json::parse(genuine);
  REQUIRE(forged.contains("title"));
  forged["title"] = "A forged title";
  const auto year_2100_ms = std::int64_t{4102444800000};
  const std::string rewritten = forged_entry(read_all(entry), forged.dump(), year_2100_ms);
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << rewritten;
  const auto answer = rig.session.get(url);
  CHECK(answer.body.find("A forged title") == std::string::npos);
  CHECK(answer.body == genuine);
  CHECK(requests_seen() == 2);
}

TEST_CASE("an intact entry copied to another request's name is not served for it",
          "[cache][integration][hostile]") {
  CachedSession rig;
  cache_mock().clear_requests();
  const std::string first = rig.session.get(v2_study_url("MGYS00000028")).body;
  REQUIRE(rig.dir.entries().size() == 1);
  const fs::path first_entry = rig.dir.entries().front();
  const std::string second = rig.session.get(v2_study_url("MGYS00000029")).body;
  REQUIRE(rig.dir.entries().size() == 2);
  REQUIRE(first != second);
  fs::path second_entry;
  for (const auto& entry : rig.dir.entries()) {
    if (entry != first_entry) second_entry = entry;
  }
  REQUIRE_FALSE(second_entry.empty());

  // What a sync or restore that mixes up names, or any process of the same
  // user, can do: a genuine, correctly signed entry under another key's name.
  std::ofstream(second_entry, std::ios::binary | std::ios::trunc) << read_all(first_entry);
  const auto answer = rig.session.get(v2_study_url("MGYS00000029"));
  CHECK_FALSE(answer.from_cache);
  CHECK(answer.body == second);
  CHECK(cache_mock().hits(v2_study_path("MGYS00000029")) == 2);
  CHECK(rig.cache->stats().damaged == 1);
  // The entry it was copied from still answers its own request.
  const auto own = rig.session.get(v2_study_url("MGYS00000028"));
  CHECK(own.from_cache);
  CHECK(own.body == first);
}

TEST_CASE("a FIFO in place of an entry is a miss, never a hang", "[cache][integration][hostile]") {
  using namespace std::chrono_literals;
  CachedSession rig;
  const std::string url = v2_study_url("MGYS00000016");
  rig.session.get(url);
  REQUIRE(rig.dir.entries().size() == 1);
  const fs::path entry = rig.dir.entries().front();
  fs::remove(entry);
  REQUIRE(::mkfifo(entry.c_str(), 0600) == 0);

  std::atomic<bool> finished{false};
  std::atomic<bool> from_cache{true};
  std::string failure;
  std::thread reader([&] {
    try {
      from_cache = rig.session.get(url).from_cache;
    } catch (const std::exception& e) {
      failure = e.what();
    }
    finished = true;
  });
  const auto give_up = std::chrono::steady_clock::now() + 5s;
  while (!finished && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(10ms);
  }
  const bool hung = !finished;
  if (hung) {
    // Opening the other end releases a reader blocked in open(), so the test can end.
    const int fd = ::open(entry.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  reader.join();
  CHECK_FALSE(hung);
  CHECK(failure.empty());
  CHECK_FALSE(from_cache);
}

TEST_CASE("the cache directory and its files are private to the user", "[cache][hostile]") {
  const mode_t saved_umask = ::umask(022);
  CacheDir dir;
  {
    auto cache = make_cache(dir);
    mgnify::http::Session session(
        mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
    session.get(v2_study_url("MGYS00000017"));
  }
  ::umask(saved_umask);
  REQUIRE(dir.entries().size() == 1);
  CHECK((mode_of(dir.path()) & 07777) == 0700);
  std::error_code ec;
  for (const auto& file : fs::recursive_directory_iterator(dir.path(), ec)) {
    INFO(file.path());
    const mode_t mode = mode_of(file.path());
    CHECK((S_ISDIR(mode) || S_ISREG(mode)));
    CHECK((mode & 077) == 0);
  }
}

TEST_CASE("a cache directory others may write to, or owned by another user, is refused",
          "[cache][hostile]") {
  CacheDir dir;
  fs::create_directories(dir.path());
  CacheOptions options;
  options.directory = dir.path();
  for (const auto mode :
       {fs::perms::owner_all | fs::perms::group_all, fs::perms::owner_all | fs::perms::others_all,
        fs::perms::all | fs::perms::sticky_bit}) {
    INFO(static_cast<int>(mode));
    fs::permissions(dir.path(), mode);
    CHECK_THROWS_AS(ResponseCache(options), mgnify::FileError);
  }
  fs::permissions(dir.path(), fs::perms::owner_all);
  CHECK_NOTHROW(ResponseCache(options));
  if (::geteuid() == 0) {
    REQUIRE(::chown(dir.path().c_str(), 65534, 65534) == 0);
    CHECK_THROWS_AS(ResponseCache(options), mgnify::FileError);
  }
}

TEST_CASE("job status polls are never answered from the cache",
          "[cache][integration][genome-search]") {
  using namespace std::chrono_literals;
  CacheDir dir;
  auto cache = make_cache(dir);
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  mgnify::v2::V2Client client(cached_options(cache_mock().v2_url(), cache, clock));
  mgnify::GatherRequest request;
  request.mag_catalogues = {"human-gut-v2-0"};
  request.signatures.push_back(
      mgnify::SignatureFile::from_text("polled.sig", mgnify::mock::sourmash_signature("polled")));
  const auto job = client.submit_gather(request);

  mgnify::JobWaitOptions wait;
  wait.first_interval = 1s;
  wait.max_interval = 4s;
  std::vector<std::string> seen;
  wait.on_status = [&](const mgnify::GatherStatus& s) { seen.push_back(s.status.text); };
  CHECK_NOTHROW(client.wait_for_gather(job.job_id, wait, mgnify::CallOptions().timeout(60s)));
  CHECK(seen == std::vector<std::string>{"QUEUED", "RUNNING", "SUCCESS"});
  mgnify::v2::V2Client other(cached_options(cache_mock().v2_url(), cache, clock));
  CHECK(other.gather_status(job.job_id).status == mgnify::JobState::success);
  CHECK(cache->stats().hits == 0);
}

TEST_CASE("Cache-Control: no-store keeps a response out; a request's no-cache skips the lookup",
          "[cache][integration]") {
  CachedSession rig;
  auto& mock = cache_mock();
  const std::string path = v2_study_path("MGYS00000018");
  const std::string url = v2_study_url("MGYS00000018");
  mock.clear_requests();

  for (const std::string directive : {"no-store", "private, max-age=60", "no-cache"}) {
    INFO(directive);
    auto fault = mgnify::mock::Fault::status_only(200, R"({"accession": "MGYS00000018"})");
    fault.headers.emplace_back("Cache-Control", directive);
    mock.push_fault(path, fault);
    CHECK_FALSE(rig.session.get(url).from_cache);
  }
  CHECK(rig.dir.entries().empty());
  CHECK_FALSE(rig.session.get(url).from_cache);
  CHECK(rig.session.get(url).from_cache);
  CHECK(mock.hits(path) == 4);

  for (const std::string directive : {"no-cache", "no-store", "max-age=0"}) {
    INFO(directive);
    mgnify::http::Request fresh;
    fresh.url = url;
    fresh.headers.set("Cache-Control", directive);
    CHECK_FALSE(rig.session.execute(fresh).from_cache);
  }
  CHECK(mock.hits(path) == 7);
}

TEST_CASE("a 200 that is not the JSON asked for is not stored", "[cache][integration]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  mgnify::v2::V2Client client(cached_options(cache_mock().v2_url(), cache));
  auto& mock = cache_mock();
  mock.clear_requests();

  const std::string html_study = "MGYS00000019";
  mock.push_fault(v2_study_path(html_study), mgnify::mock::Fault::html(200));
  CHECK_THROWS(client.study(html_study));
  CHECK(client.study(html_study).accession == html_study);
  CHECK(mock.hits(v2_study_path(html_study)) == 2);

  const std::string cut_study = "MGYS00000020";
  mock.push_fault(v2_study_path(cut_study),
                  mgnify::mock::Fault::status_only(200, R"({"accession": "MGYS000)"));
  CHECK_THROWS(client.study(cut_study));
  CHECK(client.study(cut_study).accession == cut_study);
  CHECK(mock.hits(v2_study_path(cut_study)) == 2);
  CHECK(cache->stats().stores == 2);
}

TEST_CASE("an entry dated ahead of the clock is not believed", "[cache][integration][hostile]") {
  using namespace std::chrono_literals;
  CacheDir dir;
  auto cache = make_cache(dir);
  const auto now = std::chrono::system_clock::now();
  const auto session_at = [&](std::chrono::system_clock::time_point t) {
    auto clock = std::make_shared<mgnify::testing::FakeClock>();
    clock->set_wall(t);
    return std::make_unique<mgnify::http::Session>(
        mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache, clock)), "");
  };
  const std::string path = v2_study_path("MGYS00000021");
  const std::string url = v2_study_url("MGYS00000021");
  cache_mock().clear_requests();

  session_at(now + std::chrono::hours(24 * 365 * 74))->get(url);
  CHECK_FALSE(session_at(now)->get(url).from_cache);
  CHECK(cache_mock().hits(path) == 2);
  // A few seconds of disagreement between hosts' clocks is tolerated.
  session_at(now + 30s)->get(v2_study_url("MGYS00000022"));
  CHECK(session_at(now)->get(v2_study_url("MGYS00000022")).from_cache);
}

TEST_CASE("the cache removes only files it wrote", "[cache][integration][hostile]") {
  CacheDir dir;
  fs::create_directories(dir.path());
  fs::permissions(dir.path(), fs::perms::owner_all);
  const std::vector<std::string> mine = {"thesis.tmp.docx", "notes.entry", "run.tmp.1",
                                         std::string(64, 'a') + ".entry"};
  const auto two_hours_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  for (const auto& name : mine) {
    std::ofstream(dir.path() / name) << "the user's own " << name;
    fs::last_write_time(dir.path() / name, two_hours_ago);
  }
  CacheOptions options;
  options.max_bytes = 1 << 20;
  auto cache = make_cache(dir, options);
  mgnify::http::Session session(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  session.get(v2_study_url("MGYS00000023"));
  cache->clear();
  make_cache(dir, options);
  for (const auto& name : mine) {
    INFO(name);
    CHECK(read_all(dir.path() / name) == "the user's own " + name);
  }
}

TEST_CASE("requests that differ in a header the caller set never share an entry",
          "[cache][integration][auth]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  const auto session_with = [&](const std::string& name, const std::string& value) {
    auto options = cached_options(cache_mock().v2_url(), cache);
    if (!name.empty()) options.extra_headers.set(name, value);
    return std::make_unique<mgnify::http::Session>(mgnify::with_default_transport(options), "");
  };
  const std::string path = v2_study_path("MGYS00000024");
  const std::string url = v2_study_url("MGYS00000024");
  cache_mock().clear_requests();

  auto alice = session_with("X-Auth", "alice");
  alice->get(url);
  CHECK(alice->get(url).from_cache);
  CHECK_FALSE(session_with("", "")->get(url).from_cache);
  CHECK_FALSE(session_with("X-Auth", "bob")->get(url).from_cache);
  CHECK_FALSE(session_with("Authentication", "alice")->get(url).from_cache);
  CHECK(cache_mock().hits(path) == 4);
}

TEST_CASE("a header the caller marks as identifying makes a request authenticated",
          "[cache][integration][auth]") {
  CacheDir dir;
  CacheOptions options;
  options.identity_headers = {"x-auth"};
  auto cache = make_cache(dir, options);
  auto with_header = cached_options(cache_mock().v2_url(), cache);
  with_header.extra_headers.set("X-Auth", "alice");
  mgnify::http::Session session(mgnify::with_default_transport(with_header), "");
  const std::string path = v2_study_path("MGYS00000025");
  cache_mock().clear_requests();
  session.get(v2_study_url("MGYS00000025"));
  CHECK_FALSE(session.get(v2_study_url("MGYS00000025")).from_cache);
  CHECK(cache_mock().hits(path) == 2);
  CHECK(dir.entries().empty());

  CacheDir opted_dir;
  options.store_authenticated = true;
  auto opted = make_cache(opted_dir, options);
  with_header.cache = opted;
  mgnify::http::Session stored(mgnify::with_default_transport(with_header), "");
  stored.get(v2_study_url("MGYS00000025"));
  CHECK(stored.get(v2_study_url("MGYS00000025")).from_cache);
  // The value is in no file.
  for (const auto& file : opted_dir.all_files())
    CHECK(read_all(file).find("alice") == std::string::npos);
}

TEST_CASE("a call may bypass the cache", "[cache][integration]") {
  CachedSession rig;
  const std::string path = v2_study_path("MGYS00000026");
  const std::string url = v2_study_url("MGYS00000026");
  cache_mock().clear_requests();
  mgnify::http::RequestOptions bypass;
  bypass.use_cache = false;
  CHECK_FALSE(rig.session.get(url, bypass).from_cache);
  CHECK(rig.dir.entries().empty());
  rig.session.get(url);
  CHECK_FALSE(rig.session.get(url, bypass).from_cache);
  CHECK(rig.session.get(url).from_cache);
  CHECK(cache_mock().hits(path) == 3);
}

TEST_CASE("the cache's folder is marked, and a folder of that name without the mark is refused",
          "[cache][hostile]") {
  CacheDir dir;
  auto cache = make_cache(dir);
  CHECK(cache->folder() == dir.path() / "mgnify-responses");
  CHECK(read_all(cache->folder() / "CACHEDIR.TAG")
            .rfind("Signature: 8a477f597d28d172789f06886806bc55", 0) == 0);
  CHECK(fs::file_size(cache->folder() / "key") == 32);
  // A second cache on the same directory uses the same key: it reads what the first stored.
  mgnify::http::Session first(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), cache)), "");
  first.get(v2_study_url("MGYS00000027"));
  mgnify::http::Session second(
      mgnify::with_default_transport(cached_options(cache_mock().v2_url(), make_cache(dir))), "");
  CHECK(second.get(v2_study_url("MGYS00000027")).from_cache);

  CacheDir other;
  fs::create_directories(other.path() / "mgnify-responses");
  fs::permissions(other.path(), fs::perms::owner_all);
  CHECK_THROWS_AS(make_cache(other), mgnify::FileError);
  CHECK(fs::is_empty(other.path() / "mgnify-responses"));
}

TEST_CASE("private files are never written or read through a symbolic link", "[cache][hostile]") {
  CacheDir dir;
  fs::create_directories(dir.path());
  const fs::path victim = dir.path() / "victim";
  std::ofstream(victim) << "untouched";
  const fs::path planted = dir.path() / "planted";
  fs::create_symlink(victim, planted);
  CHECK_FALSE(mgnify::detail::write_new_private_file(planted, "overwritten"));
  CHECK(read_all(victim) == "untouched");
  CHECK(mgnify::detail::read_own_regular_file(planted, 1024) == std::string());
  CHECK(mgnify::detail::read_own_regular_file(victim, 1024) == std::string("untouched"));
  CHECK(mgnify::detail::read_own_regular_file(victim, 3) == std::string());
  CHECK_FALSE(mgnify::detail::read_own_regular_file(dir.path() / "absent", 1024));

  const fs::path fresh = dir.path() / "fresh";
  CHECK(mgnify::detail::write_new_private_file(fresh, "new"));
  CHECK((mode_of(fresh) & 07777) == 0600);
  CHECK_FALSE(mgnify::detail::write_new_private_file(fresh, "again"));
  CHECK(read_all(fresh) == "new");
  CHECK(mgnify::detail::random_hex(16).size() == 32);
  CHECK(mgnify::detail::random_hex(16) != mgnify::detail::random_hex(16));
}

TEST_CASE("bypass_cache: a protein get neither reads nor fills the cache",
          "[cache][integration][call-options]") {
  CacheDir dir;
  mgnify::proteins::ProteinClient client(
      cached_options(cache_mock().proteins_url(), make_cache(dir)));
  check_bypass(dir, [&](const mgnify::CallOptions& call) {
    CHECK(client.protein("MGYP000000000013", call).mgyp == "MGYP000000000013");
  });
}

TEST_CASE("bypass_cache: a v1 get neither reads nor fills the cache",
          "[cache][integration][call-options]") {
  CacheDir dir;
  mgnify::v1::LegacyClient client(cached_options(cache_mock().v1_url(), make_cache(dir)));
  check_bypass(dir, [&](const mgnify::CallOptions& call) {
    CHECK(client.study("MGYS00000001", call).id() == "MGYS00000001");
  });
}

TEST_CASE("bypass_cache: a v2 get and a v2 text read neither read nor fill the cache",
          "[cache][integration][call-options]") {
  CacheDir dir;
  mgnify::v2::V2Client client(cached_options(cache_mock().v2_url(), make_cache(dir)));
  check_bypass(dir, [&](const mgnify::CallOptions& call) {
    CHECK(client.study("MGYS00000003", call).accession == "MGYS00000003");
  });
  CacheDir text_dir;
  mgnify::v2::V2Client reader(cached_options(cache_mock().v2_url(), make_cache(text_dir)));
  check_bypass(text_dir, [&](const mgnify::CallOptions& call) {
    CHECK_FALSE(
        reader.read_text(v2_study_url("MGYS00000003"), "application/json", call).text.empty());
  });
}

namespace {

// check_bypass on a walk of one page of two (max_items ends it before a
// second request) whose CallOptions ask for the bypass.
template <class Client>
void check_walk_bypass(const std::string& base_url) {
  CacheDir dir;
  Client client(cached_options(base_url, make_cache(dir)));
  check_bypass(dir, [&](const mgnify::CallOptions& call) {
    mgnify::ListOptions list;
    list.page_size = 2;
    list.max_items = 2;
    CHECK(client.studies({}, list, call).collect().size() == 2);
  });
}

}  // namespace

TEST_CASE("bypass_cache: a v1 or v2 walk's pages neither read nor fill the cache",
          "[cache][integration][call-options]") {
  check_walk_bypass<mgnify::v1::LegacyClient>(cache_mock().v1_url());
  check_walk_bypass<mgnify::v2::V2Client>(cache_mock().v2_url());
}
