#pragma once

// Per-analysis summary files (the counts of each taxon or function an analysis
// found) and their merge into one feature-by-analysis matrix, as MGnifyR's
// `getResult` builds it.
//
// Layouts read (each as the pipelines write it; the first line decides):
// - OTU tables converted from BIOM: "# Constructed from biom file", then
//   "# OTU ID <tab> SSU <tab> taxonomy <tab> taxid". The feature is the
//   taxonomy lineage; OTUs with the same lineage are summed. taxid is kept.
// - Headed tables with a `count` (or `read_count`) column: V6 GO and GO-slim
//   (go, term, category, count), InterPro (count, interpro_accession,
//   description), Pfam (count, pfam, description), KEGG (count, ko,
//   description). The feature is the first column that is not the count;
//   term, category and description are kept as feature attributes. Other
//   columns (coverage depth and breadth) measure one analysis, not the
//   feature, and are not read.
// - Krona text: a count, then one cell per rank ("sk__Bacteria <tab> k__ <tab>
//   p__Bacillota"), with or without a "# Count Superkingdom ..." header. The
//   feature is the ranks joined by ';'.
// Blank lines and further '#' comment lines are skipped; anything else that
// does not fit the layout (too few cells, a count that is not a non-negative
// number) is a DecodeError naming the line.
//
// In the merged matrix an analysis without a feature has the count 0. That
// zero is a real zero only because every summary file lists each feature its
// analysis found: a feature missing from one file was not found there.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

/// How a summary file names its features.
enum class FeatureKind {
  lineage,  // taxonomy lineages (OTU tables, Krona text)
  keyed,    // accessions: GO terms, InterPro, Pfam, KEGG orthologs
};

struct SummaryRow {
  std::string feature;
  double count = 0;
  /// Attribute values, parallel to SummaryFile::attribute_names ("" where a
  /// row has none).
  std::vector<std::string> attributes;
};

struct SummaryFile {
  FeatureKind kind = FeatureKind::keyed;
  /// The feature column's name: "taxonomy" for lineages, else the file's own
  /// header ("go", "interpro_accession", "pfam", ...).
  std::string feature_column;
  std::vector<std::string> attribute_names;
  /// One row per feature, in the file's order (repeated features summed).
  std::vector<SummaryRow> rows;
  /// Features listed on more than one line whose attributes differ between
  /// those lines (two descriptions of one GO term): the counts are summed,
  /// the first line's attributes kept. A caller says so; nothing else of a
  /// file is changed.
  std::vector<std::string> differing_attributes;
};

namespace detail {

MGNIFY_DECL std::vector<std::string_view> split_cells(std::string_view line, bool whitespace);

MGNIFY_DECL std::string_view trimmed(std::string_view s);

MGNIFY_DECL std::string lower(std::string_view s);

/// A non-negative finite count ("12", "1.0"), else nullopt.
MGNIFY_DECL std::optional<double> parse_count(std::string_view text);

MGNIFY_DECL bool is_rank_name(const std::string& name);

MGNIFY_DECL bool is_attribute_name(const std::string& name);

/// Accumulates rows, summing a feature that appears again.
class RowCollector {
 public:
  explicit RowCollector(SummaryFile& file) : file_(file) {}
  void add(std::string feature, double count, std::vector<std::string> attributes) {
    const auto it = index_.find(feature);
    if (it != index_.end()) {
      SummaryRow& first = file_.rows[it->second];
      first.count += count;
      if (attributes != first.attributes &&
          std::find(file_.differing_attributes.begin(), file_.differing_attributes.end(),
                    first.feature) == file_.differing_attributes.end()) {
        file_.differing_attributes.push_back(first.feature);
      }
      return;
    }
    index_.emplace(feature, file_.rows.size());
    file_.rows.push_back({std::move(feature), count, std::move(attributes)});
  }

 private:
  SummaryFile& file_;
  std::map<std::string, std::size_t> index_;
};

}  // namespace detail

/// Parses one summary file's text (see the layouts above). `source` names the
/// file in errors (e.g. "MGYA00000002 ERR3000000_SILVA-SSU.tsv.gz").
MGNIFY_DECL SummaryFile parse_summary(std::string_view text, const std::string& source);

