// v1_study_samples: one study and all its samples, as TSV.
//
//   v1_study_samples [--base-url URL] [--page-size N] STUDY_ACCESSION
//
// Prints a header comment with the study, then one line per sample:
// accession, name, biome lineage, latitude, longitude, collection date,
// temperature (from the sample metadata). The sample list is walked lazily,
// page by page, by following the service's links. The base URL defaults to
// $MGNIFY_API_V1_URL, then the public legacy API (deprecated since June 2026).

#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v1.hpp"

namespace {

const example::Usage kUsage{
    "v1_study_samples",
    "[--base-url URL] [--page-size N] STUDY_ACCESSION",
    "Prints one study (v1 API) as a header comment, then its samples as TSV: accession, name,\n"
    "biome lineage, latitude, longitude, collection date and temperature. The sample list is\n"
    "walked lazily, --page-size samples per request. The base URL defaults to\n"
    "$MGNIFY_API_V1_URL, then the public legacy API (deprecated since June 2026).",
    {},
    {"--page-size"}};
template <class T>
std::string cell(const std::optional<T>& v) {
  if (!v) return "";
  std::ostringstream out;
  out << *v;
  return out.str();
}
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V1_URL", kUsage);
  if (args.words.size() != 1) return example::usage_error(kUsage);
  const std::string& accession = args.words.front();
  const auto page_size = static_cast<int>(
      args.positive("--page-size", static_cast<std::size_t>(mgnify::v1::kMaxPageSize))
          .value_or(100));
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v1::LegacyClient client(options);

    const mgnify::v1::Study study = client.study(accession);
    std::cout << "# " << study.accession << "\t" << study.study_name.value_or("") << "\t"
              << study.samples_count.value_or(0) << " samples\n";
    std::cout << "accession\tname\tbiome\tlatitude\tlongitude\tcollection_date\ttemperature\n";
    mgnify::ListOptions list;
    list.page_size = page_size;
    auto samples = client.study_samples(study.accession, list);
    std::size_t n = 0;
    for (const auto& s : samples) {
      const auto* temperature = s.metadata("temperature");
      std::cout << s.accession << "\t" << s.sample_name.value_or("") << "\t"
                << s.biome_lineage().value_or("") << "\t" << cell(s.latitude) << "\t"
                << cell(s.longitude) << "\t" << (s.collection_date ? s.collection_date->text : "")
                << "\t" << (temperature ? temperature->value : "") << "\n";
      ++n;
    }
    std::cerr << n << " samples in " << samples.pages_fetched() << " pages\n";
    return 0;
  } catch (const mgnify::NotFoundError& e) {
    std::cerr << "no such study: " << accession << " (" << e.message() << ")\n";
    return 1;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
