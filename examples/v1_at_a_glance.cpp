// v1_at_a_glance: the legacy API's small overview endpoints: the ten biomes
// with the most samples (biomes/top10), the most recently updated studies
// (studies/recent) and the analysis pipelines as CSV (pipelines?format=csv,
// read as text).
//
//   v1_at_a_glance [--base-url URL] [--recent N]

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v1.hpp"

namespace {
const example::Usage kUsage{
    "v1_at_a_glance",
    "[--base-url URL] [--recent N]",
    "Prints the ten biomes with the most samples (biomes/top10), the N most recently updated\n"
    "studies (studies/recent, --recent, default 5) and the pipeline releases as CSV text\n"
    "(pipelines?format=csv) from the legacy v1 API. The base URL defaults to\n"
    "$MGNIFY_API_V1_URL, then the public legacy API.",
    {},
    {"--recent"}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V1_URL", kUsage);
  if (!args.words.empty()) return example::usage_error(kUsage);
  mgnify::ListOptions recent;
  recent.max_items = args.count("--recent").value_or(5);
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v1::LegacyClient client(options);

    std::cout << "Top biomes by samples:\n";
    for (const auto& biome : client.top10_biomes()) {
      std::cout << "  " << biome.samples_count.value_or(0) << "\t" << biome.lineage << "\n";
    }

    std::cout << "Recently updated studies:\n";
    for (const auto& study : client.recent_studies(recent)) {
      std::cout << "  " << study.accession << "\t" << study.study_name.value_or("") << "\n";
    }

    // A list as the service renders it in CSV: one string, not decoded.
    std::cout << "Pipelines (CSV):\n" << client.list_csv("pipelines");
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
