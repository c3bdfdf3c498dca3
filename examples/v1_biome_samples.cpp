// v1_biome_samples: the documented v1 example - samples of a biome filtered on
// a metadata value, ordered by accession.
//
//   v1_biome_samples [--base-url URL] [--biome LINEAGE] [--experiment-type T]
//                    [--key KEY] [--max VALUE] [--limit N]
//
// Defaults reproduce MGnify's documentation: marine metagenomic samples with
// temperature <= 10, i.e.
//   /biomes/root:Environmental:Aquatic:Marine/samples?experiment_type=metagenomic
//     &metadata_key=temperature&metadata_value_lte=10&ordering=accession
// The typed filter builders are used on purpose: the service silently ignores
// a misspelt parameter and would return every sample of the biome.

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v1.hpp"

namespace {
const example::Usage kUsage{
    "v1_biome_samples",
    "[--base-url URL] [--biome LINEAGE] [--experiment-type T] [--key KEY] [--max VALUE]"
    " [--limit N]",
    "Lists the samples of a biome (v1 API) whose metadata value --key is at most --max, ordered\n"
    "by accession. The defaults reproduce MGnify's documented example: marine metagenomic samples\n"
    "with temperature <= 10. The base URL defaults to $MGNIFY_API_V1_URL, then the public legacy\n"
    "API.",
    {},
    {"--biome", "--experiment-type", "--key", "--max", "--limit"}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V1_URL", kUsage);
  if (!args.words.empty()) return example::usage_error(kUsage);
  const std::string biome = args.text("--biome").value_or("root:Environmental:Aquatic:Marine");
  const std::string experiment_type = args.text("--experiment-type").value_or("metagenomic");
  const std::string key = args.text("--key").value_or("temperature");
  const double max_value = args.number("--max").value_or(10);
  const std::size_t limit = args.count("--limit").value_or(0);
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v1::LegacyClient client(options);
    mgnify::v1::Query filters;
    filters.experiment_type(experiment_type)
        .metadata_key(key)
        .metadata_value_lte(max_value)
        .ordering("accession");
    mgnify::ListOptions list;
    list.page_size = 100;
    if (limit > 0) list.max_items = limit;
    auto samples = client.biome_samples(biome, filters, list);
    std::cout << "accession\t" << key << "\tbiome\n";
    std::size_t n = 0;
    for (const auto& s : samples) {
      const auto* m = s.metadata(key);
      std::cout << s.accession << "\t" << (m ? m->value : "")
                << (m && m->unit ? " " + *m->unit : "") << "\t" << s.biome_lineage().value_or("")
                << "\n";
      ++n;
    }
    std::cerr << n << " of " << samples.total().value_or(0) << " matching samples\n";
    return 0;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
