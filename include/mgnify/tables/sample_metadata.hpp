#pragma once

// A study's samples as one table (what mg-toolkit `original_metadata` and
// MGnifyR `getMetadata` give): one row per sample, the sample's own
// attributes first, then one column per metadata key.
//
// Column rules:
// - A key with a unit is the column "key (unit)"; v1 sends units, v2 does not.
//   The same key with two units is two columns, so no value is read in the
//   wrong unit.
// - A key that a sample carries twice keeps both values: the second goes to
//   "key #2", the third to "key #3".
// - A metadata entry named like a core column (v2 repeats sample_title, lat,
//   lon and collection_date in its metadata) adds nothing when its value is the
//   core cell's; a different value goes to "name #2".
// - Metadata columns come in the order their keys are first met.
// - A sample without a key has an absent cell there (empty in TSV/CSV, null in
//   JSON); nothing is filled in.
// - Each cell keeps the value the service sent (a number, a boolean, an
//   object), so that JSON output has the service's types; TSV and CSV get its
//   text (table()). A number whose text a double would change (1.50, 1e3,
//   -0, more digits than a double holds) keeps the text it was sent with
//   (sent_text()), in TSV and CSV cells and, through row_number_texts(), in JSON.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

/// One metadata entry of a sample; a null value is an absent cell.
struct MetadataEntry {
  std::string key;
  nlohmann::json value;
  std::optional<std::string> unit;
  /// The value's JSON text as sent, when writing `value` back would change it
  /// (mgnify/detail/number_text.hpp); else empty.
  std::string sent_text{};
};

namespace detail {

/// A JSON value as a cell: text as it is, numbers and booleans as JSON
/// writes them, objects and arrays as compact JSON, null as absent.
MGNIFY_DECL Cell json_cell(const nlohmann::json& value);

}  // namespace detail

/// "temperature (°C)", or the key alone when there is no unit (or an empty one).
MGNIFY_DECL std::string metadata_column_name(const std::string& key,
                                             const std::optional<std::string>& unit);

/// Builds the table one sample at a time (see the column rules above). Rows
/// are held sparsely, as the cells their samples sent, so memory follows the
/// response and not rows times columns; the dense forms are written row by
/// row (write_tsv, write_csv, row_json).
class SampleMetadataTable {
 public:
  /// A row's cells: (column index, value) in the order they were added.
  using SparseRow = std::vector<std::pair<std::size_t, nlohmann::json>>;

  explicit SampleMetadataTable(std::vector<std::string> core_columns, TableLimits limits = {})
      : columns_(std::move(core_columns)), limits_(limits) {
    for (std::size_t i = 0; i < columns_.size(); ++i) index_.emplace(columns_[i], i);
    core_count_ = columns_.size();
  }

  /// `core` has one value per core column (null: absent); `core_sent_texts`,
  /// when given, the sent text of each (as MetadataEntry::sent_text). Throws
  /// TableLimitError when a new column would pass TableLimits::max_columns.
  MGNIFY_DECL void add(std::vector<nlohmann::json> core, const std::vector<MetadataEntry>& metadata,
                       const std::vector<std::string>& core_sent_texts = {});

  /// Adds the columns of `names` the table lacks, in order, with no cells.
  MGNIFY_DECL void add_columns(const std::vector<std::string>& names);

  /// The column names, core columns first.
  const std::vector<std::string>& columns() const { return columns_; }

  /// The number of rows (samples).
  std::size_t size() const { return rows_.size(); }

  /// The rows as added, each value as the service sent it.
  const std::vector<SparseRow>& rows() const { return rows_; }

  /// Row `r` with one value per column (null: absent).
  MGNIFY_DECL std::vector<nlohmann::json> dense_row(std::size_t r) const;

  /// Row `r` as one object, keys in column order, absent cells null.
  MGNIFY_DECL nlohmann::ordered_json row_json(std::size_t r) const;

  /// The text a cell's number was sent with, when writing the value back
  /// would change it (see the column rules); else nullptr.
  MGNIFY_DECL const std::string* sent_text(std::size_t r, std::size_t column) const;

