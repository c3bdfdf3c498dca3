#pragma once

// Bodies of mgnify/tables/sample_metadata.hpp.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
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

MGNIFY_DECL void SampleMetadataTable::add(std::vector<nlohmann::json> core,
                                          const std::vector<MetadataEntry>& metadata,
                                          const std::vector<std::string>& core_sent_texts) {
  core.resize(core_count_);
  const std::size_t r = rows_.size();
  // Only a text that reads back as the cell's value stands for it.
  const auto keep_text = [&](std::size_t column, const nlohmann::json& value,
                             const std::string& text) {
    if (text.empty() || !value.is_number()) return;
    if (mgnify::detail::number_text_reads_as(text, value))
      sent_texts_[r].emplace_back(column, text);
  };
  SparseRow row;
  row.reserve(core_count_ + metadata.size());
  // Column names this sample has filled, and per key the next "key #N" to
  // try: a key met again takes the first free one, which also steps over a
  // key that is literally "key #2", in steps linear in the sample's entries.
  std::unordered_set<std::string> used;
  std::unordered_map<std::string, int> next_occurrence;
  used.reserve(core_count_ + metadata.size());
  for (std::size_t i = 0; i < core_count_; ++i) {
    used.insert(columns_[i]);
    if (core[i].is_null()) continue;
    row.emplace_back(i, core[i]);
    if (i < core_sent_texts.size()) keep_text(i, core[i], core_sent_texts[i]);
  }
  for (const auto& entry : metadata) {
    std::string name = metadata_column_name(entry.key, entry.unit);
    const auto core_column = index_.find(name);
    // The same text is the same value: v2 repeats lat as 51.5 in one place and "51.5" in another.
    if (core_column != index_.end() && core_column->second < core_count_ &&
        detail::json_cell(core[core_column->second]) == detail::json_cell(entry.value)) {
      continue;
    }
    name = detail::free_name(
        name, [&](const std::string& n) { return used.count(n) != 0; }, next_occurrence);
    used.insert(name);
    const std::size_t at = column(name);
    if (entry.value.is_null()) continue;
    row.emplace_back(at, entry.value);
    keep_text(at, entry.value, entry.sent_text);
  }
  rows_.push_back(std::move(row));
}

MGNIFY_DECL void SampleMetadataTable::add_columns(const std::vector<std::string>& names) {
  for (const auto& name : names) column(name);
}

MGNIFY_DECL std::size_t SampleMetadataTable::column(const std::string& name) {
  const auto it = index_.find(name);
  if (it != index_.end()) return it->second;
  if (columns_.size() >= limits_.max_columns) {
    throw TableLimitError("max_columns", limits_.max_columns, columns_.size() + 1);
  }
  const std::size_t at = columns_.size();
  columns_.push_back(name);
  index_.emplace(name, at);
  return at;
}

MGNIFY_DECL std::vector<nlohmann::json> SampleMetadataTable::dense_row(std::size_t r) const {
  std::vector<nlohmann::json> out(columns_.size());
  for (const auto& [column, value] : rows_.at(r)) out[column] = value;
  return out;
}

MGNIFY_DECL nlohmann::ordered_json SampleMetadataTable::row_json(std::size_t r) const {
  std::vector<const nlohmann::json*> cells(columns_.size(), nullptr);
  for (const auto& [column, value] : rows_.at(r)) cells[column] = &value;
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    // Column names are unique (index_), so they are appended unsearched.
    detail::append_member(object, columns_[i],
                          cells[i] ? nlohmann::ordered_json(*cells[i]) : nlohmann::ordered_json());
  }
  return object;
}

MGNIFY_DECL const std::string* SampleMetadataTable::sent_text(std::size_t r,
                                                              std::size_t column) const {
  const auto it = sent_texts_.find(r);
  if (it == sent_texts_.end()) return nullptr;
  for (const auto& [at, text] : it->second) {
    if (at == column) return &text;
  }
  return nullptr;
}

MGNIFY_DECL mgnify::detail::NumberTexts SampleMetadataTable::row_number_texts(std::size_t r) const {
  mgnify::detail::NumberTexts out;
  const auto it = sent_texts_.find(r);
  if (it == sent_texts_.end()) return out;
  for (const auto& [column, text] : it->second) {
    out.emplace(mgnify::detail::pointer_token(columns_[column]), text);
  }
  return out;
}

MGNIFY_DECL Cell SampleMetadataTable::cell(std::size_t r, std::size_t column,
                                           const nlohmann::json& value) const {
  const std::string* text = sent_texts_.empty() ? nullptr : sent_text(r, column);
  return text ? Cell(*text) : detail::json_cell(value);
}

MGNIFY_DECL void SampleMetadataTable::check_cells() const {
  const std::size_t width = columns_.size();
  if (width != 0 && rows_.size() > limits_.max_cells / width) {
    throw TableLimitError("max_cells", limits_.max_cells, rows_.size() * width);
  }
}

