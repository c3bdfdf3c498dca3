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
#include <unordered_map>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

/// Bounds on a table whose shape the service's submitters decide: a study
/// whose samples each carry keys no other sample has makes a column per key
/// and a cell per sample and column, so the written table grows as samples
/// times keys while the response grows as their sum. A table past a bound
/// fails with TableLimitError before anything is written. The sample
/// metadata tables (sample_metadata.hpp) and a BIOM file's column metadata
/// (sample_columns.hpp) are held to them.
struct TableLimits {
  /// Columns, a table's own ones included (the CLI's --max-columns).
  std::size_t max_columns = 100000;
  /// Rows times columns: the cells a TSV, CSV or JSON form writes, absent
  /// ones included (the CLI's --max-cells). 20 million cells are at least
  /// 20 MB of TSV, and a few GB as JSON values in memory.
  std::size_t max_cells = 20000000;
};

/// A table would pass one of its TableLimits.
class TableLimitError : public Error {
 public:
  MGNIFY_ERROR_CLONE(TableLimitError)
  /// `limit`: the TableLimits member, e.g. "max_columns".
  TableLimitError(std::string limit, std::size_t bound, std::size_t needed)
      : Error("the table would have " + std::to_string(needed) + " " +
              (limit == "max_columns" ? "columns" : "cells") + ", more than its limit of " +
              std::to_string(bound) + " (TableLimits::" + limit +
              "; raise it to write such a table)"),
        limit_(std::move(limit)),
        bound_(bound),
        needed_(needed) {}

  const std::string& limit() const noexcept { return limit_; }
  std::size_t bound() const noexcept { return bound_; }
  std::size_t needed() const noexcept { return needed_; }

 private:
  std::string limit_;
  std::size_t bound_;
  std::size_t needed_;
};

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

/// What writing a table changed, so that it can be said: TSV and CSV
/// carry UTF-8 only.
struct WriteReport {
  /// Cells (and column names) whose bytes were not UTF-8, written with U+FFFD.
  std::size_t replaced_cells = 0;
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

MGNIFY_DECL WriteReport write_delimited(std::ostream& out, const Table& table, char separator,
                                        const WriteOptions& options);

/// The name a key met again takes: `base` while `taken(base)` is false,
/// else the first free "base #2", "base #3", ... `next` keeps per base where
/// its numbering stopped, so that N occurrences cost N steps in all, plus one
/// per name taken otherwise (a key that is literally "base #2").
template <class Taken>
std::string free_name(const std::string& base, const Taken& taken,
                      std::unordered_map<std::string, int>& next) {
  if (!taken(base)) return base;
  int& number = next.emplace(base, 2).first->second;
  std::string name;
  do {
    name = base + " #" + std::to_string(number++);
  } while (taken(name));
  return name;
}

/// One line of `width` fields, as write_delimited writes each row; adds the
/// cells it had to change to `report`.
MGNIFY_DECL void write_delimited_row(std::ostream& out, const std::vector<Cell>& cells,
                                     std::size_t width, char separator, const WriteOptions& options,
                                     WriteReport& report);

/// Adds `key` at the end of `object` (an ordered object) without looking
/// for it first: nlohmann's lookup in an ordered object is a linear scan,
/// so a row of C unique columns built with operator[] costs C^2. The
/// caller knows `key` is not there yet.
MGNIFY_DECL void append_member(nlohmann::ordered_json& object, const std::string& key,
                               nlohmann::ordered_json value);

}  // namespace detail

/// A header line, then one line per row, each ended by LF; absent cells are
/// empty. Fields are quoted as quote_field does, and bytes that are not UTF-8
/// become U+FFFD; tabs, line breaks, backslashes and other controls inside a
/// quoted field are the cell's own bytes, so `pandas.read_csv(f, sep="\t")`
/// and `csv.reader(f, delimiter="\t")` read every cell back (both are tested).
/// (Show a table on a terminal through escaping of its own: its cells may hold
/// control sequences.)
MGNIFY_DECL WriteReport write_tsv(std::ostream& out, const Table& table,
                                  const WriteOptions& options = {});

/// As write_tsv, comma-separated.
MGNIFY_DECL WriteReport write_csv(std::ostream& out, const Table& table,
                                  const WriteOptions& options = {});

/// An array of one object per row, keys in column order; absent cells are null.
MGNIFY_DECL nlohmann::ordered_json to_json(const Table& table);

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/table.ipp"
#endif
