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
  std::string biome = "root:Environmental:Aquatic:Marine";
  std::string experiment_type = "metagenomic";
  std::string key = "temperature";
  double max_value = 10;
  std::size_t limit = 0;
  const auto& p = args.positional;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i + 1 >= p.size()) return example::usage_error(kUsage);
    const std::string& flag = p[i];
    const std::string& value = p[++i];
    if (flag == "--biome")
      biome = value;
    else if (flag == "--experiment-type")
      experiment_type = value;
    else if (flag == "--key")
      key = value;
    else if (flag == "--max")
      max_value = std::stod(value);
    else if (flag == "--limit")
      limit = static_cast<std::size_t>(std::stoul(value));
    else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
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
