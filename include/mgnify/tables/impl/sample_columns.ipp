#pragma once

// Bodies of mgnify/tables/sample_columns.hpp.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/tables/abundance.hpp"
#include "mgnify/tables/sample_columns.hpp"
#include "mgnify/tables/sample_metadata.hpp"
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
    MatrixColumn column;
    column.id = analysis;
    column.sample = origin ? origin->sample : std::string();
    column.analyses = {analysis};
    column.used = {analysis};
    columns.push_back(std::move(column));
  }
  return columns;
}

MGNIFY_DECL bool older_pipeline(const std::string& a, const std::string& b) {
  const auto parts = [](const std::string& version) {
    std::vector<unsigned long> out;
    std::size_t i = !version.empty() && (version[0] == 'v' || version[0] == 'V') ? 1 : 0;
    while (i < version.size()) {
      unsigned long part = 0;
      bool digits = false;
      for (; i < version.size() && version[i] >= '0' && version[i] <= '9'; ++i) {
        digits = true;
        if (part < 1000000000UL) part = part * 10 + static_cast<unsigned long>(version[i] - '0');
      }
      if (digits) out.push_back(part);
      if (i < version.size()) ++i;  // a '.' or any other separator
    }
    return out;
  };
  if (a.empty() || b.empty()) return a.empty() && !b.empty();
  const auto x = parts(a);
  const auto y = parts(b);
  if (x != y) return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
  return a < b;
}

namespace detail {

/// MGYA accessions of one width compare as text; a longer one is a larger number.
inline bool accession_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

}  // namespace detail

