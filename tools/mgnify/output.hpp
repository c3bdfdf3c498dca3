#pragma once

// Writes records as JSON, NDJSON or TSV, streaming: a list is printed as its
// pages arrive, never collected first.
//
// Every byte the CLI prints that a server could have chosen goes through one
// escaping routine (mgnify/detail/text_escape.hpp): a hostile or broken
// server must not be able to drive the user's terminal with control sequences
// (cursor moves, screen clears, OSC 52 clipboard writes, a CR that overwrites
// a line). TSV rows are made by mgnify/tables/flatten.hpp; their cells are
// quoted as pandas and readr read them, and escaped for the terminal only when
// stdout is one.

#include <cstddef>
#include <mgnify/detail/number_text.hpp>
#include <mgnify/tables/flatten.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace mgnify_cli {

enum class Format { json, ndjson, tsv };

/// `text` with every control character replaced by a visible escape: tab,
/// newline and CR as \t \n \r, the other C0 controls and DEL as \xHH, the C1
/// controls U+0080..U+009F as \u00HH, and each byte that is not part of valid
/// UTF-8 as \xHH. Other text, including non-ASCII UTF-8, is kept as it is.
/// For diagnostics on stderr and any other text meant for a terminal.
std::string sanitize_for_terminal(std::string_view text);

/// True when stdout is a terminal: only then are data cells escaped for it,
/// since a file or a pipe must receive the server's bytes.
bool stdout_is_terminal();

/// Prints "mgnify: <message>" and a newline on stderr, the message sanitized.
void print_error(std::string_view message);

class Writer {
 public:
  /// `columns` (TSV only) names the columns; empty means every key of the
  /// first record whose value is a scalar (see mgnify::tables::tsv_view for the order).
  /// `options`: TSV cells and column names, as mgnify::tables::write_tsv takes them.
  /// `terminal`: `out` is a terminal, so TSV cells get terminal escaping
  /// (sanitize_for_terminal) before they are quoted.
  Writer(std::ostream& out, Format format, std::vector<std::string> columns = {},
         mgnify::tables::WriteOptions options = {}, bool terminal = false);
  /// When finish() was not reached (a later page failed and the error is on
  /// its way to main), closes an open JSON list, so that stdout still parses
  /// and the exit code alone tells the failure; reports invalid UTF-8.
  ~Writer();

  /// TSV: the order of the default columns, and of unknown keys: the model's
  /// field order (mgnify::tables::field_order).
  void prefer_order(std::vector<std::string> keys) { order_ = std::move(keys); }

  /// TSV: the columns to use when the caller named none (--columns not
  /// given), so that a list with no records still gets its header. Unlike
  /// named columns, one that no record has is not warned about.
  void default_columns(std::vector<std::string> columns) {
    if (!columns_fixed_) {
      columns_ = std::move(columns);
      column_seen_.assign(columns_.size(), true);
      columns_fixed_ = true;
    }
  }

  /// TSV: cells as mgnify::tables::tsv_escape writes them (the download
  /// manifest's form, which read_manifest reads back) instead of quoted as
  /// pandas and readr read them.
  void escape_cells() { escape_cells_ = true; }

  /// TSV: the default columns (no --columns given), taken from `example`
  /// (mgnify::tables::schema_example of the list's model) as a record would
  /// give them, so that 0, 1 or N records get the same header. Keys only
  /// records have (v1 sample metadata, relationship ids) follow, from the
  /// first record; those met only in later records have no column, and
  /// finish() names them in one line on stderr.
  void schema(nlohmann::json example) { schema_ = std::move(example); }

  /// Starts a list (JSON: an array). Call write() per item, then finish().
  void begin_list();
  void write(const nlohmann::json& record);
  /// As write(), but (JSON and NDJSON) a number of `record` that `sent_text`,
  /// the record's JSON as the service sent it, spells in a way a double would
  /// change (1.50, 1e3, -0, 20 digits) is written with that spelling.
  void write(const nlohmann::json& record, std::string_view sent_text);
  /// As write(), keeping the record's key order (JSON and NDJSON; TSV as write()),
  /// and writing the numbers of `sent_numbers` (by JSON Pointer) as they were sent.
  void write(const nlohmann::ordered_json& record,
             const mgnify::detail::NumberTexts& sent_numbers = {});
  /// Closes the list; a list with no items is still valid output ("[]",
  /// nothing, or a TSV header when the columns are known). JSON cannot carry
  /// invalid UTF-8: such bytes are written as U+FFFD, and a warning on stderr
  /// says how many records had them.
  void finish();
  std::size_t written() const noexcept { return written_; }

 private:
  void write_record(const nlohmann::json& record, const mgnify::detail::NumberTexts& sent_numbers);
  void write_header();
  /// `schema`: the view is the list's schema (or a record of a list without
  /// one), whose null values name columns too.
  void take_columns(const nlohmann::ordered_json& view, bool schema);
  void note_unlisted(const nlohmann::ordered_json& view);
  void report_unlisted();
  std::string guarded(const std::string& text) const;
  std::string tsv_field(const nlohmann::ordered_json& value) const;
  void report_replaced();
  void report_unknown_columns();

  std::ostream& out_;
  Format format_;
  std::vector<std::string> columns_;
  mgnify::tables::WriteOptions options_;
  bool terminal_ = false;
  bool escape_cells_ = false;
  bool columns_given_ = false;     // named by the caller (--columns)
  bool columns_fixed_ = false;     // given, or default_columns(): no record adds any
  std::vector<bool> column_seen_;  // some record has this column (even as null)
  std::vector<std::string> order_;
  nlohmann::json schema_;
  std::unordered_set<std::string> column_names_;  // columns_, for note_unlisted
  std::vector<std::string> unlisted_;             // later records' keys without a column
  std::size_t unlisted_count_ = 0;
  bool list_ = false;
  bool header_done_ = false;
  bool finished_ = false;
  std::size_t written_ = 0;
  std::size_t replaced_ = 0;  // records whose invalid UTF-8 became U+FFFD
  bool reported_ = false;
};

}  // namespace mgnify_cli
