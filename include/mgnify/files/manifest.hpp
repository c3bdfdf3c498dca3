#pragma once

// A manifest: the files of a study, analysis or genome as one TSV table, a
// line per file with its URL, checksum and size, so that a listing can be
// reviewed, edited or split and then downloaded later (or elsewhere). The
// `mgnify downloads --manifest` and `mgnify download --manifest` commands
// write and read this form.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

/// One downloadable file: a manifest line.
struct FileRow {
  std::string accession;  ///< the object the file belongs to (analysis, study or genome)
  std::string alias;      ///< file name
  std::string pipeline_version;
  std::string group;  ///< v1 group-type, v2 download_group
  std::string description;
  std::string file_type;
  std::string experiment_type;
  std::string url;  ///< empty: the service publishes no location (v2 legacy results)
  std::string checksum_algorithm;
  std::string checksum;
  std::optional<std::uint64_t> size_bytes;
};

/// Manifest column names, in the order write_manifest writes them.
inline const std::vector<std::string>& manifest_columns() {
  static const std::vector<std::string> columns = {
      "accession",       "alias", "pipeline_version",   "group",    "description", "file_type",
      "experiment_type", "url",   "checksum_algorithm", "checksum", "size_bytes"};
  return columns;
}

/// The row as an object keyed by manifest_columns(); no size is null.
inline nlohmann::json to_json(const FileRow& row) {
  return nlohmann::json{
      {"accession", row.accession},
      {"alias", row.alias},
      {"pipeline_version", row.pipeline_version},
      {"group", row.group},
      {"description", row.description},
      {"file_type", row.file_type},
      {"experiment_type", row.experiment_type},
      {"url", row.url},
      {"checksum_algorithm", row.checksum_algorithm},
      {"checksum", row.checksum},
      {"size_bytes", row.size_bytes ? nlohmann::json(*row.size_bytes) : nlohmann::json(nullptr)}};
}

namespace detail {

inline std::vector<std::string> manifest_cells(std::string_view line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const auto tab = line.find('\t', start);
    cells.push_back(tables::tsv_unescape(
        line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start)));
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return cells;
}

/// Digits only, and no more than a std::uint64_t holds.
inline std::optional<std::uint64_t> manifest_size(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace detail

/// A header line of manifest_columns(), then a line per row, each cell
/// escaped by tables::tsv_escape (so that read_manifest gets back the same
/// text) and an unknown size as an empty cell.
inline void write_manifest(std::ostream& out, const std::vector<FileRow>& rows) {
  const auto& columns = manifest_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    out << (i ? "\t" : "") << tables::tsv_escape(columns[i]);
  }
  out << '\n';
  for (const auto& row : rows) {
    for (const std::string* text :
         {&row.accession, &row.alias, &row.pipeline_version, &row.group, &row.description,
          &row.file_type, &row.experiment_type, &row.url, &row.checksum_algorithm, &row.checksum}) {
      out << tables::tsv_escape(*text) << '\t';
    }
    if (row.size_bytes) out << std::to_string(*row.size_bytes);  // no locale grouping
    out << '\n';
  }
}

/// Reads a manifest as write_manifest (or `mgnify downloads --format tsv`)
/// writes it. Columns are found by name in the header line, in any order;
/// `accession`, `alias` and `url` are required, any other missing column
/// reads as empty, and unknown columns are ignored. Empty lines are skipped
/// and a CR before the LF is dropped. Throws InvalidArgument naming `name`
/// (the manifest's file name, for the message) when the manifest is empty or
/// lacks a required column, and naming the line (counting the header as line
/// 1) when a row has another number of cells than the header (a truncated or
/// merged row, whose cells would land in the wrong columns), an unsupported
/// checksum algorithm or a size that is not a whole number a std::uint64_t
/// holds.
inline std::vector<FileRow> read_manifest(std::istream& in, const std::string& name) {
  std::string line;
  if (!std::getline(in, line)) throw InvalidArgument("manifest " + name + " is empty");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = detail::manifest_cells(line);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < header.size(); ++i) index[header[i]] = i;
  for (const char* required : {"accession", "alias", "url"}) {
    if (!index.count(required)) {
      throw InvalidArgument("manifest " + name + " has no '" + required + "' column");
    }
  }
  std::vector<FileRow> rows;
  std::size_t line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto cells = detail::manifest_cells(line);
    auto cell = [&](const char* column) -> std::string {
      const auto it = index.find(column);
      return it != index.end() && it->second < cells.size() ? cells[it->second] : std::string();
    };
    const std::string where = "manifest " + name + " line " + std::to_string(line_number) + ": ";
    if (cells.size() != header.size()) {
      throw InvalidArgument(where + std::to_string(cells.size()) + " cells, the header has " +
                            std::to_string(header.size()) + " (a truncated or merged row)");
    }
    FileRow row;
    row.accession = cell("accession");
    row.alias = cell("alias");
    row.pipeline_version = cell("pipeline_version");
    row.group = cell("group");
    row.description = cell("description");
    row.file_type = cell("file_type");
    row.experiment_type = cell("experiment_type");
    row.url = cell("url");
    row.checksum_algorithm = cell("checksum_algorithm");
    row.checksum = cell("checksum");
    // Checked here, where the line is known, rather than when a download is set up.
    try {
      Checksum::from_record(row.checksum_algorithm, row.checksum);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(where + e.what());
    }
    const std::string size = cell("size_bytes");
    if (!size.empty()) {
      row.size_bytes = detail::manifest_size(size);
      if (!row.size_bytes) {
        throw InvalidArgument(where + "size_bytes is not a number: '" + size + "'");
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace files
MGNIFY_NAMESPACE_END
