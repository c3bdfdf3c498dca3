#pragma once

// Bodies of mgnify/tables/sample_columns.hpp.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/tables/abundance.hpp"
#include "mgnify/tables/sample_columns.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {
namespace detail {

MGNIFY_DECL const AnalysisOrigin* origin_of(const std::vector<AnalysisOrigin>& origins,
                                            const std::string& analysis) {
  const auto it = std::find_if(origins.begin(), origins.end(),
                               [&](const AnalysisOrigin& o) { return o.analysis == analysis; });
  return it == origins.end() ? nullptr : &*it;
}

}  // namespace detail

MGNIFY_DECL std::vector<MatrixColumn> analysis_columns(const AbundanceMatrix& matrix,
                                                       const std::vector<AnalysisOrigin>& origins) {
  std::vector<MatrixColumn> columns;
  for (const auto& analysis : matrix.analyses()) {
    const AnalysisOrigin* origin = detail::origin_of(origins, analysis);
    columns.push_back({analysis, origin ? origin->sample : std::string(), {analysis}, {analysis}});
  }
  return columns;
}

MGNIFY_DECL SampleMatrix by_sample(const AbundanceMatrix& by_analysis,
                                   const std::vector<AnalysisOrigin>& origins, SampleMerge merge) {
  SampleMatrix out;
  std::map<std::string, std::size_t> column_of;   // sample (or lone analysis) -> column
  std::vector<std::vector<std::size_t>> members;  // column -> analysis indices
  const auto& analyses = by_analysis.analyses();
  for (std::size_t a = 0; a < analyses.size(); ++a) {
    const AnalysisOrigin* origin = detail::origin_of(origins, analyses[a]);
    const std::string sample = origin ? origin->sample : std::string();
    const std::string id = sample.empty() ? analyses[a] : sample;
    const auto [it, added] = column_of.emplace(id, out.columns.size());
    if (added) {
      out.columns.push_back({id, sample, {}, {}});
      members.emplace_back();
    }
    members[it->second].push_back(a);
  }
  std::vector<bool> used(analyses.size(), false);
  for (std::size_t c = 0; c < out.columns.size(); ++c) {
    auto& m = members[c];
    std::sort(m.begin(), m.end(),
              [&](std::size_t x, std::size_t y) { return analyses[x] < analyses[y]; });
    if (merge == SampleMerge::first) {
      used[m.front()] = true;
    } else if (merge == SampleMerge::last) {
      used[m.back()] = true;
    } else {
      for (const std::size_t a : m) used[a] = true;
    }
    for (const std::size_t a : m) {
      out.columns[c].analyses.push_back(analyses[a]);
      if (used[a]) out.columns[c].used.push_back(analyses[a]);
    }
  }

  // A row stays when a used analysis counted it, or when no analysis did (a
  // file listed it with 0): the first column's file lists every such row, so
  // that the rows keep their order.
  const std::size_t rows = by_analysis.feature_count();
  std::vector<bool> keep(rows, false);
  std::vector<bool> counted(rows, false);
  for (const auto& [cell, count] : by_analysis.nonzero()) {
    counted[cell.first] = true;
    if (used[cell.second]) keep[cell.first] = true;
  }
  for (std::size_t r = 0; r < rows; ++r)
    if (!counted[r]) keep[r] = true;

  for (std::size_t c = 0; c < out.columns.size(); ++c) {
    SummaryFile file;
    file.kind = by_analysis.kind();
    file.feature_column = by_analysis.feature_column();
    file.attribute_names = by_analysis.attribute_names();
    for (std::size_t r = 0; r < rows; ++r) {
      if (!keep[r]) continue;
      double count = 0;
      for (const std::size_t a : members[c])
        if (used[a]) count += by_analysis.count(r, a);
      if (count == 0 && c != 0) continue;
      std::vector<std::string> attributes;
      for (std::size_t k = 0; k < file.attribute_names.size(); ++k)
        attributes.push_back(by_analysis.attribute(r, k));
      file.rows.push_back({by_analysis.feature(r), count, std::move(attributes)});
    }
    out.matrix.add(out.columns[c].id, file);
  }
  return out;
}

MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<Table>& samples) {
  static const char* const own[] = {"study_accession", "sample_accession", "run_accession",
                                    "analysis_accession", "experiment_type"};
  std::vector<std::string> names(std::begin(own), std::end(own));
  // (table, column) -> key
  std::vector<std::vector<std::string>> key_of(samples.size());
  for (std::size_t t = 0; t < samples.size(); ++t) {
    const auto& table_columns = samples[t].columns;
    key_of[t].resize(table_columns.size());
    for (std::size_t i = 1; i < table_columns.size(); ++i) {
      std::string key = table_columns[i];
      if (std::find(std::begin(own), std::end(own), key) != std::end(own)) key += " (sample)";
      key_of[t][i] = key;
      if (std::find(names.begin(), names.end(), key) == names.end()) names.push_back(key);
    }
  }
  std::vector<nlohmann::ordered_json> out;
  for (const auto& column : columns) {
    std::vector<const AnalysisOrigin*> used;
    for (const auto& analysis : column.used) {
      if (const AnalysisOrigin* o = detail::origin_of(origins, analysis)) used.push_back(o);
    }
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& name : names) object[name] = "";
    object["study_accession"] = detail::distinct_joined(
        used, [](const AnalysisOrigin& o) -> const std::string& { return o.study; });
    object["sample_accession"] = column.sample;
    object["run_accession"] = detail::distinct_joined(
        used, [](const AnalysisOrigin& o) -> const std::string& { return o.run; });
    std::string analyses;
    for (const auto& a : column.used) analyses += (analyses.empty() ? "" : ",") + a;
    object["analysis_accession"] = analyses;
    object["experiment_type"] = detail::distinct_joined(
        used, [](const AnalysisOrigin& o) -> const std::string& { return o.experiment_type; });
    bool found = column.sample.empty();
    for (std::size_t t = 0; t < samples.size() && !found; ++t) {
      for (const auto& row : samples[t].rows) {
        if (row.empty() || !row[0] || *row[0] != column.sample) continue;
        for (std::size_t i = 1; i < row.size() && i < key_of[t].size(); ++i)
          if (row[i]) object[key_of[t][i]] = *row[i];
        found = true;
        break;
      }
    }
    out.push_back(std::move(object));
  }
  return out;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
