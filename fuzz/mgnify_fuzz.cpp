// Every libFuzzer target in one binary: the target is the name the binary runs
// under (scripts/fuzz.sh links each target's name to it). One translation unit
// compiles the parsers and the sanitizer instrumentation the targets share once
// instead of once per target. Each target checks that whatever bytes arrive, its
// decoder returns a value or throws mgnify::Error (see fuzz_support.hpp).
//   mgnify_fuzz             lists the target names, one per line
//   <target> [libFuzzer arguments]
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "mgnify/error_body.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v1/studies.hpp"
#include "mgnify/v2/analyses.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/v2/page.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"

namespace {

using TargetFunction = void (*)(const std::uint8_t* data, std::size_t size);

// parse_error_body must accept any bytes without throwing.
void parse_any_error_body(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const mgnify::ErrorBody parsed = mgnify::parse_error_body(body);
  (void)parsed.message.size();
}

struct Target {
  std::string_view name;
  TargetFunction run;
};

// The names are those of the committed corpora (fuzz/corpus/<name>.tar.gz) and of
// the seed folders fuzz/seeds.cpp writes.
constexpr Target targets[] = {
    {"fuzz_error_body", parse_any_error_body},
    {"fuzz_protein_record", fuzz_support::decode_as<mgnify::proteins::Protein>},
    {"fuzz_protein_search_hits", fuzz_support::decode_as<std::vector<mgnify::proteins::SearchHit>>},
    {"fuzz_v1_resource", fuzz_support::decode_as<mgnify::v1::Resource>},
    {"fuzz_v1_samples_page", fuzz_support::decode_as<mgnify::v1::ListPage<mgnify::v1::Sample>>},
    {"fuzz_v1_studies_page", fuzz_support::decode_as<mgnify::v1::ListPage<mgnify::v1::Study>>},
    {"fuzz_v1_study_document", fuzz_support::decode_as<mgnify::v1::Document<mgnify::v1::Study>>},
    {"fuzz_v2_analyses_page",
     fuzz_support::decode_as<mgnify::v2::CountedPage<mgnify::v2::Analysis>>},
    {"fuzz_v2_analysis_detail", fuzz_support::decode_as<mgnify::v2::AnalysisDetail>},
    {"fuzz_v2_genome_detail", fuzz_support::decode_as<mgnify::v2::GenomeDetail>},
    {"fuzz_v2_sample_detail", fuzz_support::decode_as<mgnify::v2::SampleDetail>},
    {"fuzz_v2_study_detail", fuzz_support::decode_as<mgnify::v2::StudyDetail>},
};

TargetFunction selected = nullptr;

}  // namespace

// libFuzzer calls this before it reads its own flags, and child processes it starts
// (-fork, -merge) run under the same name, so they fuzz the same target.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  std::string_view invoked = (*argv)[0];
  invoked.remove_prefix(invoked.find_last_of('/') + 1);  // npos + 1 == 0: no folder
  for (const Target& target : targets) {
    if (target.name == invoked) {
      selected = target.run;
      return 0;
    }
  }
  // Under any other name the binary only lists its targets; asked to fuzz, it fails.
  const bool listing = *argc == 1;
  std::ostream& out = listing ? std::cout : std::cerr;
  if (!listing) out << invoked << ": not a fuzz target name; run one of these names:\n";
  for (const Target& target : targets) out << target.name << '\n';
  std::exit(listing ? 0 : 2);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  selected(data, size);
  return 0;
}
