#pragma once

// Analysis summary files in the layouts the pipelines write: the per-analysis
// tables that `mgnify abundance-table` merges. The v1 and v2 mocks serve them
// for the summary files their download listings name; the rows are a
// deterministic subset of a fixed pool, so that analyses share some features
// and lack others.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mgnify::mock {

enum class SummaryLayout {
  otu_table,     // "# Constructed from biom file", "# OTU ID\t<marker>\ttaxonomy\ttaxid"
  go_summary,    // "go\tterm\tcategory\tcount"
  pfam_summary,  // "count\tpfam\tdescription"
};

/// The layout of a per-analysis file called `name` ("ERR1_SILVA-SSU.tsv.gz",
/// "ERR1_pfam_summary.tsv.gz", "ERR1_MERGED_FASTQ_GO_abundances.tsv",
/// "ERR1_MERGED_FASTQ_taxonomy_abundances_SSU.tsv"); nullopt for other files.
std::optional<SummaryLayout> summary_layout(const std::string& name);

struct SummaryFeature {
  std::string feature;  // lineage or accession
  std::string description;
  std::uint64_t count = 0;  // total over the file's rows for this feature
};

/// The features the file holds, each once, in the file's order.
std::vector<SummaryFeature> summary_features(const std::string& name, std::uint64_t seed);

/// The file's bytes: its text, in a gzip stream when `name` ends in ".gz".
std::string summary_file(const std::string& name, std::uint64_t seed);

}  // namespace mgnify::mock
