// protein_search: find protein cluster representatives by one filter.
//
//   protein_search [--base-url URL] (--biome-id N | --pfam PF00005 | --lineage LINEAGE) [--limit N]
//
// The lineage must be complete, from root ("root:Engineered:Wastewater");
// it matches that biome and every sub-biome. Without --limit the service
// returns up to 50 hits; at most 1000 may be asked for.

#include <iostream>
#include <optional>
#include <string>

#include "example_args.hpp"
#include "mgnify/proteins.hpp"

namespace {
const example::Usage kUsage{
    "protein_search",
    "[--base-url URL] (--biome-id N | --pfam PF00005 | --lineage LINEAGE) [--limit N]",
    "Finds protein cluster representatives by one filter and prints one line per hit. The\n"
    "lineage must be complete, from root (root:Engineered:Wastewater); it matches that biome and\n"
    "every sub-biome. Without --limit the service returns up to 50 hits; at most 1000 may be\n"
    "asked for. The base URL defaults to $MGNIFY_PROTEINS_URL, then the public service.",
    {},
    {"--biome-id", "--pfam", "--lineage", "--limit"}};

int usage() { return example::usage_error(kUsage); }
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_PROTEINS_URL", kUsage);
  try {
    if (!args.words.empty()) return usage();
    const auto biome_id = args.count("--biome-id");
    const auto pfam = args.text("--pfam");
    const auto lineage = args.text("--lineage");
    if ((biome_id ? 1 : 0) + (pfam ? 1 : 0) + (lineage ? 1 : 0) != 1) {
      example::fail_usage(kUsage, "give exactly one of --biome-id, --pfam, --lineage");
    }
    std::optional<mgnify::proteins::SearchQuery> query;
    if (biome_id) {
      query = mgnify::proteins::SearchQuery::by_biome_id(static_cast<long long>(*biome_id));
    } else if (pfam) {
      query = mgnify::proteins::SearchQuery::by_pfam(*pfam);
    } else {
      query = mgnify::proteins::SearchQuery::by_lineage(*lineage);
    }
    if (const auto limit = args.positive("--limit", mgnify::proteins::SearchQuery::kMaxLimit)) {
      query->limit(static_cast<int>(*limit));
    }

    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::proteins::ProteinClient client(options);

    const auto hits = client.search(*query);

    std::cout << hits.size() << " hits for " << query->describe() << "\n";
    for (const auto& hit : hits) {
      std::cout << hit.mgyp;
      if (hit.full_length) std::cout << "\t" << (*hit.full_length ? "full-length" : "fragment");
      if (hit.cluster_size) std::cout << "\tcluster size " << *hit.cluster_size;
      std::cout << "\n";
    }
  } catch (const mgnify::InvalidArgument& e) {
    std::cerr << "invalid input: " << e.what() << "\n";
    return 2;
  } catch (const mgnify::ValidationError& e) {
    // Both of the service's 422 shapes end up in message().
    std::cerr << "the service rejected the query: " << e.message() << "\n";
    return 1;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::logic_error&) {  // std::stoi on a non-number
    return usage();
  }
  return 0;
}
