// protein_lookup: fetch one protein cluster representative and print it.
//
//   protein_lookup [--base-url URL] [--json] ACCESSION
//
// ACCESSION in any case, zero padding optional: MGYP000261684433 or
// mgyp261684433 (the digits alone are deprecated). The base URL defaults to
// $MGNIFY_PROTEINS_URL, then the public service.

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/proteins.hpp"

namespace {
const example::Usage kUsage{
    "protein_lookup",
    "[--base-url URL] [--json] ACCESSION",
    "Fetches one protein cluster representative and prints its accession, sequence and\n"
    "annotations, or with --json the record as JSON. ACCESSION in any case, zero padding\n"
    "optional: MGYP000261684433 or mgyp261684433 (the digits alone are deprecated). The base\n"
    "URL defaults to $MGNIFY_PROTEINS_URL, then the public service.",
    {"--json"},
    {}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_PROTEINS_URL", kUsage);
  const bool as_json = args.has("--json");
  if (args.words.size() != 1) return example::usage_error(kUsage);
  const std::string& accession = args.words.front();

  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::proteins::ProteinClient client(options);

    const mgnify::proteins::Protein protein = client.protein(accession);

    if (as_json) {
      std::cout << nlohmann::json(protein).dump(2) << "\n";
      return 0;
    }
    std::cout << protein.mgyp << "\n";
    if (protein.superseded()) {
      std::cout << "  superseded:   " << *protein.superseded_from << " was replaced by "
                << protein.mgyp << "\n";
    }
    std::cout << "  length:       " << protein.sequence.size() << " aa\n";
    if (protein.full_length) {
      std::cout << "  full length:  " << (*protein.full_length ? "yes" : "no (fragment)") << "\n";
    }
    if (protein.cluster_size) std::cout << "  cluster size: " << *protein.cluster_size << "\n";
    for (const auto& biome : protein.biomes) {
      std::cout << "  biome:        " << biome.name << " (id " << biome.id << ")\n";
    }
    for (const auto& domain : protein.pfam_annotations) {
      std::cout << "  domain:       " << domain.accession << " " << domain.name;
      if (domain.env_start && domain.env_end) {
        std::cout << " [" << *domain.env_start << "-" << *domain.env_end << "]";
      }
      if (domain.evalue) std::cout << " e-value " << *domain.evalue;
      std::cout << "\n";
    }
    for (const auto& contig : protein.study_assembly_contigs) {
      std::cout << "  found in:     " << contig.study_accession << " / "
                << contig.assembly_accession << " / " << contig.contig_accession;
      if (contig.strand)
        std::cout << " (" << mgnify::proteins::strand_symbol(*contig.strand) << ")";
      std::cout << "\n";
    }
    std::cout << mgnify::proteins::to_fasta(protein);
  } catch (const mgnify::InvalidArgument& e) {
    std::cerr << "invalid input: " << e.what() << "\n";
    return 2;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
