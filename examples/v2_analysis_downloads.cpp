// One analysis and its taxonomy downloads, grouped by download group.
//   v2_analysis_downloads [--base-url URL] [MGYA accession]   (default MGYA00000002)

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_analysis_downloads",
    "[--base-url URL] [MGYA_ACCESSION]",
    "Prints one analysis (v2 API, default MGYA00000002) and its taxonomy downloads, grouped by\n"
    "download group. The base URL defaults to $MGNIFY_API_V2_URL, then the public service.",
    {},
    {}};
}  // namespace

int main(int argc, char** argv) {
  const auto args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  if (args.words.size() > 1) return example::usage_error(kUsage);
  const std::string accession = args.words.empty() ? "MGYA00000002" : args.words.front();
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    mgnify::v2::V2Client client(options);

    const auto analysis = client.analysis(accession);
    std::cout << analysis.accession << " (study " << analysis.study_accession << ", "
              << analysis.experiment_type.text << ", pipeline "
              << (analysis.pipeline_version ? analysis.pipeline_version->text : std::string("?"))
              << ")\n";
    const auto taxonomy = mgnify::v2::group_downloads(analysis.downloads_in_group("taxonomies."));
    if (taxonomy.empty()) std::cout << "  no taxonomy downloads\n";
    for (const auto& [group, files] : taxonomy) {
      std::cout << "  " << group << "\n";
      for (const auto& file : files) {
        std::cout << "    " << file.alias << " (" << file.file_type.text << ")  "
                  << (file.has_url() ? *file.url : std::string("no public URL (legacy data)"))
                  << "\n";
      }
    }
    std::cout << "  other downloads: "
              << analysis.downloads.size() - analysis.downloads_in_group("taxonomies.").size()
              << "\n";
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
