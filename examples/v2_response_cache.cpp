// v2_response_cache: the opt-in response cache. The same study is fetched
// twice through a client whose ClientOptions::cache is set; the second call
// is answered from disk without a request, which cache.stats() shows.
//
//   v2_response_cache [--base-url URL] [--cache-dir DIR] STUDY_ACCESSION
//
// Without --cache-dir a fresh temporary directory is used and removed at the
// end, so every run starts with an empty cache.

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include "example_args.hpp"
#include "mgnify/cache/response_cache.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_response_cache",
    "[--base-url URL] [--cache-dir DIR] STUDY_ACCESSION",
    "Fetches a study twice (v2 API) through an on-disk response cache (ClientOptions::cache) and\n"
    "prints the cache's counters after each call: the first call is a miss that stores the\n"
    "response, the second a hit that sends no request. Without --cache-dir a temporary directory\n"
    "is used and removed. The base URL defaults to $MGNIFY_API_V2_URL, then the public service.",
    {},
    {"--cache-dir"}};

void print_stats(const char* when, const mgnify::CacheStats& stats) {
  std::cout << when << ": hits " << stats.hits << ", misses " << stats.misses << ", stores "
            << stats.stores << "\n";
}
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  if (args.words.size() != 1) return example::usage_error(kUsage);
  const std::string& accession = args.words.front();
  std::filesystem::path directory = args.text("--cache-dir").value_or("");
  const bool temporary = directory.empty();
  if (temporary) {
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    directory =
        std::filesystem::temp_directory_path() / ("mgnify-example-cache-" + std::to_string(stamp));
  }
  int status = 0;
  try {
    mgnify::CacheOptions cache_options;
    cache_options.directory = directory;
    cache_options.ttl = std::chrono::hours(1);
    auto cache = std::make_shared<mgnify::ResponseCache>(cache_options);

    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    options.cache = cache;
    const mgnify::v2::V2Client client(options);

    const auto first = client.study(accession);
    std::cout << first.accession << "  " << first.title << "\n";
    print_stats("first call ", cache->stats());

    const auto second = client.study(accession);
    print_stats("second call", cache->stats());
    if (second.accession != first.accession || cache->stats().hits != 1) {
      std::cerr << "error: the second call was not answered from the cache\n";
      status = 1;
    }
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    status = 1;
  }
  if (temporary) {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  }
  return status;
}
