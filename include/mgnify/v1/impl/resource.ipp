#pragma once

// Bodies of the JSON:API layer of v1 (mgnify/v1/resource.hpp): resource
// objects, relationships and list envelopes read from and written over JSON.

#include <cstddef>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

MGNIFY_DECL void from_json(const nlohmann::json& j, ResourceIdentifier& out) {
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_required(j, "type", out.type);
  mgnify::detail::read_required(j, "id", out.id);
  out.self.reset();
  if (auto links = j.find("links"); links != j.end() && links->is_object()) {
    try {
      mgnify::detail::read_optional(*links, "self", out.self);
    } catch (const DecodeError& e) {
      throw DecodeError("/links" + e.json_path(), "", e.detail());
    }
  }
}

namespace detail {

/// Writes the optional `value` as `key` of the object `holder[outer]` with the
/// field tables' rule (JsonFieldWriter::optional): a sent null stays null and
/// an absent key stays absent ({"links": {"self": ...}} and the like).
template <class T>
void write_nested_optional(nlohmann::json& holder, const char* outer, const char* key,
                           const std::optional<T>& value) {
  auto it = holder.find(outer);
  const bool has_object = it != holder.end() && it->is_object();
  if (!value && !(has_object && it->contains(key))) return;
  if (!has_object) holder[outer] = nlohmann::json::object();
  const mgnify::detail::JsonFieldWriter writer{holder[outer]};
  writer.optional(key, value);
}

/// Writes `r` over `j`, which holds the identifier as sent (or nothing).
MGNIFY_DECL void write_over(nlohmann::json& j, const ResourceIdentifier& r) {
  if (!j.is_object()) j = nlohmann::json::object();
  j["type"] = r.type;
  j["id"] = r.id;
  write_nested_optional(j, "links", "self", r.self);
}

}  // namespace detail

MGNIFY_DECL void to_json(nlohmann::json& j, const ResourceIdentifier& r) {
  j = nlohmann::json::object();
  detail::write_over(j, r);
}

MGNIFY_DECL void from_json(const nlohmann::json& j, Relationship& out) {
  out = Relationship{};
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  if (auto links = j.find("links"); links != j.end() && links->is_object()) {
    try {
      mgnify::detail::read_optional(*links, "related", out.related);
    } catch (const DecodeError& e) {
      throw DecodeError("/links" + e.json_path(), "", e.detail());
    }
  }
  if (auto data = j.find("data"); data != j.end()) {
    if (data->is_null()) {
      out.data_kind = Relationship::DataKind::null;
    } else if (data->is_array()) {
      out.data_kind = Relationship::DataKind::many;
      for (std::size_t i = 0; i < data->size(); ++i) {
        out.data.push_back(mgnify::detail::convert_at<ResourceIdentifier>(
            (*data)[i], "/data/" + std::to_string(i)));
      }
    } else {
      out.data_kind = Relationship::DataKind::one;
      out.data.push_back(mgnify::detail::convert_at<ResourceIdentifier>(*data, "/data"));
    }
  }
  if (auto meta = j.find("meta"); meta != j.end() && meta->is_object()) {
    try {
      mgnify::detail::read_optional(*meta, "count", out.count);
    } catch (const DecodeError& e) {
      throw DecodeError("/meta" + e.json_path(), "", e.detail());
    }
  }
}

namespace detail {

/// Writes `r` over `j`, which holds the relationship as sent (or nothing):
/// members the SDK does not name survive.
MGNIFY_DECL void write_over(nlohmann::json& j, const Relationship& r) {
  if (!j.is_object()) j = nlohmann::json::object();
  write_nested_optional(j, "links", "related", r.related);
  switch (r.data_kind) {
    case Relationship::DataKind::absent:
      j.erase("data");
      break;
    case Relationship::DataKind::null:
      j["data"] = nullptr;
      break;
    case Relationship::DataKind::one:
      if (r.data.empty()) {
        j["data"] = nullptr;
      } else {
        write_over(j["data"], r.data.front());
      }
      break;
    case Relationship::DataKind::many: {
      nlohmann::json& data = j["data"];
      if (!data.is_array() || data.size() != r.data.size()) data = nlohmann::json::array();
      for (std::size_t i = 0; i < r.data.size(); ++i) {
        if (i == data.size()) data.push_back(nlohmann::json::object());
        write_over(data[i], r.data[i]);
      }
      break;
    }
  }
  write_nested_optional(j, "meta", "count", r.count);
}

}  // namespace detail

