#pragma once

// A table of text cells and its TSV, CSV and JSON forms: the shape the sample
// metadata and abundance tables are written in. An absent cell (the service
// sent no value) stays distinct from empty text until it is written.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/detail/text_escape.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace tables {

/// One cell; std::nullopt where the source had no value.
using Cell = std::optional<std::string>;

struct Table {
  std::vector<std::string> columns;
  /// Each row has one cell per column.
  std::vector<std::vector<Cell>> rows;
};

/// A TSV cell that can neither split its row, shift the columns after it nor
/// drive a terminal: a backslash is doubled; tab, LF and CR become a backslash
/// followed by `t`, `n` or `r`; the other C0 controls, DEL and each byte that
/// is not part of valid UTF-8 become a backslash, `x` and two hex digits; the
/// C1 controls (U+0080 to U+009F) a backslash, `u00` and two hex digits.
/// Other text, non-ASCII UTF-8 included, is kept. tsv_unescape reads it back.
inline std::string tsv_escape(std::string_view text) {
  return mgnify::detail::escape_text(text, mgnify::detail::Escapes::tsv);
}

/// The text tsv_escape was given, from the cell it wrote.
inline std::string tsv_unescape(std::string_view cell) {
  return mgnify::detail::unescape_tsv(cell);
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF,
/// with quotes doubled.
inline std::string csv_escape(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

namespace detail {

template <class Escape>
void write_delimited(std::ostream& out, const Table& table, char separator, Escape escape) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (i) out << separator;
    out << escape(table.columns[i]);
  }
  out << '\n';
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (i) out << separator;
      if (i < row.size() && row[i]) out << escape(*row[i]);
    }
    out << '\n';
  }
}

}  // namespace detail

/// A header line, then one line per row; absent cells are empty.
inline void write_tsv(std::ostream& out, const Table& table) {
  detail::write_delimited(out, table, '\t', [](std::string_view s) { return tsv_escape(s); });
}

/// As write_tsv, comma-separated with RFC 4180 quoting.
inline void write_csv(std::ostream& out, const Table& table) {
  detail::write_delimited(out, table, ',', [](std::string_view s) { return csv_escape(s); });
}

/// An array of one object per row, keys in column order; absent cells are null.
inline nlohmann::ordered_json to_json(const Table& table) {
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
}  // namespace v0
}  // namespace mgnify
