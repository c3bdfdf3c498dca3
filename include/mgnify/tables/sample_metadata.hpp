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

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/tables/table.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace tables {

/// One metadata entry of a sample.
struct MetadataEntry {
  std::string key;
  Cell value;
  std::optional<std::string> unit;
};

/// "temperature (°C)", or the key alone when there is no unit (or an empty one).
inline std::string metadata_column_name(const std::string& key,
                                        const std::optional<std::string>& unit) {
  return unit && !unit->empty() ? key + " (" + *unit + ")" : key;
}

/// Builds the table one sample at a time (see the column rules above).
class SampleMetadataTable {
 public:
  explicit SampleMetadataTable(std::vector<std::string> core_columns) {
    table_.columns = std::move(core_columns);
    for (std::size_t i = 0; i < table_.columns.size(); ++i) index_[table_.columns[i]] = i;
    core_count_ = table_.columns.size();
  }

  /// `core` has one cell per core column.
  void add(std::vector<Cell> core, const std::vector<MetadataEntry>& metadata) {
    core.resize(core_count_);
    std::vector<Cell> row = std::move(core);
    row.resize(table_.columns.size());
    std::map<std::string, int> seen;  // column name -> occurrences in this sample
    for (std::size_t i = 0; i < core_count_; ++i) seen[table_.columns[i]] = 1;
    for (const auto& entry : metadata) {
      const std::string base = metadata_column_name(entry.key, entry.unit);
      const auto core_column = index_.find(base);
      if (core_column != index_.end() && core_column->second < core_count_ &&
          row[core_column->second] == entry.value) {
        continue;
      }
      const int occurrence = ++seen[base];
      const std::string name = occurrence == 1 ? base : base + " #" + std::to_string(occurrence);
      row[column(name, row)] = entry.value;
    }
    table_.rows.push_back(std::move(row));
  }

  /// The table so far; rows added before a column appeared have it absent.
  Table table() const {
    Table out = table_;
    for (auto& row : out.rows) row.resize(out.columns.size());
    return out;
  }

 private:
  std::size_t column(const std::string& name, std::vector<Cell>& row) {
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    const std::size_t at = table_.columns.size();
    table_.columns.push_back(name);
    index_.emplace(name, at);
    row.resize(table_.columns.size());
    return at;
  }

  Table table_;
  std::map<std::string, std::size_t> index_;
  std::size_t core_count_ = 0;
};

namespace detail {

/// A JSON value as a cell: text as it is, numbers and booleans as JSON
/// writes them, objects and arrays as compact JSON, null as absent.
inline Cell json_cell(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

template <class T>
Cell optional_cell(const std::optional<T>& value) {
  if (!value) return std::nullopt;
  return json_cell(nlohmann::json(*value));
}

inline std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

}  // namespace detail

/// The core columns of a v1 sample: its accession, then the service's
/// attribute names, with `biome` the lineage of its biome relationship.
inline std::vector<std::string> v1_sample_core_columns() {
  return {"accession",
          "sample-name",
          "sample-alias",
          "sample-desc",
          "biosample",
          "biome",
          "latitude",
          "longitude",
          "collection-date",
          "geo-loc-name",
          "environment-biome",
          "environment-feature",
          "environment-material",
          "species",
          "host-tax-id",
          "analysis-completed",
          "last-update"};
}

/// Adds a v1 sample: its attributes and its `sample-metadata` list, with units.
inline void add_sample(SampleMetadataTable& table, const v1::Sample& s) {
  auto timestamp = [](const std::optional<v1::Timestamp>& t) -> Cell {
    return t ? Cell(t->text) : std::nullopt;
  };
  std::vector<Cell> core = {s.accession.empty() ? s.id() : s.accession,
                            s.sample_name,
                            s.sample_alias,
                            s.sample_desc,
                            s.biosample,
                            s.biome_lineage(),
                            detail::optional_cell(s.latitude),
                            detail::optional_cell(s.longitude),
                            timestamp(s.collection_date),
                            s.geo_loc_name,
                            s.environment_biome,
                            s.environment_feature,
                            s.environment_material,
                            s.species,
                            detail::json_cell(s.host_tax_id.sent()),
                            timestamp(s.analysis_completed),
                            timestamp(s.last_update)};
  std::vector<MetadataEntry> metadata;
  metadata.reserve(s.sample_metadata.size());
  for (const auto& m : s.sample_metadata) metadata.push_back({m.key, m.value, m.unit});
  table.add(std::move(core), metadata);
}

/// The core columns of a v2 sample; lat, lon and collection_date come from
/// its metadata, where v2 keeps them.
inline std::vector<std::string> v2_sample_core_columns() {
  return {"accession", "ena_accessions",  "sample_title", "biome", "biome_name", "lat",
          "lon",       "collection_date", "updated_at"};
}

/// Adds a v2 sample: its fields and its `metadata` object (keys in the
/// object's order, which for nlohmann::json is sorted; no units).
inline void add_sample(SampleMetadataTable& table, const v2::SampleWithMetadata& s) {
  auto metadata_value = [&](const char* key) -> Cell {
    if (!s.metadata.is_object()) return std::nullopt;
    const auto it = s.metadata.find(key);
    return it == s.metadata.end() ? std::nullopt : detail::json_cell(*it);
  };
  std::vector<Cell> core = {
      s.accession,
      s.ena_accessions.empty() ? std::nullopt : Cell(detail::joined(s.ena_accessions, ",")),
      s.sample_title,
      s.biome ? s.biome->lineage : std::nullopt,
      s.biome ? Cell(s.biome->biome_name) : std::nullopt,
      metadata_value("lat"),
      metadata_value("lon"),
      metadata_value("collection_date"),
      s.updated_at ? Cell(s.updated_at->text) : std::nullopt};
  std::vector<MetadataEntry> metadata;
  if (s.metadata.is_object()) {
    for (const auto& [key, value] : s.metadata.items()) {
      metadata.push_back({key, detail::json_cell(value), std::nullopt});
    }
  }
  table.add(std::move(core), metadata);
}

/// The table of a list of v1 or v2 samples, in their order.
template <class Sample>
Table sample_metadata_table(const std::vector<Sample>& samples) {
  constexpr bool is_v1 = std::is_same<Sample, v1::Sample>::value;
  SampleMetadataTable table(is_v1 ? v1_sample_core_columns() : v2_sample_core_columns());
  for (const auto& s : samples) add_sample(table, s);
  return table.table();
}

}  // namespace tables
}  // namespace v0
}  // namespace mgnify