MGNIFY_DECL void to_json(nlohmann::json& j, const Relationship& r) {
  j = nlohmann::json::object();
  detail::write_over(j, r);
}

MGNIFY_DECL void from_json(const nlohmann::json& j, Resource& out) {
  out = Resource{};
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected a resource object, got ") + j.type_name());
  mgnify::detail::read_required(j, "type", out.type);
  mgnify::detail::read_required(j, "id", out.id);
  out.raw = j;
  if (auto a = j.find("attributes"); a != j.end() && !a->is_null()) {
    if (!a->is_object()) throw DecodeError("/attributes", "", "expected an object");
    out.attributes = RawJson::view(out.raw, "/attributes");
  }
  if (auto rels = j.find("relationships"); rels != j.end() && !rels->is_null()) {
    if (!rels->is_object()) throw DecodeError("/relationships", "", "expected an object");
    for (const auto& [name, value] : rels->items()) {
      out.relationships[name] =
          mgnify::detail::convert_at<Relationship>(value, "/relationships/" + name);
    }
  }
  if (auto links = j.find("links"); links != j.end() && links->is_object()) {
    try {
      mgnify::detail::read_optional(*links, "self", out.self);
    } catch (const DecodeError& e) {
      throw DecodeError("/links" + e.json_path(), "", e.detail());
    }
  }
}

MGNIFY_DECL void to_json(nlohmann::json& j, const Resource& r) {
  j = r.raw.is_object() ? r.raw.json() : nlohmann::json::object();
  j["type"] = r.type;
  j["id"] = r.id;
  const bool attributes_sent = j.contains("attributes") && !j["attributes"].is_null();
  if (attributes_sent || !r.attributes.is_object() || !r.attributes.empty()) {
    j["attributes"] = r.attributes.json();
  }
  auto rels = j.find("relationships");
  if (!r.relationships.empty() || (rels != j.end() && rels->is_object())) {
    nlohmann::json& out = j["relationships"];
    if (!out.is_object()) out = nlohmann::json::object();
    for (auto it = out.begin(); it != out.end();) {
      it = r.relationships.count(it.key()) ? std::next(it) : out.erase(it);
    }
    for (const auto& [name, rel] : r.relationships) detail::write_over(out[name], rel);
  }
  detail::write_nested_optional(j, "links", "self", r.self);
}

namespace detail {

/// A JSON:API document without its resources: `data` left out and a sent
/// `included` kept as an empty list (the Document and ListPage `raw`).
MGNIFY_DECL nlohmann::json envelope_of(const nlohmann::json& document) {
  nlohmann::json out = nlohmann::json::object();
  for (auto it = document.begin(); it != document.end(); ++it) {
    if (it.key() == "data") continue;
    out[it.key()] = it.key() == "included" && it->is_array() ? nlohmann::json::array() : *it;
  }
  return out;
}

MGNIFY_DECL nlohmann::json envelope_json(const RawJson& raw) {
  return raw.is_object() ? raw.json() : nlohmann::json::object();
}

/// `included` is written when it holds resources or was sent.
MGNIFY_DECL void write_included(nlohmann::json& j, const std::vector<Resource>& included) {
  auto it = j.find("included");
  if (!included.empty() || (it != j.end() && it->is_array())) j["included"] = included;
}

}  // namespace detail

namespace detail {

/// Reads the object `holder[key]`, when it is one, through T's fields()
/// table; `path` names it in errors.
template <class T>
void read_members(const nlohmann::json& holder, const char* key, const std::string& path, T& out) {
  out = T{};
  auto it = holder.find(key);
  if (it == holder.end() || !it->is_object()) return;
  const RawJson no_parent;
  try {
    const mgnify::detail::JsonFieldReader reader{*it, no_parent};
    T::fields(out, reader);
  } catch (const DecodeError& e) {
    throw DecodeError(path + e.json_path(), "", e.detail());
  }
}

/// `links` and `meta.pagination` of a list envelope.
MGNIFY_DECL void read_list_envelope(const nlohmann::json& envelope, PageLinks& links,
                                    Pagination& pagination) {
  read_members(envelope, "links", "/links", links);
  pagination = Pagination{};
  if (auto meta = envelope.find("meta"); meta != envelope.end() && meta->is_object()) {
    read_members(*meta, "pagination", "/meta/pagination", pagination);
  }
}

}  // namespace detail

}  // namespace v1
MGNIFY_NAMESPACE_END
