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

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
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

// Typed v1 models list their JSON:API attributes in a table of their own.
template <class M, class = void>
struct has_attribute_table : std::false_type {};
template <class M>
struct has_attribute_table<
    M, std::void_t<decltype(M::attributes(std::declval<const M&>(), std::declval<FieldNames&>()))>>
    : std::true_type {};

/// Adds the scalar leaves of `object` to `view` as "prefix.key" (recursively
/// for nested objects); arrays are added whole, as values to name by path.
inline void add_leaves(nlohmann::ordered_json& view, const std::string& prefix,
                       const nlohmann::json& object) {
  for (const auto& [key, value] : object.items()) {
    const std::string path = prefix + "." + key;
    if (value.is_object()) {
      add_leaves(view, path, value);
    } else if (!view.contains(path)) {
      view[path] = value;
    }
  }
}

/// A v1 `sample-metadata` list ({key, value, unit} objects) as metadata.KEY
/// (and metadata.KEY.unit) entries.
inline void add_sample_metadata(nlohmann::ordered_json& view, const nlohmann::json& entries) {
  for (const auto& entry : entries) {
    if (!entry.is_object() || !entry.contains("key") || !entry["key"].is_string()) continue;
    const std::string name = "metadata." + entry["key"].get<std::string>();
    view[name] = entry.value("value", nlohmann::json());
    const auto unit = entry.find("unit");
    if (unit != entry.end() && unit->is_string() && !unit->get_ref<const std::string&>().empty()) {
      view[name + ".unit"] = *unit;
    }
  }
}

/// The ids a JSON:API relationship names: one id, a comma-separated list, or null.
inline nlohmann::json relationship_ids(const nlohmann::json& relationship) {
  if (!relationship.is_object()) return nullptr;
  const auto data = relationship.find("data");
  if (data == relationship.end()) return nullptr;
  if (data->is_object() && data->contains("id")) return (*data)["id"];
  if (!data->is_array() || data->empty()) return nullptr;
  std::string ids;
  for (const auto& item : *data) {
    if (item.is_object() && item.contains("id") && item["id"].is_string()) {
      ids += (ids.empty() ? "" : ",") + item["id"].get<std::string>();
    }
  }
  return ids.empty() ? nlohmann::json() : nlohmann::json(ids);
}

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
    const M model{};
    M::fields(model, visitor);
  } else if constexpr (detail::has_attribute_table<M>::value) {
    const M model{};
    names = {"id", "type"};
    M::attributes(model, visitor);
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
inline nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                       const std::vector<std::string>& order = {}) {
  if (!record.is_object()) return nlohmann::ordered_json{{"value", record}};
  const auto attributes = record.find("attributes");
  const bool json_api = attributes != record.end() && attributes->is_object() &&
                        record.contains("id") && record.contains("type");
  nlohmann::json fields = record;
  if (json_api) {
    fields = *attributes;
    fields["id"] = record["id"];
    fields["type"] = record["type"];
  }
  std::vector<std::string> keys;
  // Without a field table, a JSON:API resource still reads id and type first.
  const std::vector<std::string> resource_order = {"id", "type"};
  for (const auto& key : order.empty() && json_api ? resource_order : order) {
    if (fields.contains(key)) keys.push_back(key);
  }
  for (const auto& [key, value] : fields.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  // The identifier leads, so that a row can be read (and joined) by its first column.
  for (const char* identifier : {"mgyp", "accession"}) {
    const auto it = std::find(keys.begin(), keys.end(), identifier);
    if (it != keys.end()) {
      std::rotate(keys.begin(), it, it + 1);
      break;
    }
  }

  nlohmann::ordered_json view = nlohmann::ordered_json::object();
  for (const auto& key : keys) {
    const nlohmann::json& value = fields[key];
    view[key] = value;
    if (value.is_object()) {
      detail::add_leaves(view, key, value);
    } else if (json_api && key == "sample-metadata" && value.is_array()) {
      detail::add_sample_metadata(view, value);
    }
  }
  const auto relationships = record.find("relationships");
  if (json_api && relationships != record.end() && relationships->is_object()) {
    for (const auto& [name, relationship] : relationships->items()) {
      nlohmann::json ids = detail::relationship_ids(relationship);
      if (!ids.is_null() && !view.contains(name)) view[name] = std::move(ids);
    }
  }
  return view;
}

/// The value at a dotted path ("biome.lineage", "downloads.0.alias") in a
/// view, or nullptr where there is none (a null value is found, and is not
/// nullptr). A key that itself holds dots ("metadata.depth") is matched whole
/// before the path is split.
inline const nlohmann::ordered_json* find_value(const nlohmann::ordered_json& view,
                                                const std::string& dotted_path) {
  if (view.is_object()) {
    const auto whole = view.find(dotted_path);
    if (whole != view.end()) return &*whole;
  }
  const nlohmann::ordered_json* node = &view;
  std::size_t start = 0;
  while (start <= dotted_path.size()) {
    const auto dot = dotted_path.find('.', start);
    const std::string key =
        dotted_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (node->is_object()) {
      const auto it = node->find(key);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array() && !key.empty() && key.size() < 10 &&
               key.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t index = std::stoul(key);
      if (index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

/// As find_value, with null where there is no value.
inline nlohmann::ordered_json value_at(const nlohmann::ordered_json& view,
                                       const std::string& dotted_path) {
  const nlohmann::ordered_json* node = find_value(view, dotted_path);
  return node ? *node : nlohmann::ordered_json();
}

/// One TSV cell: a string as tsv_escape writes it; null as an empty cell;
/// numbers and booleans as JSON; objects and arrays as compact JSON (with DEL
/// and C1 controls escaped, invalid UTF-8 as U+FFFD). An empty string and
/// null both give an empty cell; find_value tells them apart.
inline std::string tsv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return {};
  if (!value.is_string()) {
    bool replaced = false;
    return mgnify::detail::json_text(value, -1, replaced);
  }
  return tsv_escape(value.get_ref<const std::string&>());
}

}  // namespace tables
}  // namespace v0
}  // namespace mgnify
