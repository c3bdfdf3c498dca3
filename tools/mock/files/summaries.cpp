#include "summaries.hpp"

#include <string_view>

#include "common/bytes.hpp"
#include "files.hpp"

namespace mgnify::mock {

namespace {

bool summary_name_ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string summary_name_without_gz(const std::string& name) {
  return summary_name_ends_with(name, ".gz") ? name.substr(0, name.size() - 3) : name;
}

struct PoolEntry {
  const char* feature;
  const char* description;  // term, Pfam description or taxid
  const char* extra;        // GO category; OTU id
};

const std::vector<PoolEntry>& lineages() {
  static const std::vector<PoolEntry> pool = {
      {"sk__Bacteria", "2", "1001"},
      {"sk__Bacteria;k__;p__Bacillota;c__Bacilli", "91061", "1002"},
      {"sk__Bacteria;k__;p__Bacillota;c__Clostridia;o__Eubacteriales;f__Lachnospiraceae", "186803",
       "1003"},
      {"sk__Bacteria;k__;p__Bacteroidota;c__Bacteroidia;o__Bacteroidales;f__Bacteroidaceae;g__"
       "Bacteroides",
       "816", "1004"},
      {"sk__Bacteria;k__;p__Pseudomonadota;c__Gammaproteobacteria", "1236", "1005"},
      {"sk__Bacteria;k__;p__Actinomycetota;c__Actinomycetes;o__Bifidobacteriales", "85004", "1006"},
      {"sk__Archaea;k__;p__Methanobacteriota;c__Methanobacteria", "183925", "1007"},
      {"sk__Eukaryota;k__Fungi;p__Ascomycota", "4890", "1008"},
  };
  return pool;
}

const std::vector<PoolEntry>& go_terms() {
  static const std::vector<PoolEntry> pool = {
      {"GO:0003824", "catalytic activity", "molecular_function"},
      {"GO:0003677", "DNA binding", "molecular_function"},
      {"GO:0055085", "transmembrane transport", "biological_process"},
      {"GO:0016491", "oxidoreductase activity", "molecular_function"},
      {"GO:0006412", "translation", "biological_process"},
      {"GO:0016020", "membrane", "cellular_component"},
      {"GO:0005524", "ATP binding", "molecular_function"},
      {"GO:0008152", "metabolic process", "biological_process"},
  };
  return pool;
}

const std::vector<PoolEntry>& pfams() {
  static const std::vector<PoolEntry> pool = {
      {"PF00005", "ABC transporter", ""},
      {"PF00072", "Response regulator receiver domain", ""},
      {"PF00528", "Binding-protein-dependent transport system inner membrane component", ""},
      {"PF02265", "S1/P1 Nuclease", ""},
      {"PF00106", "short chain dehydrogenase", ""},
      {"PF13558", "SbcC/RAD50-like, Walker B motif", ""},
      {"PF00004", "ATPase family associated with various cellular activities (AAA)", ""},
      {"PF07690", "Major Facilitator Superfamily", ""},
  };
  return pool;
}

const std::vector<PoolEntry>& pool_of(SummaryLayout layout) {
  switch (layout) {
    case SummaryLayout::otu_table:
      return lineages();
    case SummaryLayout::go_summary:
      return go_terms();
    case SummaryLayout::pfam_summary:
      return pfams();
  }
  return pfams();
}

// Which pool entries a file lists (at least three, never all of them in every
// file) and their counts.
std::vector<std::pair<std::size_t, std::uint64_t>> picks(std::size_t pool_size,
                                                         std::uint64_t seed) {
  std::vector<std::pair<std::size_t, std::uint64_t>> out;
  for (std::size_t i = 0; i < pool_size; ++i) {
    const std::uint64_t bits = seed >> ((i * 7) % 56);
    if (i < 3 || bits % 3 != 0) out.emplace_back(i, 1 + (seed / (i + 3)) % 900);
  }
  return out;
}

std::string marker_of(const std::string& name) {
  if (name.find("SILVA-LSU") != std::string::npos) return "LSU";
  if (name.find("SILVA-SSU") != std::string::npos) return "SSU";
  return "SSU_rRNA";
}

std::string summary_text(const std::string& name, SummaryLayout layout, std::uint64_t seed) {
  const auto& pool = pool_of(layout);
  std::string out;
  switch (layout) {
    case SummaryLayout::otu_table:
      out = "# Constructed from biom file\n# OTU ID\t" + marker_of(name) + "\ttaxonomy\ttaxid\n";
      break;
    case SummaryLayout::go_summary:
      out = "go\tterm\tcategory\tcount\n";
      break;
    case SummaryLayout::pfam_summary:
      out = "count\tpfam\tdescription\n";
      break;
  }
  for (const auto& [i, count] : picks(pool.size(), seed)) {
    const PoolEntry& e = pool[i];
    switch (layout) {
      case SummaryLayout::otu_table:
        // The first lineage comes as two OTUs: readers sum them.
        if (i == 0 && count > 1) {
          out += std::string(e.extra) + "\t" + std::to_string(count - 1) + ".0\t" + e.feature +
                 "\t" + e.description + "\n";
          out += std::string(e.extra) + "9\t1.0\t" + e.feature + "\t" + e.description + "\n";
        } else {
          out += std::string(e.extra) + "\t" + std::to_string(count) + ".0\t" + e.feature + "\t" +
                 e.description + "\n";
        }
        break;
      case SummaryLayout::go_summary:
        out += std::string(e.feature) + "\t" + e.description + "\t" + e.extra + "\t" +
               std::to_string(count) + "\n";
        break;
      case SummaryLayout::pfam_summary:
        out += std::to_string(count) + "\t" + e.feature + "\t" + e.description + "\n";
        break;
    }
  }
  return out;
}

}  // namespace

std::optional<SummaryLayout> summary_layout(const std::string& name) {
  const std::string plain = summary_name_without_gz(name);
  if (summary_name_ends_with(plain, "_SILVA-SSU.tsv") ||
      summary_name_ends_with(plain, "_SILVA-LSU.tsv") ||
      summary_name_ends_with(plain, "_MERGED_FASTQ_taxonomy_abundances_SSU.tsv")) {
    return SummaryLayout::otu_table;
  }
  if (summary_name_ends_with(plain, "_MERGED_FASTQ_GO_abundances.tsv"))
    return SummaryLayout::go_summary;
  if (summary_name_ends_with(plain, "_pfam_summary.tsv")) return SummaryLayout::pfam_summary;
  return std::nullopt;
}

std::vector<SummaryFeature> summary_features(const std::string& name, std::uint64_t seed) {
  std::vector<SummaryFeature> out;
  const auto layout = summary_layout(name);
  if (!layout) return out;
  const auto& pool = pool_of(*layout);
  for (const auto& [i, count] : picks(pool.size(), seed))
    out.push_back({pool[i].feature, pool[i].description, count});
  return out;
}

std::string summary_file(const std::string& name, std::uint64_t seed) {
  const auto layout = summary_layout(name);
  const std::string text = layout ? summary_text(name, *layout, seed) : std::string();
  return summary_name_ends_with(name, ".gz") ? gzip_stored(text) : text;
}

}  // namespace mgnify::mock
