// Biomes below a lineage, printed as an indented tree.
//   v2_biome_tree [--base-url URL] [lineage] [max depth]   (default root:Host-associated 4)

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_biome_tree",
    "[--base-url URL] [LINEAGE] [MAX_DEPTH]",
    "Prints the biomes below LINEAGE (v2 API, default root:Host-associated), MAX_DEPTH levels\n"
    "deep (default 4), as an indented tree. The base URL defaults to $MGNIFY_API_V2_URL, then\n"
    "the public service.",
    {},
    {}};
}  // namespace

int main(int argc, char** argv) {
  const auto args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  if (args.words.size() > 2) return example::usage_error(kUsage);
  const std::string lineage = !args.words.empty() ? args.words[0] : "root:Host-associated";
  std::size_t depth = 4;
  if (args.words.size() > 1) {
    try {
      depth = example::count_value(args.words[1]);
    } catch (const std::exception&) {
      depth = 0;
    }
    if (depth == 0 || depth > 100) {
      example::fail_usage(kUsage, "MAX_DEPTH must be from 1 to 100, got '" + args.words[1] + "'");
    }
  }
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    mgnify::v2::V2Client client(options);

    auto biomes = client.biomes(
        mgnify::v2::BiomeQuery().biome_lineage(lineage).max_depth(static_cast<int>(depth)));
    const std::size_t top = lineage.empty() ? 1 : mgnify::v2::Biome{"", lineage, {}}.depth();
    // The service lists a lineage before its descendants, so indenting by depth draws the tree.
    for (const auto& biome : biomes) {
      const std::size_t level = biome.depth() >= top ? biome.depth() - top : 0;
      std::cout << std::string(2 * level, ' ') << biome.biome_name << "\n";
    }
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "usage: v2_biome_tree [--base-url URL] [lineage] [max depth]: " << e.what()
              << "\n";
    return 2;
  }
  return 0;
}
