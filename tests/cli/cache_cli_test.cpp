// `mgnify --cache DIR` and MGNIFY_CACHE_DIR: a second run of the same command
// is answered from the directory without a request.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "cli/usage_errors.hpp"
#include "mock/mock_server.hpp"
#include "support/all_services.hpp"

namespace {

mgnify::mock::MockServer& cache_cli_mock() {
  static mgnify::mock::MockServer& server = mgnify::test::start_all_services();
  return server;
}

mgnify::test::cli::Run run_with_cache_env(std::vector<std::string> args,
                                          std::vector<std::string> env = {}) {
  std::vector<std::string> full = {"--rate-limit", "0"};
  full.insert(full.end(), args.begin(), args.end());
  env.push_back("MGNIFY_API_V1_URL=" + cache_cli_mock().v1_url());
  env.push_back("MGNIFY_API_V2_URL=" + cache_cli_mock().v2_url());
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, full, env);
  REQUIRE_FALSE(run.timed_out);
  return run;
}

struct CacheCliDir {
  std::filesystem::path path;
  CacheCliDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("mgnify-cli-cache-" + std::to_string(rd()) + std::to_string(rd()));
  }
  ~CacheCliDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  CacheCliDir(const CacheCliDir&) = delete;
  CacheCliDir& operator=(const CacheCliDir&) = delete;
};

}  // namespace

TEST_CASE("with --cache, a second run makes no request and prints the same", "[cli][cache]") {
  CacheCliDir dir;
  auto& mock = cache_cli_mock();
  mock.clear_requests();
  const std::vector<std::string> get = {"--cache", dir.path.string(), "v2", "studies",
                                        "get",     "MGYS00000001"};
  const auto first = run_with_cache_env(get);
  REQUIRE(first.code == 0);
  const std::size_t sent = mock.requests().size();
  CHECK(sent >= 1);

  const auto second = run_with_cache_env(get);
  CHECK(second.code == 0);
  CHECK(second.out == first.out);
  CHECK(mock.requests().size() == sent);

  // The environment variable names the same directory.
  const auto from_env = run_with_cache_env({"v2", "studies", "get", "MGYS00000001"},
                                           {"MGNIFY_CACHE_DIR=" + dir.path.string()});
  CHECK(from_env.code == 0);
  CHECK(from_env.out == first.out);
  CHECK(mock.requests().size() == sent);

  // A list walks the same pages again from the cache.
  const std::vector<std::string> list = {
      "--cache", dir.path.string(), "--format", "ndjson", "v1", "studies", "list", "--max", "30"};
  const auto listed = run_with_cache_env(list);
  REQUIRE(listed.code == 0);
  const std::size_t after_list = mock.requests().size();
  CHECK(after_list > sent);
  const auto relisted = run_with_cache_env(list);
  CHECK(relisted.code == 0);
  CHECK(relisted.out == listed.out);
  CHECK(mock.requests().size() == after_list);

  // Without the cache the command asks again.
  CHECK(run_with_cache_env({"v2", "studies", "get", "MGYS00000001"}).code == 0);
  CHECK(mock.requests().size() == after_list + 1);
}

TEST_CASE("an empty --cache and a --cache-ttl without a cache are usage errors", "[cli][cache]") {
  auto& mock = cache_cli_mock();
  mock.clear_requests();
  const auto help = run_with_cache_env({"--help"});
  CHECK(help.out.find("--cache DIR") != std::string::npos);
  CHECK(help.out.find("--cache-ttl") != std::string::npos);
  CHECK(help.out.find("MGNIFY_CACHE_DIR") != std::string::npos);
  mgnify::test::cli::check_usage_errors(
      {
          {{"--cache", "", "v2", "studies", "list"}, "mgnify: --cache must not be empty\n"},
          {{"--cache-ttl", "5", "v2", "studies", "list"},
           "mgnify: --cache-ttl applies only with --cache or MGNIFY_CACHE_DIR\n"},
          {{"--cache", "x", "--cache-ttl", "0", "v2", "studies", "list"},
           "mgnify: --cache-ttl must be an integer from 1 to 315360000, got '0'\n"},
      },
      [](const std::vector<std::string>& args) { return run_with_cache_env(args); });
  CHECK(mock.requests().empty());
}

TEST_CASE("a cache directory others may write to is refused in one line, exit 2", "[cli][cache]") {
  CacheCliDir dir;
  std::filesystem::create_directories(dir.path);
  std::filesystem::permissions(dir.path, std::filesystem::perms::all);
  auto& mock = cache_cli_mock();
  mock.clear_requests();
  const auto run =
      run_with_cache_env({"--cache", dir.path.string(), "v2", "studies", "get", "MGYS00000001"});
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("mgnify: --cache: ", 0) == 0);
  CHECK(run.err.find(dir.path.string()) != std::string::npos);
  CHECK(run.err.find("writable") != std::string::npos);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(mock.requests().empty());
}
