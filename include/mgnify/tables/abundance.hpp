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

#include "mgnify/error.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
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
};

namespace detail {

inline std::vector<std::string_view> split_cells(std::string_view line, bool whitespace) {
  std::vector<std::string_view> cells;
  if (!whitespace) {
    std::size_t start = 0;
    for (;;) {
      const auto tab = line.find('\t', start);
      cells.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    return cells;
  }
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) cells.push_back(line.substr(start, i - start));
  }
  return cells;
}

inline std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A non-negative finite count ("12", "1.0"), else nullopt.
inline std::optional<double> parse_count(std::string_view text) {
  text = trimmed(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
      value < 0) {
    return std::nullopt;
  }
  return value;
}

inline bool is_rank_name(const std::string& name) {
  static const char* const ranks[] = {"superkingdom", "kingdom",     "domain", "supergroup",
                                      "division",     "subdivision", "phylum", "class",
                                      "order",        "family",      "genus",  "species"};
  return std::find_if(std::begin(ranks), std::end(ranks),
                      [&](const char* r) { return name == r; }) != std::end(ranks);
}

inline bool is_attribute_name(const std::string& name) {
  return name == "description" || name == "term" || name == "category" || name == "taxid";
}

/// Accumulates rows, summing a feature that appears again.
class RowCollector {
 public:
  explicit RowCollector(SummaryFile& file) : file_(file) {}
  void add(std::string feature, double count, std::vector<std::string> attributes) {
    const auto it = index_.find(feature);
    if (it != index_.end()) {
      file_.rows[it->second].count += count;
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
inline SummaryFile parse_summary(std::string_view text, const std::string& source) {
  SummaryFile file;
  detail::RowCollector rows(file);
  auto fail = [&](std::size_t line, const std::string& why) -> DecodeError {
    return DecodeError("line " + std::to_string(line), source, why);
  };

  enum class Layout { unknown, otu, keyed, krona };
  Layout layout = Layout::unknown;
  std::size_t count_at = 0, feature_at = 0, taxonomy_at = 0, columns = 0;
  std::vector<std::size_t> attribute_at;
  std::optional<std::size_t> taxid_at;

  // A header (with or without '#') names the columns; cells split on tabs,
  // or on runs of spaces where a '#' header has no tab.
  auto read_header = [&](std::string_view header, std::size_t line_number) {
    const bool commented = !header.empty() && header.front() == '#';
    if (commented) header.remove_prefix(1);
    const bool by_space = commented && header.find('\t') == std::string_view::npos;
    std::vector<std::string> names;
    for (auto cell : detail::split_cells(header, by_space))
      names.push_back(detail::lower(detail::trimmed(cell)));
    columns = names.size();
    const auto find = [&](const char* name) -> std::optional<std::size_t> {
      const auto it = std::find(names.begin(), names.end(), name);
      return it == names.end() ? std::nullopt : std::optional<std::size_t>(it - names.begin());
    };
    if (const auto taxonomy = find("taxonomy"); taxonomy && find("otu id")) {
      // "# OTU ID, SSU, taxonomy, taxid": the count is the column after the OTU ID.
      layout = Layout::otu;
      file.kind = FeatureKind::lineage;
      file.feature_column = "taxonomy";
      taxonomy_at = *taxonomy;
      count_at = *find("otu id") + 1;
      taxid_at = find("taxid");
      if (taxid_at) file.attribute_names.push_back("taxid");
      return true;
    }
    auto count = find("count");
    if (!count) count = find("read_count");
    if (!count) return false;
    count_at = *count;
    std::vector<std::string> others;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (i != count_at) others.push_back(names[i]);
    if (!others.empty() && std::all_of(others.begin(), others.end(), detail::is_rank_name)) {
      layout = Layout::krona;
      file.kind = FeatureKind::lineage;
      file.feature_column = "taxonomy";
      return true;
    }
    if (others.empty()) throw fail(line_number, "the header names no feature column");
    layout = Layout::keyed;
    file.kind = FeatureKind::keyed;
    feature_at = count_at == 0 ? 1 : 0;
    file.feature_column = names[feature_at];
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i == count_at || i == feature_at || !detail::is_attribute_name(names[i])) continue;
      attribute_at.push_back(i);
      file.attribute_names.push_back(names[i]);
    }
    return true;
  };

  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (detail::trimmed(line).empty()) continue;

    if (layout == Layout::unknown) {
      if (line.rfind("# Constructed from biom file", 0) == 0) continue;
      const auto first = detail::split_cells(line, false);
      if (line.front() != '#' && detail::parse_count(first[0])) {
        layout = Layout::krona;  // no header: count, then ranks
        file.kind = FeatureKind::lineage;
        file.feature_column = "taxonomy";
        count_at = 0;
      } else {
        if (!read_header(line, line_number))
          throw fail(line_number, "not a summary table this reader knows (no count column)");
        continue;
      }
    } else if (line.front() == '#') {
      continue;
    }

    const auto cells = detail::split_cells(line, false);
    auto count_of = [&](std::size_t at) {
      const auto count = at < cells.size() ? detail::parse_count(cells[at]) : std::nullopt;
      if (!count) {
        throw fail(line_number, "the count is not a non-negative number: '" +
                                    std::string(at < cells.size() ? cells[at] : "") + "'");
      }
      return *count;
    };
    switch (layout) {
      case Layout::otu: {
        if (cells.size() <= std::max(count_at, taxonomy_at))
          throw fail(line_number, "expected " + std::to_string(columns) + " cells, found " +
                                      std::to_string(cells.size()));
        const double count = count_of(count_at);
        const std::string lineage(detail::trimmed(cells[taxonomy_at]));
        if (lineage.empty()) throw fail(line_number, "the taxonomy is empty");
        std::vector<std::string> attributes;
        if (taxid_at)
          attributes.emplace_back(*taxid_at < cells.size() ? cells[*taxid_at] : std::string_view());
        rows.add(lineage, count, std::move(attributes));
        break;
      }
      case Layout::krona: {
        const double count = count_of(count_at);
        std::string lineage;
        std::size_t last = cells.size();
        while (last > 1 && detail::trimmed(cells[last - 1]).empty()) --last;
        for (std::size_t i = 1; i < last; ++i) {
          lineage += (i > 1 ? ";" : "");
          lineage += detail::trimmed(cells[i]);
        }
        if (lineage.empty()) throw fail(line_number, "a count without a lineage");
        rows.add(lineage, count, {});
        break;
      }
      case Layout::keyed: {
        if (cells.size() < columns)
          throw fail(line_number, "expected " + std::to_string(columns) + " cells, found " +
                                      std::to_string(cells.size()));
        const double count = count_of(count_at);
        const std::string feature(detail::trimmed(cells[feature_at]));
        if (feature.empty()) throw fail(line_number, "the " + file.feature_column + " is empty");
        std::vector<std::string> attributes;
        for (const std::size_t at : attribute_at) attributes.emplace_back(cells[at]);
        rows.add(feature, count, std::move(attributes));
        break;
      }
      case Layout::unknown:
        break;
    }
  }
  if (layout == Layout::unknown) throw fail(line_number, "the file is empty");
  return file;
}

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
inline std::string count_text(double count) {
  if (std::floor(count) == count && std::fabs(count) < 9.0e15) {
    return std::to_string(static_cast<long long>(count));
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, count);
  return std::string(buffer, result.ptr);
}

/// The matrix as a table: the feature column, its attributes, then one
/// column of counts per analysis (0 where an analysis lacks the feature).
inline Table to_table(const AbundanceMatrix& matrix) {
  Table table;
  table.columns.push_back(matrix.feature_column());
  for (const auto& name : matrix.attribute_names()) table.columns.push_back(name);
  for (const auto& analysis : matrix.analyses()) table.columns.push_back(analysis);
  for (std::size_t r = 0; r < matrix.feature_count(); ++r) {
    std::vector<Cell> row;
    row.emplace_back(matrix.feature(r));
    for (std::size_t a = 0; a < matrix.attribute_names().size(); ++a) {
      const std::string value = matrix.attribute(r, a);
      row.push_back(value.empty() ? std::nullopt : Cell(value));
    }
    for (std::size_t c = 0; c < matrix.analyses().size(); ++c)
      row.emplace_back(count_text(matrix.count(r, c)));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace tables
}  // namespace v0
}  // namespace mgnify
