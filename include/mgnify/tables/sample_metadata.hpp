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
//   text (table()).

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
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
};

namespace detail {

/// A JSON value as a cell: text as it is, numbers and booleans as JSON
/// writes them, objects and arrays as compact JSON, null as absent.
MGNIFY_DECL Cell json_cell(const nlohmann::json& value);

}  // namespace detail

/// "temperature (°C)", or the key alone when there is no unit (or an empty one).
MGNIFY_DECL std::string metadata_column_name(const std::string& key,
                                             const std::optional<std::string>& unit);

/// Builds the table one sample at a time (see the column rules above).
class SampleMetadataTable {
 public:
  explicit SampleMetadataTable(std::vector<std::string> core_columns)
      : columns_(std::move(core_columns)) {
    for (std::size_t i = 0; i < columns_.size(); ++i) index_[columns_[i]] = i;
    core_count_ = columns_.size();
  }

  /// `core` has one value per core column (null: absent).
  void add(std::vector<nlohmann::json> core, const std::vector<MetadataEntry>& metadata) {
    core.resize(core_count_);
    std::vector<nlohmann::json> row = std::move(core);
    row.resize(columns_.size());
    // Column names this sample has filled; a key met again takes the next
    // free "key #N", which also steps over a key that is literally "key #2".
    std::set<std::string> used(columns_.begin(), columns_.begin() + core_count_);
    for (const auto& entry : metadata) {
      const std::string base = metadata_column_name(entry.key, entry.unit);
      const auto core_column = index_.find(base);
      // The same text is the same value: v2 repeats lat as 51.5 in one place and "51.5" in another.
      if (core_column != index_.end() && core_column->second < core_count_ &&
          detail::json_cell(row[core_column->second]) == detail::json_cell(entry.value)) {
        continue;
      }
      std::string name = base;
      for (int occurrence = 2; used.count(name) != 0; ++occurrence) {
        name = base + " #" + std::to_string(occurrence);
      }
      used.insert(name);
      row[column(name, row)] = entry.value;
    }
    rows_.push_back(std::move(row));
  }

  /// The column names, core columns first.
  const std::vector<std::string>& columns() const { return columns_; }

  /// The rows, each value as the service sent it; a row added before a
  /// column appeared is shorter than columns() (the cell is absent).
  const std::vector<std::vector<nlohmann::json>>& rows() const { return rows_; }

  /// The table so far, as text; rows added before a column appeared have it absent.
  Table table() const {
    Table out;
    out.columns = columns_;
    out.rows.reserve(rows_.size());
    for (const auto& row : rows_) {
      std::vector<Cell> cells(columns_.size());
      for (std::size_t i = 0; i < row.size(); ++i) cells[i] = detail::json_cell(row[i]);
      out.rows.push_back(std::move(cells));
    }
    return out;
  }

  /// The table so far as an array of one object per sample, keys in column
  /// order, each value as the service sent it; absent cells are null.
  nlohmann::ordered_json to_json() const {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& row : rows_) {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        object[columns_[i]] = i < row.size() ? nlohmann::ordered_json(row[i]) : nullptr;
      }
      out.push_back(std::move(object));
    }
    return out;
  }

 private:
  std::size_t column(const std::string& name, std::vector<nlohmann::json>& row) {
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    const std::size_t at = columns_.size();
    columns_.push_back(name);
    index_.emplace(name, at);
    row.resize(columns_.size());
    return at;
  }

  std::vector<std::string> columns_;
  std::vector<std::vector<nlohmann::json>> rows_;
  std::map<std::string, std::size_t> index_;
  std::size_t core_count_ = 0;
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
SampleMetadataTable sample_metadata(const std::vector<Sample>& samples) {
  constexpr bool is_v1 = std::is_same<Sample, v1::Sample>::value;
  SampleMetadataTable table(is_v1 ? v1_sample_core_columns() : v2_sample_core_columns());
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
MGNIFY_DECL SampleMetadataTable studies_sample_metadata(const std::vector<StudySamples>& studies);

/// The table of a list of v1 or v2 samples as text cells.
template <class Sample>
Table sample_metadata_table(const std::vector<Sample>& samples) {
  return sample_metadata(samples).table();
}

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/sample_metadata.ipp"
#endif
