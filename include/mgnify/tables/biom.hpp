#pragma once

// An abundance matrix as a BIOM 1.0 JSON document
// (http://biom-format.org/documentation/format_versions/biom-1.0.html), the
// form QIIME, phyloseq (import_biom) and mia (importBIOM) read.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mgnify/tables/abundance.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

struct BiomOptions {
  /// The table's id, e.g. "MGYS00000001 taxonomies.closed_reference.ssu".
  std::string id;
  std::string generated_by = "mgnify-cpp " MGNIFY_VERSION_STRING;
  /// Creation time as "YYYY-MM-DDThh:mm:ss" (UTC), the ISO 8601 forms
  /// `biom validate-table` accepts (it rejects a zone suffix such as "Z"); the
  /// caller supplies it so that output can be reproduced.
  std::string date;
  /// Each column's metadata (an object), parallel to the matrix's columns;
  /// empty, or a null entry: the column has none.
  std::vector<nlohmann::ordered_json> column_metadata;
};

namespace detail {

inline nlohmann::ordered_json split_lineage(const std::string& lineage) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  std::size_t start = 0;
  for (;;) {
    const auto semicolon = lineage.find(';', start);
    ranks.push_back(lineage.substr(
        start, semicolon == std::string::npos ? std::string::npos : semicolon - start));
    if (semicolon == std::string::npos) break;
    start = semicolon + 1;
  }
  return ranks;
}

}  // namespace detail

/// A sparse BIOM 1.0 table: taxonomy matrices are an "OTU table" whose rows
/// carry metadata.taxonomy as a list of ranks; accession-keyed ones are a
/// "Function table" whose rows carry their attributes (description, term,
/// category) as metadata. Columns carry options.column_metadata.
inline nlohmann::ordered_json to_biom(const AbundanceMatrix& matrix, const BiomOptions& options) {
  const bool lineage = matrix.kind() == FeatureKind::lineage;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < matrix.feature_count(); ++r) {
    nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
    if (lineage) metadata["taxonomy"] = detail::split_lineage(matrix.feature(r));
    for (std::size_t a = 0; a < matrix.attribute_names().size(); ++a) {
      const std::string value = matrix.attribute(r, a);
      if (!value.empty()) metadata[matrix.attribute_names()[a]] = value;
    }
    rows.push_back({{"id", matrix.feature(r)},
                    {"metadata", metadata.empty() ? nlohmann::ordered_json() : metadata}});
  }
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < matrix.analyses().size(); ++c) {
    columns.push_back(
        {{"id", matrix.analyses()[c]},
         {"metadata", c < options.column_metadata.size() ? options.column_metadata[c]
                                                         : nlohmann::ordered_json()}});
  }

  const bool integral = matrix.integral();
  nlohmann::ordered_json data = nlohmann::ordered_json::array();
  for (const auto& [cell, count] : matrix.nonzero()) {
    data.push_back({cell.first, cell.second,
                    integral ? nlohmann::ordered_json(static_cast<long long>(count))
                             : nlohmann::ordered_json(count)});
  }
  nlohmann::ordered_json biom;
  biom["id"] = options.id;
  biom["format"] = "Biological Observation Matrix 1.0.0";
  // The value the reference implementation's validator requires.
  biom["format_url"] = "http://biom-format.org";
  biom["type"] = lineage ? "OTU table" : "Function table";
  biom["generated_by"] = options.generated_by;
  biom["date"] = options.date;
  biom["rows"] = std::move(rows);
  biom["columns"] = std::move(columns);
  biom["matrix_type"] = "sparse";
  biom["matrix_element_type"] = integral ? "int" : "float";
  biom["shape"] = {matrix.feature_count(), matrix.analyses().size()};
  biom["data"] = std::move(data);
  return biom;
}

}  // namespace tables
MGNIFY_NAMESPACE_END
