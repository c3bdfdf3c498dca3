// Studies whose title matches a text, with how many samples each has.
//   v2_search_studies [--base-url URL] [text...]   (default text: "human gut")

#include <chrono>
#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_search_studies",
    "[--base-url URL] [TEXT...]",
    "Prints the studies (v2 API) whose title matches TEXT (default \"human gut\"), with how many\n"
    "samples each has. The base URL defaults to $MGNIFY_API_V2_URL, then the public service.",
    {},
    {}};
}  // namespace

int main(int argc, char** argv) {
  const auto args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  std::string text;
  for (const auto& word : args.words) text += (text.empty() ? "" : " ") + word;
  if (text.empty()) text = "human gut";
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    mgnify::v2::V2Client client(options);

    mgnify::ListOptions list;
    list.max_items = 10;
    // One budget for the whole walk, every page included.
    auto studies = client.studies(
        mgnify::v2::StudyQuery().search(text).order(mgnify::v2::StudyOrder::accession), list,
        mgnify::CallOptions().timeout(std::chrono::minutes(2)));
    std::cout << "studies matching '" << text << "': " << studies.total().value_or(0) << "\n";
    for (const auto& study : studies) {
      mgnify::ListOptions one;
      one.page_size = 1;
      const auto samples = client.study_samples(study.accession, one).total().value_or(0);
      std::cout << "  " << study.accession << "  " << samples << " samples  " << study.title;
      if (study.biome && study.biome->lineage) std::cout << "  [" << *study.biome->lineage << "]";
      std::cout << "\n";
    }
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
