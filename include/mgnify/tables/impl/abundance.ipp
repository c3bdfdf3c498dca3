#pragma once

// Bodies of mgnify/tables/abundance.hpp.

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
#include "mgnify/tables/abundance.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {
namespace detail {

MGNIFY_DECL std::vector<std::string_view> split_cells(std::string_view line, bool whitespace) {
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

MGNIFY_DECL std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

MGNIFY_DECL std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

MGNIFY_DECL std::optional<double> parse_count(std::string_view text) {
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

MGNIFY_DECL bool is_rank_name(const std::string& name) {
  static const char* const ranks[] = {"superkingdom", "kingdom",     "domain", "supergroup",
                                      "division",     "subdivision", "phylum", "class",
                                      "order",        "family",      "genus",  "species"};
  return std::find_if(std::begin(ranks), std::end(ranks),
                      [&](const char* r) { return name == r; }) != std::end(ranks);
}

MGNIFY_DECL bool is_attribute_name(const std::string& name) {
  return name == "description" || name == "term" || name == "category" || name == "taxid";
}

}  // namespace detail

MGNIFY_DECL SummaryFile parse_summary(std::string_view text, const std::string& source) {
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
        // The ranks are every other cell, wherever the header put the count.
        std::string lineage;
        std::size_t last = cells.size();
        while (last > 0 && (last - 1 == count_at || detail::trimmed(cells[last - 1]).empty()))
          --last;
        bool first_rank = true;
        for (std::size_t i = 0; i < last; ++i) {
          if (i == count_at) continue;
          lineage += first_rank ? "" : ";";
          lineage += detail::trimmed(cells[i]);
          first_rank = false;
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

MGNIFY_DECL std::string count_text(double count) {
  if (std::floor(count) == count && std::fabs(count) < 9.0e15) {
    return std::to_string(static_cast<long long>(count));
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, count);
  return std::string(buffer, result.ptr);
}

MGNIFY_DECL Table to_table(const AbundanceMatrix& matrix) {
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
MGNIFY_NAMESPACE_END
