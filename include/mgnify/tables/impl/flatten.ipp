#pragma once

// Bodies of mgnify/tables/flatten.hpp.

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
#include "mgnify/tables/flatten.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {
namespace detail {

MGNIFY_DECL void add_leaves(nlohmann::ordered_json& view, const std::string& prefix,
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

MGNIFY_DECL void add_sample_metadata(nlohmann::ordered_json& view, const nlohmann::json& entries) {
  for (const auto& entry : entries) {
    if (!entry.is_object() || !entry.contains("key") || !entry["key"].is_string()) continue;
    // A key the sample carries twice keeps both values, each with its own
    // unit: the second in `metadata.KEY #2`, as samples-table names it.
    const std::string base = "metadata." + entry["key"].get<std::string>();
    std::string name = base;
    for (int occurrence = 2; view.contains(name); ++occurrence) {
      name = base + " #" + std::to_string(occurrence);
    }
    view[name] = entry.value("value", nlohmann::json());
    const auto unit = entry.find("unit");
    if (unit != entry.end() && unit->is_string() && !unit->get_ref<const std::string&>().empty()) {
      view[name + ".unit"] = *unit;
    }
  }
}

MGNIFY_DECL nlohmann::json relationship_ids(const nlohmann::json& relationship) {
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

MGNIFY_DECL nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                            const std::vector<std::string>& order) {
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

MGNIFY_DECL const nlohmann::ordered_json* find_value(const nlohmann::ordered_json& view,
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

MGNIFY_DECL nlohmann::ordered_json value_at(const nlohmann::ordered_json& view,
                                            const std::string& dotted_path) {
  const nlohmann::ordered_json* node = find_value(view, dotted_path);
  return node ? *node : nlohmann::ordered_json();
}

MGNIFY_DECL std::string tsv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return {};
  if (!value.is_string()) {
    bool replaced = false;
    return mgnify::detail::json_text(value, -1, replaced);
  }
  return tsv_escape(value.get_ref<const std::string&>());
}

}  // namespace tables
MGNIFY_NAMESPACE_END
