#pragma once

// Writes records as JSON, NDJSON or TSV, streaming: a list is printed as its
// pages arrive, never collected first.
//
// Every byte the CLI prints that a server could have chosen goes through one
// escaping routine (output.cpp): a hostile or broken server must not be able
// to drive the user's terminal with control sequences (cursor moves, screen
// clears, OSC 52 clipboard writes, a CR that overwrites a line).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mgnify_cli {

enum class Format { json, ndjson, tsv };

/// `text` with every control character replaced by a visible escape: tab,
/// newline and CR as \t \n \r, the other C0 controls and DEL as \xHH, the C1
/// controls U+0080..U+009F as \u00HH, and each byte that is not part of valid
/// UTF-8 as \xHH. Other text, including non-ASCII UTF-8, is kept as it is.
/// For diagnostics on stderr and any other text meant for a terminal.
std::string sanitize_for_terminal(std::string_view text);

/// Prints "mgnify: <message>" and a newline on stderr, the message sanitized.
void print_error(std::string_view message);

/// One TSV cell: strings escaped as by sanitize_for_terminal, and a backslash
/// doubled so that the escapes can be read back (read_manifest); null as an
/// empty cell, objects and arrays as compact JSON (with DEL and C1 controls as
/// \u00HH, invalid UTF-8 as U+FFFD).
std::string tsv_cell(const nlohmann::ordered_json& value);

/// The inverse of tsv_cell's escaping of a string.
std::string tsv_unescape(std::string_view cell);

/// The row a TSV line is made from. A v1 JSON:API resource becomes id, type,
/// its attributes and, per relationship that names objects, their ids
/// (`biome`); anything else is used as it is. Nested objects are kept and
/// their scalar leaves added as dotted keys ("biome.lineage"), and a v1
/// `sample-metadata` list as one "metadata.KEY" per entry (with
/// "metadata.KEY.unit" where it has a unit), so that metadata can be named by
/// key. Keys follow `order` (the model's field order; the rest sorted after),
/// with the identifier ("mgyp", else "accession") first.
nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                const std::vector<std::string>& order = {});

/// The value at a dotted path ("biome.lineage", "downloads.0.alias") in a TSV
/// view, or null. A key that itself holds dots ("metadata.depth") is matched whole.
nlohmann::ordered_json value_at(const nlohmann::ordered_json& view, const std::string& dotted_path);

class Writer {
 public:
  /// `columns` (TSV only) names the columns; empty means every key of the
  /// first record whose value is a scalar (see tsv_view for the order).
  Writer(std::ostream& out, Format format, std::vector<std::string> columns = {});
  /// When finish() was not reached (a later page failed and the error is on
  /// its way to main), closes an open JSON list, so that stdout still parses
  /// and the exit code alone tells the failure; reports invalid UTF-8.
  ~Writer();

  /// TSV: the order of the default columns, and of unknown keys: the model's
  /// field order (field_order.hpp).
  void prefer_order(std::vector<std::string> keys) { order_ = std::move(keys); }

  /// Starts a list (JSON: an array). Call write() per item, then finish().
  void begin_list();
  void write(const nlohmann::json& record);
  /// As write(), keeping the record's key order (JSON and NDJSON; TSV as write()).
  void write(const nlohmann::ordered_json& record);
  /// Closes the list; a list with no items is still valid output ("[]",
  /// nothing, or a TSV header when the columns are known). JSON cannot carry
  /// invalid UTF-8: such bytes are written as U+FFFD, and a warning on stderr
  /// says how many records had them.
  void finish();
  std::size_t written() const noexcept { return written_; }

 private:
  void write_header();
  void report_replaced();
  void report_unknown_columns();

  std::ostream& out_;
  Format format_;
  std::vector<std::string> columns_;
  bool columns_given_ = false;     // named by the caller, not taken from the first record
  std::vector<bool> column_seen_;  // some record has this column (even as null)
  std::vector<std::string> order_;
  bool list_ = false;
  bool header_done_ = false;
  bool finished_ = false;
  std::size_t written_ = 0;
  std::size_t replaced_ = 0;  // records whose invalid UTF-8 became U+FFFD
  bool reported_ = false;
};

}  // namespace mgnify_cli
