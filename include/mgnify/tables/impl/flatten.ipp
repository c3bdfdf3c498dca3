#pragma once

// Bodies of mgnify/tables/flatten.hpp.

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
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

// ordered_map is a vector of its entries underneath: reached as one, it is
// indexed without the map's scan for the key (append_member appends so).
using ViewEntries = std::vector<std::pair<const std::string, nlohmann::ordered_json>>;

MGNIFY_DECL ViewBuilder::ViewBuilder(nlohmann::ordered_json& view)
    : view_(view), object_(view.get_ref<nlohmann::ordered_json::object_t&>()) {
  const ViewEntries& entries = object_;
  position_.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) position_.emplace(entries[i].first, i);
}

MGNIFY_DECL void ViewBuilder::set(const std::string& name, nlohmann::ordered_json value) {
  ViewEntries& entries = object_;
  const auto [it, added] = position_.emplace(name, entries.size());
  if (added) {
    append_member(view_, name, std::move(value));
  } else {
    entries[it->second].second = std::move(value);
  }
}

MGNIFY_DECL void ViewBuilder::add_if_absent(const std::string& name, const nlohmann::json& value) {
  if (!contains(name)) set(name, value);
}

MGNIFY_DECL std::string ViewBuilder::free_name(const std::string& base) {
  return detail::free_name(
      base, [this](const std::string& name) { return contains(name); }, next_occurrence_);
}

MGNIFY_DECL void add_leaves(ViewBuilder& view, const std::string& prefix,
                            const nlohmann::json& object) {
  for (const auto& [key, value] : object.items()) {
    const std::string path = prefix + "." + key;
    if (value.is_object()) {
      add_leaves(view, path, value);
    } else {
      view.add_if_absent(path, value);
    }
  }
}

MGNIFY_DECL void add_sample_metadata(ViewBuilder& view, const nlohmann::json& entries) {
  for (const auto& entry : entries) {
    if (!entry.is_object() || !entry.contains("key") || !entry["key"].is_string()) continue;
    // A key the sample carries twice keeps both values, each with its own
    // unit: the second in `metadata.KEY #2`, as samples-table names it.
    const std::string name = view.free_name("metadata." + entry["key"].get<std::string>());
    view.set(name, entry.value("value", nlohmann::json()));
    const auto unit = entry.find("unit");
    if (unit != entry.end() && unit->is_string() && !unit->get_ref<const std::string&>().empty()) {
      view.set(name + ".unit", *unit);
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

MGNIFY_DECL void identifier_first(std::vector<std::string>& columns) {
  // The identifier leads, so that a row can be read (and joined) by its first column.
  for (const char* identifier : {"mgyp", "accession"}) {
    const auto it = std::find(columns.begin(), columns.end(), identifier);
    if (it != columns.end()) {
      std::rotate(columns.begin(), it, it + 1);
      return;
    }
  }
}

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
  std::unordered_set<std::string> ordered;
  // Without a field table, a JSON:API resource still reads id and type first.
  const std::vector<std::string> resource_order = {"id", "type"};
  for (const auto& key : order.empty() && json_api ? resource_order : order) {
    if (fields.contains(key) && ordered.insert(key).second) keys.push_back(key);
  }
  for (const auto& [key, value] : fields.items()) {
    if (ordered.count(key) == 0) keys.push_back(key);
  }
  identifier_first(keys);

  nlohmann::ordered_json view = nlohmann::ordered_json::object();
  detail::ViewBuilder builder(view);
  for (const auto& key : keys) {
    const nlohmann::json& value = fields[key];
    builder.set(key, value);
    if (value.is_object()) {
      detail::add_leaves(builder, key, value);
    } else if (json_api && key == "sample-metadata" && value.is_array()) {
      detail::add_sample_metadata(builder, value);
    }
  }
  const auto relationships = record.find("relationships");
  if (json_api && relationships != record.end() && relationships->is_object()) {
    for (const auto& [name, relationship] : relationships->items()) {
      nlohmann::json ids = detail::relationship_ids(relationship);
      // One that came with its data and names nothing (`"run": {"data": null}`)
      // is a null value, as a null attribute is; a link alone is no value.
      if (!ids.is_null() || (relationship.is_object() && relationship.contains("data")))
        builder.add_if_absent(name, ids);
    }
  }
  return view;
}

namespace detail {

/// Follows `dotted_path` from `start` down from `node`, a key per segment
/// (an array index where the node is an array).
MGNIFY_DECL const nlohmann::ordered_json* descend(const nlohmann::ordered_json* node,
                                                  const std::string& dotted_path,
                                                  std::size_t start) {
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

}  // namespace detail

MGNIFY_DECL const nlohmann::ordered_json* find_value(const nlohmann::ordered_json& view,
                                                     const std::string& dotted_path) {
  if (view.is_object()) {
    const auto whole = view.find(dotted_path);
    if (whole != view.end()) return &*whole;
  }
  return detail::descend(&view, dotted_path, 0);
}

MGNIFY_DECL ViewIndex::ViewIndex(const nlohmann::ordered_json& view) : view_(view) {
  if (!view.is_object()) return;
  names_.reserve(view.size());
  for (auto it = view.begin(); it != view.end(); ++it) names_.emplace(it.key(), &it.value());
}

MGNIFY_DECL const nlohmann::ordered_json* ViewIndex::find(const std::string& dotted_path) const {
  if (!view_.is_object()) return detail::descend(&view_, dotted_path, 0);
  const auto whole = names_.find(dotted_path);
  if (whole != names_.end()) return whole->second;
  // Not a name of the view: the path starts with one (find_value's first
  // step), or there is nothing there.
  const auto dot = dotted_path.find('.');
  if (dot == std::string::npos) return nullptr;
  const auto first = names_.find(std::string_view(dotted_path).substr(0, dot));
  if (first == names_.end()) return nullptr;
  return detail::descend(first->second, dotted_path, dot + 1);
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
