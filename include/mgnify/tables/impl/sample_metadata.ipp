#pragma once

// Bodies of mgnify/tables/sample_metadata.hpp.

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/tables/sample_metadata.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {
namespace detail {

MGNIFY_DECL Cell json_cell(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace detail

MGNIFY_DECL std::string metadata_column_name(const std::string& key,
                                             const std::optional<std::string>& unit) {
  return unit && !unit->empty() ? key + " (" + *unit + ")" : key;
}

namespace detail {

MGNIFY_DECL std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

}  // namespace detail

MGNIFY_DECL std::vector<std::string> v1_sample_core_columns() {
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

MGNIFY_DECL void add_sample(SampleMetadataTable& table, const v1::Sample& s) {
  auto timestamp = [](const std::optional<v1::Timestamp>& t) {
    return t ? nlohmann::json(t->text) : nlohmann::json();
  };
  using detail::optional_value;
  std::vector<nlohmann::json> core = {s.accession.empty() ? s.id() : s.accession,
                                      optional_value(s.sample_name),
                                      optional_value(s.sample_alias),
                                      optional_value(s.sample_desc),
                                      optional_value(s.biosample),
                                      optional_value(s.biome_lineage()),
                                      optional_value(s.latitude),
                                      optional_value(s.longitude),
                                      timestamp(s.collection_date),
                                      optional_value(s.geo_loc_name),
                                      optional_value(s.environment_biome),
                                      optional_value(s.environment_feature),
                                      optional_value(s.environment_material),
                                      optional_value(s.species),
                                      s.host_tax_id.sent(),
                                      timestamp(s.analysis_completed),
                                      timestamp(s.last_update)};
  std::vector<MetadataEntry> metadata;
  metadata.reserve(s.sample_metadata.size());
  for (const auto& m : s.sample_metadata) metadata.push_back({m.key, m.value, m.unit});
  table.add(std::move(core), metadata);
}

MGNIFY_DECL std::vector<std::string> v2_sample_core_columns() {
  return {"accession", "ena_accessions",  "sample_title", "biome", "biome_name", "lat",
          "lon",       "collection_date", "updated_at"};
}

MGNIFY_DECL void add_sample(SampleMetadataTable& table, const v2::SampleWithMetadata& s) {
  auto metadata_value = [&](const char* key) {
    if (!s.metadata.is_object()) return nlohmann::json();
    const auto it = s.metadata.find(key);
    return it == s.metadata.end() ? nlohmann::json() : *it;
  };
  using detail::optional_value;
  std::vector<nlohmann::json> core = {
      s.accession,
      s.ena_accessions.empty() ? nlohmann::json()
                               : nlohmann::json(detail::joined(s.ena_accessions, ",")),
      optional_value(s.sample_title),
      s.biome ? optional_value(s.biome->lineage) : nlohmann::json(),
      s.biome ? nlohmann::json(s.biome->biome_name) : nlohmann::json(),
      metadata_value("lat"),
      metadata_value("lon"),
      metadata_value("collection_date"),
      s.updated_at ? nlohmann::json(s.updated_at->text) : nlohmann::json()};
  std::vector<MetadataEntry> metadata;
  if (s.metadata.is_object()) {
    for (const auto& [key, value] : s.metadata.items()) {
      metadata.push_back({key, value, std::nullopt});
    }
  }
  table.add(std::move(core), metadata);
}

MGNIFY_DECL SampleMetadataTable studies_sample_metadata(const std::vector<StudySamples>& studies) {
  SampleMetadataTable out({"study_accession"});
  for (const auto& study : studies) {
    const auto& columns = study.samples.columns();
    for (const auto& row : study.samples.rows()) {
      std::vector<MetadataEntry> cells;
      cells.reserve(columns.size());
      // Every column is passed, absent cells as null, so that a column no
      // sample of any study fills is still in the union.
      for (std::size_t i = 0; i < columns.size(); ++i) {
        cells.push_back({columns[i], i < row.size() ? row[i] : nlohmann::json(), std::nullopt});
      }
      out.add({study.study}, cells);
    }
  }
  return out;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