MGNIFY_DECL Table SampleMetadataTable::table() const {
  check_cells();
  Table out;
  out.columns = columns_;
  out.rows.reserve(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    std::vector<Cell> cells(columns_.size());
    for (const auto& [column, value] : rows_[r]) cells[column] = cell(r, column, value);
    out.rows.push_back(std::move(cells));
  }
  return out;
}

MGNIFY_DECL WriteReport SampleMetadataTable::write_delimited(std::ostream& out, char separator,
                                                             const WriteOptions& options) const {
  check_cells();
  WriteReport report;
  const std::vector<Cell> header(columns_.begin(), columns_.end());
  detail::write_delimited_row(out, header, header.size(), separator, options, report);
  std::vector<Cell> cells;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    cells.assign(columns_.size(), std::nullopt);
    for (const auto& [column, value] : rows_[r]) cells[column] = cell(r, column, value);
    detail::write_delimited_row(out, cells, cells.size(), separator, options, report);
  }
  return report;
}

MGNIFY_DECL WriteReport SampleMetadataTable::write_tsv(std::ostream& out,
                                                       const WriteOptions& options) const {
  return write_delimited(out, '\t', options);
}

MGNIFY_DECL WriteReport SampleMetadataTable::write_csv(std::ostream& out,
                                                       const WriteOptions& options) const {
  return write_delimited(out, ',', options);
}

MGNIFY_DECL nlohmann::ordered_json SampleMetadataTable::to_json() const {
  check_cells();
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < rows_.size(); ++r) out.push_back(row_json(r));
  return out;
}

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
  // Numbers a double would respell, by their place in the resource as sent.
  const mgnify::detail::NumberTexts texts =
      mgnify::detail::changed_number_texts(s.resource.raw.text());
  const auto text_at = [&](const std::string& pointer) {
    const auto it = texts.find(pointer);
    return it == texts.end() ? std::string() : it->second;
  };
  std::vector<std::string> core_texts;
  if (!texts.empty()) {
    for (const auto& column : v1_sample_core_columns()) {
      core_texts.push_back(text_at("/attributes" + mgnify::detail::pointer_token(column)));
    }
  }
  std::vector<MetadataEntry> metadata;
  metadata.reserve(s.sample_metadata.size());
  for (std::size_t i = 0; i < s.sample_metadata.size(); ++i) {
    const auto& m = s.sample_metadata[i];
    // The value as the service sent it: SampleMetadata::value is its text,
    // which would turn 12 into "12" and null into "" in the JSON form.
    const nlohmann::json& raw = m.raw.json();
    const auto sent = raw.is_object() ? raw.find("value") : raw.end();
    const bool scalar = raw.is_object() && sent != raw.end() && !sent->is_structured();
    std::string sent_text;
    if (scalar && sent->is_number() && !texts.empty()) {
      sent_text = text_at("/attributes/sample-metadata/" + std::to_string(i) + "/value");
    }
    metadata.push_back(
        {m.key, scalar ? *sent : nlohmann::json(m.value), m.unit, std::move(sent_text)});
  }
  table.add(std::move(core), metadata, core_texts);
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
  const mgnify::detail::NumberTexts texts = mgnify::detail::changed_number_texts(s.raw.text());
  const auto text_at = [&](const std::string& key) {
    const auto it = texts.find("/metadata" + mgnify::detail::pointer_token(key));
    return it == texts.end() ? std::string() : it->second;
  };
  std::vector<std::string> core_texts;
  if (!texts.empty()) {
    for (const auto& column : v2_sample_core_columns()) {
      const bool from_metadata = column == "lat" || column == "lon" || column == "collection_date";
      core_texts.push_back(from_metadata ? text_at(column) : std::string());
    }
  }
  std::vector<MetadataEntry> metadata;
  if (s.metadata.is_object()) {
    for (const auto& [key, value] : s.metadata.items()) {
      metadata.push_back({key, value, std::nullopt, value.is_number() ? text_at(key) : ""});
    }
  }
  table.add(std::move(core), metadata, core_texts);
}

MGNIFY_DECL SampleMetadataTable studies_sample_metadata(const std::vector<StudySamples>& studies,
                                                        TableLimits limits) {
  SampleMetadataTable out({"study_accession"}, limits);
  for (const auto& study : studies) {
    const auto& columns = study.samples.columns();
    // The study's columns first, in its order: those no sample of the study
    // fills are still in the union.
    out.add_columns(columns);
    const auto& rows = study.samples.rows();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<MetadataEntry> cells;
      cells.reserve(rows[r].size());
      for (const auto& [column, value] : rows[r]) {
        const std::string* text = study.samples.sent_text(r, column);
        cells.push_back({columns[column], value, std::nullopt, text ? *text : std::string()});
      }
      out.add({study.study}, cells);
    }
  }
  return out;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
