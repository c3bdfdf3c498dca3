#include "downloads.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include "data.hpp"
#include "files/files.hpp"
#include "files/summaries.hpp"

namespace mgnify::mock::v1data {

namespace {

struct Spec {
  const char* suffix;
  const char* format;
  const char* ext;
  const char* label;
  const char* group;
};

const Spec& spec_of(std::size_t k) {
  static const Spec specs[] = {
      {"_GO_abundances", "TSV", "tsv", "Complete GO annotation", "Functional analysis"},
      {"_taxonomy_abundances_SSU", "TSV", "tsv", "Taxonomic assignments SSU",
       "Taxonomic analysis SSU rRNA"},
      {"_CDS", "FASTA", "fasta.gz", "Predicted CDS", "Sequence data"},
  };
  return specs[k % 3];
}

// Everything but the digest: cheap, and what the digest is computed from.
DownloadFile describe(DownloadOwner kind, std::size_t owner, std::size_t k) {
  const Spec& spec = spec_of(k);
  DownloadFile f{};
  f.format = spec.format;
  f.extension = spec.ext;
  f.label = spec.label;
  f.group = spec.group;
  // Pre-sized so that a listing page costs little to render: tables of a few
  // kilobytes, sequence files of tens.
  const std::size_t vary = (owner * 131 + k * 977) % 4000;
  const bool sequence = std::string(spec.ext).find("fasta") != std::string::npos;
  f.size = sequence ? 12000 + vary * 5 : 1500 + vary;
  switch (kind) {
    case DownloadOwner::study:
      f.pipeline = k == 0 ? "4.1" : "5.0";
      f.alias = fmt("ERP%06llu", 100000 + owner) + spec.suffix + "_v" + f.pipeline + "." + spec.ext;
      // Files of the 4.1 era carry no digest on the real service; later ones do.
      f.checksum_algorithm = k == 0 ? "" : "MD5";
      break;
    case DownloadOwner::analysis:
      f.pipeline = analysis_pipeline(owner);
      f.alias = run_accession(owner) + "_MERGED_FASTQ" + spec.suffix + "." + spec.ext;
      f.checksum_algorithm = "SHA256";
      break;
    case DownloadOwner::genome:
      f.alias = genome_accession(owner) + (k % 2 ? ".faa" : ".fna");
      f.size = 20000 + vary * 7;
      f.checksum_algorithm = "SHA1";
      break;
    case DownloadOwner::catalogue:
      f.alias = std::string(catalogues()[owner].id) + "_metadata.tsv";
      break;
  }
  return f;
}

std::string bytes_of(DownloadOwner kind, std::size_t owner, std::size_t k, const DownloadFile& f) {
  // An analysis's summary tables in the pipeline's layout, for the tools that merge them.
  // The analyses of MGYS00000001 keep generic tables: tests pin their digests.
  if (kind == DownloadOwner::analysis && owner >= kBigStudySamples && summary_layout(f.alias)) {
    return summary_file(f.alias,
                        seed_of("v1/analysis/" + std::to_string(owner) + "/" + std::to_string(k)));
  }
  return generated_file(f.alias, f.size,
                        seed_of("v1/" + std::to_string(static_cast<int>(kind)) + "/" +
                                std::to_string(owner) + "/" + std::to_string(k)));
}

}  // namespace

std::size_t download_count(DownloadOwner kind) {
  switch (kind) {
    case DownloadOwner::study:
      return 3;
    case DownloadOwner::analysis:
      return 3;
    case DownloadOwner::genome:
      return 2;
    case DownloadOwner::catalogue:
      return 1;
  }
  return 0;
}

DownloadFile download_file(DownloadOwner kind, std::size_t owner, std::size_t k) {
  DownloadFile f = describe(kind, owner, k);
  if (f.checksum_algorithm.empty()) return f;
  // A listing renders each of its files' digests; pages are re-rendered per
  // query string, so the digests are kept (a few dozen bytes each, bounded).
  static std::mutex mutex;
  static std::map<std::tuple<int, std::size_t, std::size_t>, std::string> digests;
  const auto key = std::make_tuple(static_cast<int>(kind), owner, k);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = digests.find(key);
    if (it != digests.end()) {
      f.checksum = it->second;
      return f;
    }
  }
  f.checksum = hex_digest(f.checksum_algorithm, bytes_of(kind, owner, k, f));
  std::lock_guard<std::mutex> lock(mutex);
  if (digests.size() > 200000) digests.clear();
  digests.emplace(key, f.checksum);
  return f;
}

std::shared_ptr<const std::string> download_bytes(DownloadOwner kind, std::size_t owner,
                                                  std::size_t k) {
  return std::make_shared<const std::string>(bytes_of(kind, owner, k, describe(kind, owner, k)));
}

}  // namespace mgnify::mock::v1data
