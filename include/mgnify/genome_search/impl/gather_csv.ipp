#pragma once

// Bodies of the gather result CSV parser (mgnify/genome_search/gather_csv.hpp).

#include <cmath>
#include <cstddef>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/genome_search/gather_csv.hpp"
#include "mgnify/genome_search/models.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL std::optional<double> csv_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  in >> value;
  if (in.fail() || !in.eof() || !std::isfinite(value)) return std::nullopt;
  return value;
}

MGNIFY_DECL GatherResults parse_gather_csv(std::string_view text, const std::string& url,
                                           const GatherCsvLimits& limits) {
  auto too_large = [&url](const std::string& json_path, const std::string& what) {
    return DecodeError(json_path, url,
                       what +
                           ", past the gather_results limit: save the file with "
                           "download_gather_results");
  };
  if (text.size() > limits.max_bytes) {
    throw too_large("", "the CSV is " + std::to_string(text.size()) + " bytes, more than " +
                            std::to_string(limits.max_bytes) + " bytes");
  }
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  CsvRecords records(text, url);
  GatherResults out;
  std::vector<std::string> record;
  if (!records.next(record, limits.max_columns, [&] {
        return too_large("/columns", "the CSV header has more than " +
                                         std::to_string(limits.max_columns) + " columns");
      })) {
    return out;
  }
  out.columns = std::move(record);
  const auto names = std::make_shared<const std::vector<std::string>>(out.columns);
  const std::size_t width = out.columns.size();
  record.reserve(width);
  std::size_t cells = 0;
  for (std::size_t r = 0;; ++r) {
    const std::string at = "/rows/" + std::to_string(r);
    if (!records.next(record, width, [&] {
          return DecodeError(at, url,
                             "CSV row has more cells than the header's " + std::to_string(width));
        })) {
      break;
    }
    if (record.size() != width) {
      throw DecodeError(at, url,
                        "CSV row has " + std::to_string(record.size()) + " cells, the header " +
                            std::to_string(width));
    }
    if (r == limits.max_rows) {
      throw too_large(at, "the CSV has more than " + std::to_string(limits.max_rows) + " rows");
    }
    cells += width;
    if (cells > limits.max_cells) {
      throw too_large(at, "the CSV has more than " + std::to_string(limits.max_cells) + " cells");
    }
    GatherResultRow row;
    row.cells = std::move(record);
    row.column_names = names;
    row.read_cells();
    out.rows.push_back(std::move(row));
    record.reserve(width);
  }
  return out;
}

}  // namespace detail

MGNIFY_DECL const std::string* GatherResultRow::cell(std::string_view column) const {
  if (!column_names) return nullptr;
  const auto& names = *column_names;
  for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) {
    if (names[i] == column) return &cells[i];
  }
  return nullptr;
}

MGNIFY_DECL void GatherResultRow::read_cells() {
  ColumnReader reader{*this};
  columns(*this, reader);
}

MGNIFY_NAMESPACE_END