MGNIFY_DECL SampleMatrix by_sample(const AbundanceMatrix& by_analysis,
                                   const std::vector<AnalysisOrigin>& origins, SampleMerge merge) {
  SampleMatrix out;
  const auto& analyses = by_analysis.analyses();
  std::vector<const AnalysisOrigin*> origin(analyses.size());
  for (std::size_t a = 0; a < analyses.size(); ++a)
    origin[a] = detail::origin_of(origins, analyses[a]);
  const auto field = [&](std::size_t a, std::string AnalysisOrigin::*member) -> std::string {
    return origin[a] ? origin[a]->*member : std::string();
  };
  // Whether analysis x is kept over y: the newer pipeline, then the newer analysis.
  const auto preferred = [&](std::size_t x, std::size_t y) {
    const std::string px = field(x, &AnalysisOrigin::pipeline_version);
    const std::string py = field(y, &AnalysisOrigin::pipeline_version);
    if (older_pipeline(py, px)) return true;
    if (older_pipeline(px, py)) return false;
    return detail::accession_less(analyses[y], analyses[x]);
  };

  // Samples (or lone analyses) in the order first met.
  std::map<std::string, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t a = 0; a < analyses.size(); ++a) {
    const std::string sample = field(a, &AnalysisOrigin::sample);
    const auto [it, added] = group_of.emplace(sample.empty() ? analyses[a] : sample, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(a);
  }
  // Each analysis's nonzero cells, in row order, to tell identical files.
  std::vector<std::vector<std::pair<std::size_t, double>>> cells(analyses.size());
  if (merge == SampleMerge::pool_runs) {
    for (const auto& [cell, count] : by_analysis.nonzero())
      cells[cell.second].emplace_back(cell.first, count);
  }

  std::vector<std::vector<std::size_t>> members;  // column -> analysis indices
  std::vector<bool> used(analyses.size(), false);
  for (auto& group : groups) {
    std::sort(group.begin(), group.end(), [&](std::size_t x, std::size_t y) {
      return detail::accession_less(analyses[x], analyses[y]);
    });
    const std::string sample = field(group.front(), &AnalysisOrigin::sample);
    std::vector<LeftOut> left_out;
    std::vector<std::size_t> kept;
    const auto leave_out = [&](std::size_t a, std::size_t instead, LeftOut::Reason reason) {
      left_out.push_back({analyses[a], analyses[instead], reason});
    };
    if (sample.empty() || group.size() == 1) {
      kept = group;
    } else if (merge == SampleMerge::first || merge == SampleMerge::last) {
      const std::size_t chosen = merge == SampleMerge::first ? group.front() : group.back();
      kept = {chosen};
      for (const std::size_t a : group)
        if (a != chosen) leave_out(a, chosen, LeftOut::Reason::not_chosen);
    } else {
      // One analysis per run; an analysis without a run is a run of its own.
      std::vector<std::size_t> candidates;
      std::map<std::string, std::size_t> best_of_run;
      for (const std::size_t a : group) {
        const std::string run = field(a, &AnalysisOrigin::run);
        if (run.empty()) {
          candidates.push_back(a);
          continue;
        }
        const auto [it, added] = best_of_run.emplace(run, a);
        if (!added && preferred(a, it->second)) it->second = a;
      }
      for (const auto& [run, best] : best_of_run) candidates.push_back(best);
      for (const std::size_t a : group) {
        const std::string run = field(a, &AnalysisOrigin::run);
        if (!run.empty() && best_of_run.at(run) != a)
          leave_out(a, best_of_run.at(run), LeftOut::Reason::same_run);
      }
      // The same counts again (one file under two runs) are one run's, not two.
      std::sort(candidates.begin(), candidates.end(),
                [&](std::size_t x, std::size_t y) { return preferred(x, y); });
      for (const std::size_t a : candidates) {
        const auto twin = std::find_if(kept.begin(), kept.end(), [&](std::size_t k) {
          return !cells[a].empty() && cells[a] == cells[k];
        });
        if (twin != kept.end()) {
          leave_out(a, *twin, LeftOut::Reason::identical_counts);
        } else {
          kept.push_back(a);
        }
      }
    }
    for (const std::size_t a : kept) used[a] = true;

    // Runs of different experiment types are never summed: a column per type.
    std::vector<std::string> types;
    for (const std::size_t a : group) {
      if (!used[a]) continue;
      const std::string type = field(a, &AnalysisOrigin::experiment_type);
      if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
    }
    const bool split = merge == SampleMerge::pool_runs && !sample.empty() && types.size() > 1;
    if (!split) types = {std::string()};
    for (const auto& type : types) {
      MatrixColumn column;
      column.sample = sample;
      column.id = sample.empty() ? analyses[group.front()] : split ? sample + "_" + type : sample;
      if (split) column.experiment_type = type;
      const auto in_column = [&](std::size_t a) {
        return !split || field(a, &AnalysisOrigin::experiment_type) == type;
      };
      std::vector<std::size_t> column_members;
      for (const std::size_t a : group) {
        if (!in_column(a)) continue;
        column_members.push_back(a);
        column.analyses.push_back(analyses[a]);
        if (used[a]) column.used.push_back(analyses[a]);
      }
      for (const auto& l : left_out) {
        const auto at = std::find(analyses.begin(), analyses.end(), l.analysis);
        if (in_column(static_cast<std::size_t>(at - analyses.begin())))
          column.left_out.push_back(l);
      }
      out.columns.push_back(std::move(column));
      members.push_back(std::move(column_members));
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

namespace detail {

/// column_metadata over any kind of sample table: `table_columns(t)` names
/// table t's columns, `for_each_row(t, f)` calls f(row) for each of its rows,
/// where row(i) is the text of column i or nullptr.
template <class Tables, class ColumnsOf, class ForEachRow>
std::vector<nlohmann::ordered_json> column_metadata_of(const std::vector<MatrixColumn>& columns,
                                                       const std::vector<AnalysisOrigin>& origins,
                                                       const Tables& samples,
                                                       ColumnsOf table_columns,
                                                       ForEachRow for_each_row,
                                                       const TableLimits& limits) {
  static const char* const own[] = {"study_accession", "sample_accession", "run_accession",
                                    "analysis_accession", "experiment_type"};
  std::vector<std::string> names(std::begin(own), std::end(own));
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < names.size(); ++i) position.emplace(names[i], i);
  // (table, column) -> the key's position in names
  std::vector<std::vector<std::size_t>> key_of(samples.size());
  for (std::size_t t = 0; t < samples.size(); ++t) {
    const std::vector<std::string>& table_columns_t = table_columns(samples[t]);
    key_of[t].assign(table_columns_t.size(), 0);
    for (std::size_t i = 1; i < table_columns_t.size(); ++i) {
      std::string key = table_columns_t[i];
      if (std::find(std::begin(own), std::end(own), key) != std::end(own)) key += " (sample)";
      const auto [it, added] = position.emplace(key, names.size());
      if (added) {
        if (names.size() >= limits.max_columns) {
          throw TableLimitError("max_columns", limits.max_columns, names.size() + 1);
        }
        names.push_back(key);
      }
      key_of[t][i] = it->second;
    }
  }
  if (!columns.empty() && names.size() > limits.max_cells / columns.size()) {
    throw TableLimitError("max_cells", limits.max_cells, names.size() * columns.size());
  }
  // Each sample's cells, found by its accession: the first table that has it.
  std::unordered_map<std::string, std::vector<std::pair<std::size_t, std::string>>> cells_of;
  for (std::size_t t = 0; t < samples.size(); ++t) {
    for_each_row(samples[t], [&](const auto& cell) {
      const std::string* accession = cell(0);
      if (!accession) return;
      const auto [it, added] =
          cells_of.emplace(*accession, std::vector<std::pair<std::size_t, std::string>>());
      if (!added) return;
      for (std::size_t i = 1; i < key_of[t].size(); ++i) {
        if (const std::string* text = cell(i)) it->second.emplace_back(key_of[t][i], *text);
      }
    });
  }
  std::vector<nlohmann::ordered_json> out;
  out.reserve(columns.size());
  std::vector<std::string> values;
  for (const auto& column : columns) {
    std::vector<const AnalysisOrigin*> used;
    for (const auto& analysis : column.used) {
      if (const AnalysisOrigin* o = origin_of(origins, analysis)) used.push_back(o);
    }
    values.assign(names.size(), std::string());
    values[0] = distinct_joined(
        used, [](const AnalysisOrigin& o) -> const std::string& { return o.study; });
    values[1] = column.sample;
    values[2] =
        distinct_joined(used, [](const AnalysisOrigin& o) -> const std::string& { return o.run; });
    for (const auto& a : column.used) values[3] += (values[3].empty() ? "" : ",") + a;
    values[4] = distinct_joined(
        used, [](const AnalysisOrigin& o) -> const std::string& { return o.experiment_type; });
    const auto found = column.sample.empty() ? cells_of.end() : cells_of.find(column.sample);
    if (found != cells_of.end()) {
      for (const auto& [key, text] : found->second) values[key] = text;
    }
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < names.size(); ++k)
      append_member(object, names[k], std::move(values[k]));
    out.push_back(std::move(object));
  }
  return out;
}

}  // namespace detail

MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<SampleMetadataTable>& samples, const TableLimits& limits) {
  return detail::column_metadata_of(
      columns, origins, samples,
      [](const SampleMetadataTable& t) -> const std::vector<std::string>& { return t.columns(); },
      [](const SampleMetadataTable& t, const auto& visit) {
        std::vector<std::optional<std::string>> cells;
        for (const auto& row : t.rows()) {
          cells.assign(t.columns().size(), std::nullopt);
          for (const auto& [column, value] : row) cells[column] = detail::json_cell(value);
          visit([&](std::size_t i) -> const std::string* {
            return i < cells.size() && cells[i] ? &*cells[i] : nullptr;
          });
        }
      },
      limits);
}

MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<Table>& samples, const TableLimits& limits) {
  return detail::column_metadata_of(
      columns, origins, samples,
      [](const Table& t) -> const std::vector<std::string>& { return t.columns; },
      [](const Table& t, const auto& visit) {
        for (const auto& row : t.rows) {
          visit([&](std::size_t i) -> const std::string* {
            return i < row.size() && row[i] ? &*row[i] : nullptr;
          });
        }
      },
      limits);
}

}  // namespace tables
MGNIFY_NAMESPACE_END
