#pragma once

// A table of text cells and its TSV, CSV and JSON forms: the shape the sample
// metadata and abundance tables are written in. An absent cell (the service
// sent no value) stays distinct from empty text until it is written. TSV and
// CSV are written as pandas, readr and Python's csv write them, so that their
// default readers give every cell back.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
/// The download manifest (files/manifest.hpp) and tsv_cell use this form;
/// write_tsv quotes instead (quote_field), as pandas and readr expect.
MGNIFY_DECL std::string tsv_escape(std::string_view text);

/// The text tsv_escape was given, from the cell it wrote.
MGNIFY_DECL std::string tsv_unescape(std::string_view cell);

/// A field of a file separated by `separator`, as pandas, readr and Python's
/// csv write it (RFC 4180): quoted when it holds the separator, a quote, CR or
/// LF, with quotes doubled; nothing else is changed.
MGNIFY_DECL std::string quote_field(std::string_view text, char separator);

/// A CSV field: quote_field(text, ',').
inline std::string csv_escape(std::string_view text) { return quote_field(text, ','); }

/// How write_tsv and write_csv write a table.
struct WriteOptions {
  /// Cells and column names that a spreadsheet would evaluate (see
  /// looks_like_formula) get a leading single quote, so that a sample title
  /// such as `=HYPERLINK(...)` is shown as text instead of run. Off: every
  /// cell exactly as it is, for programs that read the file.
  bool formula_guard = true;
};

namespace detail {

/// A decimal number as spreadsheets and CSV readers take it: an optional
/// sign, digits with an optional fraction (or a fraction alone), and an
/// optional exponent. "-12.5", "+3", "-1e-5", "-.5".
MGNIFY_DECL bool is_decimal_number(std::string_view text);

}  // namespace detail

/// Whether a spreadsheet could evaluate `text` as a formula: it starts with
/// `=`, `+`, `-`, `@`, a tab or a CR (the characters OWASP names for CSV
/// injection) and is not a number, so that latitudes such as "-12.5" stay
/// numbers.
MGNIFY_DECL bool looks_like_formula(std::string_view text);

/// `text`, with a single quote in front when looks_like_formula(text).
MGNIFY_DECL std::string neutralise_formula(std::string_view text);

namespace detail {

MGNIFY_DECL void write_delimited(std::ostream& out, const Table& table, char separator,
                                 const WriteOptions& options);

}  // namespace detail

/// A header line, then one line per row, each ended by LF; absent cells are
/// empty. Fields are quoted as quote_field does, and bytes that are not UTF-8
/// become U+FFFD; tabs, line breaks, backslashes and other controls inside a
/// quoted field are the cell's own bytes, so `pandas.read_csv(f, sep="\t")`
/// and `csv.reader(f, delimiter="\t")` read every cell back (both are tested).
/// (Show a table on a terminal through escaping of its own: its cells may hold
/// control sequences.)
MGNIFY_DECL void write_tsv(std::ostream& out, const Table& table, const WriteOptions& options = {});

/// As write_tsv, comma-separated.
MGNIFY_DECL void write_csv(std::ostream& out, const Table& table, const WriteOptions& options = {});

/// An array of one object per row, keys in column order; absent cells are null.
MGNIFY_DECL nlohmann::ordered_json to_json(const Table& table);

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/table.ipp"
#endif
