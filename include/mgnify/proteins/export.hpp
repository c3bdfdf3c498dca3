#pragma once

// What users do with protein records next: FASTA for aligners and HMMER, a
// tab-separated table of Pfam domains for spreadsheets and data frames.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

namespace detail {

// A tab or line break inside a free-text field would shift every later column.
inline std::string tsv_cell(const std::string& text) {
  std::string out = text;
  for (auto& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

inline std::string tsv_cell(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

// The shortest text that reads back as the same double, as in the JSON
// (an e-value of 1.1301790139316117e-22 stays exactly that).
inline std::string tsv_cell(const std::optional<double>& value) {
  return value ? nlohmann::json(*value).dump() : std::string();
}

}  // namespace detail

/// One FASTA record: ">MGYP000261684433 cluster_size=1 full_length=false"
/// then the sequence wrapped at `width` residues (0: one line). Superseded
/// records also carry "superseded_from=<accession>".
inline std::string to_fasta(const Protein& protein, std::size_t width = 60) {
  std::string out = ">" + protein.mgyp;
  if (protein.cluster_size) out += " cluster_size=" + std::to_string(*protein.cluster_size);
  if (protein.full_length)
    out += std::string(" full_length=") + (*protein.full_length ? "true" : "false");
  if (protein.superseded_from) out += " superseded_from=" + *protein.superseded_from;
  out.push_back('\n');
  const std::string& seq = protein.sequence;
  if (width == 0) width = seq.size() == 0 ? 1 : seq.size();
  for (std::size_t pos = 0; pos < seq.size(); pos += width) {
    out.append(seq, pos, width);
    out.push_back('\n');
  }
  return out;
}

inline void write_fasta(std::ostream& os, const std::vector<Protein>& proteins,
                        std::size_t width = 60) {
  for (const auto& p : proteins) os << to_fasta(p, width);
}

/// Column names of the Pfam domain table, in order.
inline const std::vector<std::string>& pfam_tsv_columns() {
  static const std::vector<std::string> columns = {
      "mgyp",      "pfam_accession", "pfam_name", "clan",      "evalue",
      "bit_score", "hmm_start",      "hmm_end",   "env_start", "env_end"};
  return columns;
}

/// The header line of the Pfam domain table (with its newline).
inline std::string pfam_tsv_header() {
  std::string out;
  for (const auto& c : pfam_tsv_columns()) {
    if (!out.empty()) out.push_back('\t');
    out += c;
  }
  out.push_back('\n');
  return out;
}

/// One line per Pfam domain of the protein (no header); null values are empty cells.
inline std::string pfam_tsv_rows(const Protein& protein) {
  std::string out;
  for (const auto& d : protein.pfam_annotations) {
    const std::vector<std::string> cells = {
        detail::tsv_cell(protein.mgyp), detail::tsv_cell(d.accession),
        detail::tsv_cell(d.name),       d.clan ? detail::tsv_cell(*d.clan) : std::string(),
        detail::tsv_cell(d.evalue),     detail::tsv_cell(d.bit_score),
        detail::tsv_cell(d.hmm_start),  detail::tsv_cell(d.hmm_end),
        detail::tsv_cell(d.env_start),  detail::tsv_cell(d.env_end)};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out.push_back('\t');
      out += cells[i];
    }
    out.push_back('\n');
  }
  return out;
}

/// The whole table: header then every domain of every protein.
inline void write_pfam_tsv(std::ostream& os, const std::vector<Protein>& proteins) {
  os << pfam_tsv_header();
  for (const auto& p : proteins) os << pfam_tsv_rows(p);
}

}  // namespace proteins
MGNIFY_NAMESPACE_END
