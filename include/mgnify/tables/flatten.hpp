#pragma once

// Any record (a model's JSON, a v1 JSON:API resource) as one table row: named
// columns in the service's field order, nested values reachable by dotted
// path, and cells that are safe to write as TSV. The `mgnify` tool's
// `--format tsv` and `--columns` are built on this.

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

namespace detail {

struct FieldNames {
  std::vector<std::string>& names;
  template <class T>
  void required(const char* key, const T&) {
    names.emplace_back(key);
  }
  template <class T>
  void optional(const char* key, const T&) {
    names.emplace_back(key);
  }
  template <class T>
  void defaulted(const char* key, const T&) {
    names.emplace_back(key);
  }
  void scalar_text(const char* key, const std::string&) { names.emplace_back(key); }
  // A renamed field takes its column under its current name.
  template <class T>
  void renamed(const char* key, const char*, const T&) {
    names.emplace_back(key);
  }
};

/// Adds the scalar leaves of `object` to `view` as "prefix.key" (recursively
/// for nested objects); arrays are added whole, as values to name by path.
MGNIFY_DECL void add_leaves(nlohmann::ordered_json& view, const std::string& prefix,
                            const nlohmann::json& object);

/// A v1 `sample-metadata` list ({key, value, unit} objects) as metadata.KEY
/// (and metadata.KEY.unit) entries.
MGNIFY_DECL void add_sample_metadata(nlohmann::ordered_json& view, const nlohmann::json& entries);

/// The ids a JSON:API relationship names: one id, a comma-separated list, or null.
MGNIFY_DECL nlohmann::json relationship_ids(const nlohmann::json& relationship);

}  // namespace detail

/// The keys of M's JSON in the service's order ("id", "type" and then the
/// attributes for a v1 model); empty for a model without a field table. The
/// SDK's JSON objects sort their keys, so a table takes its column order from
/// here instead.
template <class M>
std::vector<std::string> field_order() {
  std::vector<std::string> names;
  detail::FieldNames visitor{names};
  if constexpr (mgnify::detail::has_fields<M>::value) {
    if constexpr (mgnify::detail::wraps_resource<M>::value) names = {"id", "type"};
    const M model{};
    M::fields(model, visitor);
  }
  return names;
}

/// The row a record is made into. A v1 JSON:API resource becomes id, type,
/// its attributes and, per relationship that names objects, their ids
/// (`biome`); anything else is used as it is, and a value that is not an
/// object becomes {"value": record}. Nested objects are kept and their scalar
/// leaves added as dotted keys ("biome.lineage"), and a v1 `sample-metadata`
/// list as one "metadata.KEY" per entry (with "metadata.KEY.unit" where it
/// has a unit), so that metadata can be named by key. Keys follow `order`
/// (field_order; the rest sorted after), with the identifier ("mgyp", else
/// "accession") first.
MGNIFY_DECL nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                            const std::vector<std::string>& order = {});

/// The value at a dotted path ("biome.lineage", "downloads.0.alias") in a
/// view, or nullptr where there is none (a null value is found, and is not
/// nullptr). A key that itself holds dots ("metadata.depth") is matched whole
/// before the path is split.
MGNIFY_DECL const nlohmann::ordered_json* find_value(const nlohmann::ordered_json& view,
                                                     const std::string& dotted_path);

/// As find_value, with null where there is no value.
MGNIFY_DECL nlohmann::ordered_json value_at(const nlohmann::ordered_json& view,
                                            const std::string& dotted_path);

/// One TSV cell: a string as tsv_escape writes it; null as an empty cell;
/// numbers and booleans as JSON; objects and arrays as compact JSON (with DEL
/// and C1 controls escaped, invalid UTF-8 as U+FFFD). An empty string and
/// null both give an empty cell; find_value tells them apart.
MGNIFY_DECL std::string tsv_cell(const nlohmann::ordered_json& value);

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/flatten.ipp"
#endif
