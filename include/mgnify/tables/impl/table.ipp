#pragma once

// Bodies of mgnify/tables/table.hpp.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

MGNIFY_DECL std::string tsv_escape(std::string_view text) {
  return mgnify::detail::escape_text(text, mgnify::detail::Escapes::tsv);
}

MGNIFY_DECL std::string tsv_unescape(std::string_view cell) {
  return mgnify::detail::unescape_tsv(cell);
}

MGNIFY_DECL std::string quote_field(std::string_view text, char separator) {
  const char special[] = {separator, '"', '\r', '\n'};
  if (text.find_first_of(std::string_view(special, sizeof special)) == std::string_view::npos) {
    return std::string(text);
  }
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

namespace detail {

MGNIFY_DECL bool is_decimal_number(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

}  // namespace detail

MGNIFY_DECL bool looks_like_formula(std::string_view text) {
  if (text.empty()) return false;
  switch (text.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
      return !detail::is_decimal_number(text);
    default:
      return false;
  }
}

MGNIFY_DECL std::string neutralise_formula(std::string_view text) {
  return looks_like_formula(text) ? "'" + std::string(text) : std::string(text);
}

namespace detail {

MGNIFY_DECL void write_delimited_row(std::ostream& out, const std::vector<Cell>& cells,
                                     std::size_t width, char separator, const WriteOptions& options,
                                     WriteReport& report) {
  for (std::size_t i = 0; i < width; ++i) {
    if (i) out << separator;
    if (i >= cells.size() || !cells[i]) continue;
    const std::string cell = mgnify::detail::valid_utf8(*cells[i]);
    if (cell != *cells[i]) ++report.replaced_cells;
    out << quote_field(options.formula_guard ? neutralise_formula(cell) : cell, separator);
  }
  out << '\n';
}

MGNIFY_DECL WriteReport write_delimited(std::ostream& out, const Table& table, char separator,
                                        const WriteOptions& options) {
  WriteReport report;
  const std::vector<Cell> header(table.columns.begin(), table.columns.end());
  write_delimited_row(out, header, header.size(), separator, options, report);
  for (const auto& row : table.rows) {
    write_delimited_row(out, row, table.columns.size(), separator, options, report);
  }
  return report;
}

MGNIFY_DECL void append_member(nlohmann::ordered_json& object, const std::string& key,
                               nlohmann::ordered_json value) {
  using Entries = std::vector<std::pair<const std::string, nlohmann::ordered_json>>;
  static_cast<Entries&>(object.get_ref<nlohmann::ordered_json::object_t&>())
      .emplace_back(key, std::move(value));
}

}  // namespace detail

MGNIFY_DECL WriteReport write_tsv(std::ostream& out, const Table& table,
                                  const WriteOptions& options) {
  return detail::write_delimited(out, table, '\t', options);
}

MGNIFY_DECL WriteReport write_csv(std::ostream& out, const Table& table,
                                  const WriteOptions& options) {
  return detail::write_delimited(out, table, ',', options);
}

MGNIFY_DECL nlohmann::ordered_json to_json(const Table& table) {
  // Unique names are appended without ordered_json's linear lookup; a name
  // given twice keeps its last cell, as operator[] gives it.
  std::unordered_set<std::string> names(table.columns.begin(), table.columns.end());
  const bool unique = names.size() == table.columns.size();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      nlohmann::ordered_json cell =
          i < row.size() && row[i] ? nlohmann::ordered_json(*row[i]) : nlohmann::ordered_json();
      if (unique) {
        detail::append_member(object, table.columns[i], std::move(cell));
      } else {
        object[table.columns[i]] = std::move(cell);
      }
    }
    rows.push_back(std::move(object));
  }
  return rows;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
