#pragma once

// A sourmash gather result CSV parsed into rows (genome search, mgnify/genome_search.hpp).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/genome_search/models.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

// ---- gather results (CSV) ------------------------------------------------------

namespace detail {

/// A CSV cell as a number, read in the C locale; nullopt when it is not one.
MGNIFY_DECL std::optional<double> csv_number(const std::string& text);

}  // namespace detail

/// One row of a gather result CSV (sourmash's gather columns). Every cell,
/// known column or not, is also in `cells`, in the file's column order; the
/// column names are held once for all rows (`column_names`) and `cell(name)`
/// finds a cell by its column's name.
struct GatherResultRow {
  std::string name;
  std::string md5;
  std::string filename;
  std::string query_name;
  std::string query_filename;
  std::string query_md5;
  std::optional<double> intersect_bp;
  std::optional<double> f_orig_query;
  std::optional<double> f_match;
  std::optional<double> f_unique_to_query;
  std::optional<double> f_unique_weighted;
  std::optional<double> average_abund;
  std::optional<double> median_abund;
  std::optional<double> std_abund;
  std::optional<double> unique_intersect_bp;
  std::optional<double> remaining_bp;
  std::optional<double> query_bp;
  std::optional<std::int64_t> gather_result_rank;
  /// The text of every cell, in the file's column order.
  std::vector<std::string> cells;
  /// The header row, shared by every row of one result rather than copied into each.
  std::shared_ptr<const std::vector<std::string>> column_names;

  /// The cell of `column`, or nullptr when the file has no such column.
  MGNIFY_DECL const std::string* cell(std::string_view column) const;

  /// Reads the typed fields from `cells` (CSV columns by name).
  MGNIFY_DECL void read_cells();

  template <class Self, class Visitor>
  static void columns(Self& self, Visitor& v) {
    v.column("name", self.name);
    v.column("md5", self.md5);
    v.column("filename", self.filename);
    v.column("query_name", self.query_name);
    v.column("query_filename", self.query_filename);
    v.column("query_md5", self.query_md5);
    v.column("intersect_bp", self.intersect_bp);
    v.column("f_orig_query", self.f_orig_query);
    v.column("f_match", self.f_match);
    v.column("f_unique_to_query", self.f_unique_to_query);
    v.column("f_unique_weighted", self.f_unique_weighted);
    v.column("average_abund", self.average_abund);
    v.column("median_abund", self.median_abund);
    v.column("std_abund", self.std_abund);
    v.column("unique_intersect_bp", self.unique_intersect_bp);
    v.column("remaining_bp", self.remaining_bp);
    v.column("query_bp", self.query_bp);
    v.column("gather_result_rank", self.gather_result_rank);
  }

 private:
  // A cell that is not a number ("", "nan") leaves its field empty; the text stays in cells.
  struct ColumnReader {
    const GatherResultRow& row;
    void column(const char* name, std::string& out) const {
      if (const auto* v = row.cell(name)) out = *v;
    }
    void column(const char* name, std::optional<double>& out) const {
      if (const auto* v = row.cell(name)) out = detail::csv_number(*v);
    }
    void column(const char* name, std::optional<std::int64_t>& out) const {
      if (const auto* v = row.cell(name)) out = detail::integer_from_text<std::int64_t>(*v);
    }
  };
};

/// Bounds on a gather result CSV parsed into memory (gather_results). A cell
/// costs a string object whatever its length, so a CSV of empty cells or short
/// rows holds many times its size: these bound that. A real result has one row
/// per genome matched and sourmash's 30-odd columns, far below every limit; a
/// larger file can still be saved whole with download_gather_results.
struct GatherCsvLimits {
  /// The CSV's size, which also bounds any one cell.
  std::size_t max_bytes = std::size_t{64} * 1024 * 1024;
  /// Cells in the header row.
  std::size_t max_columns = 1024;
  /// Rows after the header.
  std::size_t max_rows = 100'000;
  /// Cells of all rows together (rows times columns).
  std::size_t max_cells = 2'000'000;
};

struct GatherResults {
  /// The header row, in order.
  std::vector<std::string> columns;
  std::vector<GatherResultRow> rows;
};

namespace detail {

/// RFC 4180 records, one at a time: quoted fields may hold commas, quotes ("")
/// and line breaks. Blank lines are skipped.
class CsvRecords {
 public:
  CsvRecords(std::string_view text, const std::string& url) : text_(text), url_(url) {}

  /// The next record into `record` (false at the end). A record of more than
  /// `max_fields` fields throws `too_many()` before the rest is read.
  template <class TooMany>
  bool next(std::vector<std::string>& record, std::size_t max_fields, TooMany&& too_many) {
    record.clear();
    std::string field;
    bool quoted = false;
    bool field_started = false;
    bool ended = false;
    auto end_field = [&] {
      if (record.size() == max_fields) throw too_many();
      record.push_back(std::move(field));
      field.clear();
      field_started = false;
    };
    while (at_ < text_.size() && !ended) {
      const char c = text_[at_++];
      if (quoted) {
        if (c != '"') {
          field.push_back(c);
        } else if (at_ < text_.size() && text_[at_] == '"') {
          field.push_back('"');
          ++at_;
        } else {
          quoted = false;
        }
      } else if (c == '"' && !field_started) {
        quoted = true;
        field_started = true;
      } else if (c == ',') {
        end_field();
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && at_ < text_.size() && text_[at_] == '\n') ++at_;
        end_field();
        if (record.size() == 1 && record[0].empty()) {
          record.clear();  // a blank line
        } else {
          ended = true;
        }
      } else {
        field.push_back(c);
        field_started = true;
      }
    }
    if (quoted) throw DecodeError("", url_, "CSV ends inside a quoted field");
    if (!ended && (field_started || !record.empty())) {
      end_field();
      ended = !(record.size() == 1 && record[0].empty());
    }
    return ended;
  }

 private:
  std::string_view text_;
  const std::string& url_;
  std::size_t at_ = 0;
};

/// Parses a gather result CSV (header row first) within `limits`; past one,
/// DecodeError names the limit.
MGNIFY_DECL GatherResults parse_gather_csv(std::string_view text, const std::string& url,
                                           const GatherCsvLimits& limits = {});

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/genome_search/impl/gather_csv.ipp"
#endif