  /// Row `r`'s sent texts by their place in row_json(r), for
  /// detail::json_text_keeping_numbers.
  MGNIFY_DECL mgnify::detail::NumberTexts row_number_texts(std::size_t r) const;

  /// Throws TableLimitError when the dense forms would pass TableLimits::max_cells.
  MGNIFY_DECL void check_cells() const;

  /// The whole table as text cells (check_cells() first: it is dense).
  MGNIFY_DECL Table table() const;

  /// The table as write_tsv / write_csv (tables/table.hpp) write a Table,
  /// one row at a time.
  MGNIFY_DECL WriteReport write_tsv(std::ostream& out, const WriteOptions& options = {}) const;
  MGNIFY_DECL WriteReport write_csv(std::ostream& out, const WriteOptions& options = {}) const;

  /// The table as an array of row_json objects (check_cells() first).
  MGNIFY_DECL nlohmann::ordered_json to_json() const;

 private:
  MGNIFY_DECL std::size_t column(const std::string& name);
  MGNIFY_DECL Cell cell(std::size_t r, std::size_t column, const nlohmann::json& value) const;
  MGNIFY_DECL WriteReport write_delimited(std::ostream& out, char separator,
                                          const WriteOptions& options) const;

  std::vector<std::string> columns_;
  std::vector<SparseRow> rows_;
  // Row -> (column, text): the few cells whose sent text differs from their value's.
  std::unordered_map<std::size_t, std::vector<std::pair<std::size_t, std::string>>> sent_texts_;
  std::unordered_map<std::string, std::size_t> index_;
  std::size_t core_count_ = 0;
  TableLimits limits_;
};

namespace detail {

template <class T>
nlohmann::json optional_value(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

MGNIFY_DECL std::string joined(const std::vector<std::string>& parts, const char* separator);

}  // namespace detail

/// The core columns of a v1 sample: its accession, then the service's
/// attribute names, with `biome` the lineage of its biome relationship.
MGNIFY_DECL std::vector<std::string> v1_sample_core_columns();

/// Adds a v1 sample: its attributes and its `sample-metadata` list, with units.
MGNIFY_DECL void add_sample(SampleMetadataTable& table, const v1::Sample& s);

/// The core columns of a v2 sample; lat, lon and collection_date come from
/// its metadata, where v2 keeps them.
MGNIFY_DECL std::vector<std::string> v2_sample_core_columns();

/// Adds a v2 sample: its fields and its `metadata` object (keys in the
/// object's order, which for nlohmann::json is sorted; no units).
MGNIFY_DECL void add_sample(SampleMetadataTable& table, const v2::SampleWithMetadata& s);

/// The table of a list of v1 or v2 samples, in their order, with each
/// value as the service sent it (table() for TSV and CSV, to_json() for JSON).
template <class Sample>
SampleMetadataTable sample_metadata(const std::vector<Sample>& samples, TableLimits limits = {}) {
  constexpr bool is_v1 = std::is_same<Sample, v1::Sample>::value;
  SampleMetadataTable table(is_v1 ? v1_sample_core_columns() : v2_sample_core_columns(), limits);
  for (const auto& s : samples) add_sample(table, s);
  return table;
}

/// One study's samples, for studies_sample_metadata.
struct StudySamples {
  std::string study;
  SampleMetadataTable samples;
};

/// The samples of several studies as one table: the column
/// `study_accession` (the study a row came from), then the union of the
/// studies' columns in the order first met, one row per sample of each
/// study in turn. A sample shared by two studies is a row of each; a column
/// a study's samples lack is absent in their rows. No cell is changed or
/// left out (a sample's own field named `study_accession` with another
/// value goes to `study_accession #2`).
MGNIFY_DECL SampleMetadataTable studies_sample_metadata(const std::vector<StudySamples>& studies,
                                                        TableLimits limits = {});

/// The table of a list of v1 or v2 samples as text cells.
template <class Sample>
Table sample_metadata_table(const std::vector<Sample>& samples) {
  const SampleMetadataTable table = sample_metadata(samples);
  table.check_cells();
  return table.table();
}

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/sample_metadata.ipp"
#endif