/// Features by analyses: rows in the order features are first met, columns
/// in the order analyses are added.
class AbundanceMatrix {
 public:
  /// Adds one analysis's summary as a column. Throws InvalidArgument for an
  /// analysis added twice or a file whose features are of another kind.
  void add(const std::string& analysis, const SummaryFile& file) {
    if (std::find(columns_.begin(), columns_.end(), analysis) != columns_.end())
      throw InvalidArgument("analysis " + analysis + " is already in the matrix");
    if (columns_.empty() && features_.empty()) {
      kind_ = file.kind;
      feature_column_ = file.feature_column;
    } else if (file.kind != kind_) {
      throw InvalidArgument(
          "analysis " + analysis + " has " +
          (file.kind == FeatureKind::lineage ? "taxonomy lineages" : "accession-keyed features") +
          ", the others do not");
    }
    const std::size_t column = columns_.size();
    columns_.push_back(analysis);
    std::vector<std::size_t> attribute_slot;
    for (const auto& name : file.attribute_names) attribute_slot.push_back(attribute(name));
    for (const auto& row : file.rows) {
      auto it = index_.find(row.feature);
      if (it == index_.end()) {
        it = index_.emplace(row.feature, features_.size()).first;
        features_.push_back({row.feature, {}});
      }
      Feature& feature = features_[it->second];
      feature.attributes.resize(attribute_names_.size());
      for (std::size_t a = 0; a < attribute_slot.size() && a < row.attributes.size(); ++a) {
        std::string& slot = feature.attributes[attribute_slot[a]];
        if (slot.empty()) slot = row.attributes[a];
      }
      if (row.count != 0) counts_[{it->second, column}] += row.count;
    }
  }

  FeatureKind kind() const noexcept { return kind_; }
  const std::string& feature_column() const noexcept { return feature_column_; }
  const std::vector<std::string>& analyses() const noexcept { return columns_; }
  const std::vector<std::string>& attribute_names() const noexcept { return attribute_names_; }
  std::size_t feature_count() const noexcept { return features_.size(); }
  const std::string& feature(std::size_t row) const { return features_.at(row).id; }
  /// The attribute value of a feature ("" when no file gave one).
  std::string attribute(std::size_t row, std::size_t attribute) const {
    const auto& values = features_.at(row).attributes;
    return attribute < values.size() ? values[attribute] : std::string();
  }
  /// The count, 0 where the analysis did not list the feature.
  double count(std::size_t row, std::size_t column) const {
    const auto it = counts_.find({row, column});
    return it == counts_.end() ? 0.0 : it->second;
  }
  /// The non-zero cells as (row, column) -> count, row-major.
  const std::map<std::pair<std::size_t, std::size_t>, double>& nonzero() const noexcept {
    return counts_;
  }
  /// Whether every count is a whole number (the BIOM element type is then int).
  bool integral() const {
    return std::all_of(counts_.begin(), counts_.end(),
                       [](const auto& cell) { return std::floor(cell.second) == cell.second; });
  }

 private:
  struct Feature {
    std::string id;
    std::vector<std::string> attributes;
  };

  std::size_t attribute(const std::string& name) {
    const auto it = std::find(attribute_names_.begin(), attribute_names_.end(), name);
    if (it != attribute_names_.end())
      return static_cast<std::size_t>(it - attribute_names_.begin());
    attribute_names_.push_back(name);
    return attribute_names_.size() - 1;
  }

  FeatureKind kind_ = FeatureKind::keyed;
  std::string feature_column_;
  std::vector<std::string> columns_;
  std::vector<std::string> attribute_names_;
  std::vector<Feature> features_;
  std::map<std::string, std::size_t> index_;
  std::map<std::pair<std::size_t, std::size_t>, double> counts_;
};

/// A count as text: whole numbers without a fraction ("12", not "12.0").
MGNIFY_DECL std::string count_text(double count);

/// The matrix as a table: the feature column, its attributes, then one
/// column of counts per analysis (0 where an analysis lacks the feature).
MGNIFY_DECL Table to_table(const AbundanceMatrix& matrix);

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/abundance.ipp"
#endif
