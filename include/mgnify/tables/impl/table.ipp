#pragma once

// Bodies of mgnify/tables/table.hpp.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
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

MGNIFY_DECL void write_delimited(std::ostream& out, const Table& table, char separator,
                                 const WriteOptions& options) {
  const auto write_cell = [&](const std::string& text) {
    const std::string cell = mgnify::detail::valid_utf8(text);
    out << quote_field(options.formula_guard ? neutralise_formula(cell) : cell, separator);
  };
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (i) out << separator;
    write_cell(table.columns[i]);
  }
  out << '\n';
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (i) out << separator;
      if (i < row.size() && row[i]) write_cell(*row[i]);
    }
    out << '\n';
  }
}

}  // namespace detail

MGNIFY_DECL void write_tsv(std::ostream& out, const Table& table, const WriteOptions& options) {
  detail::write_delimited(out, table, '\t', options);
}

MGNIFY_DECL void write_csv(std::ostream& out, const Table& table, const WriteOptions& options) {
  detail::write_delimited(out, table, ',', options);
}

MGNIFY_DECL nlohmann::ordered_json to_json(const Table& table) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      object[table.columns[i]] =
          i < row.size() && row[i] ? nlohmann::ordered_json(*row[i]) : nlohmann::ordered_json();
    }
    rows.push_back(std::move(object));
  }
  return rows;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
