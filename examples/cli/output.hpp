#pragma once

// Writes records as JSON, NDJSON or TSV, streaming: a list is printed as its
// pages arrive, never collected first.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mgnify_cli {

enum class Format { json, ndjson, tsv };

/// One TSV cell: strings as they are with tab, newline, carriage return and
/// backslash escaped (\t \n \r \\), null as an empty cell, objects and arrays
/// as compact JSON.
std::string tsv_cell(const nlohmann::ordered_json& value);

/// The row a TSV line is made from. A v1 JSON:API resource is flattened to
/// id, type and then its attributes; anything else is used as it is.
nlohmann::ordered_json tsv_view(const nlohmann::json& record);

/// The value at a dotted path ("biome.lineage") in a TSV view, or null.
nlohmann::ordered_json value_at(const nlohmann::ordered_json& view, const std::string& dotted_path);

class Writer {
 public:
  /// `columns` (TSV only) names the columns; empty means every key of the
  /// first record whose value is a scalar (see tsv_view for the order).
  Writer(std::ostream& out, Format format, std::vector<std::string> columns = {});

  /// Starts a list (JSON: an array). Call write() per item, then finish().
  void begin_list();
  void write(const nlohmann::json& record);
  /// Closes the list; a list with no items is still valid output ("[]",
  /// nothing, or a TSV header when the columns are known).
  void finish();
  std::size_t written() const noexcept { return written_; }

 private:
  void write_header();

  std::ostream& out_;
  Format format_;
  std::vector<std::string> columns_;
  bool list_ = false;
  bool header_done_ = false;
  std::size_t written_ = 0;
};

}  // namespace mgnify_cli
