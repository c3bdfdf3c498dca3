#pragma once

// The generic JSON:API layer of the legacy v1 service: resource objects,
// relationships, single-resource documents (with `included`) and list pages
// (page-number and cursor). Typed models are built on top of Resource, so
// anything the typed layer does not name stays reachable here.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v1 {

/// `{type, id}` with, for to-many data, the related object's links.self.
struct ResourceIdentifier {
  std::string type;
  std::string id;
  std::optional<std::string> self;
};

inline void from_json(const nlohmann::json& j, ResourceIdentifier& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
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

inline void to_json(nlohmann::json& j, const ResourceIdentifier& r) {
  j = nlohmann::json{{"type", r.type}, {"id", r.id}};
  if (r.self) j["links"] = {{"self", *r.self}};
}

inline bool operator==(const ResourceIdentifier& a, const ResourceIdentifier& b) {
  return a.type == b.type && a.id == b.id && a.self == b.self;
}

/// One entry of `relationships`: a link to the related list or object and,
/// when the server rendered it, the identifiers of the related objects.
struct Relationship {
  /// How `data` was sent: not at all (links only), as null (an absent to-one),
  /// as one identifier (to-one) or as an array (to-many, possibly empty).
  enum class DataKind { absent, null, one, many };

  std::optional<std::string> related;  // links.related
  DataKind data_kind = DataKind::absent;
  std::vector<ResourceIdentifier> data;
  /// meta.count, sent only by older servers.
  std::optional<std::int64_t> count;

  bool has_data() const noexcept { return data_kind == DataKind::one || data_kind == DataKind::many; }
  /// The single related identifier of a to-one relationship.
  std::optional<ResourceIdentifier> one() const {
    if (data_kind != DataKind::one || data.empty()) return std::nullopt;
    return data.front();
  }
};

inline void from_json(const nlohmann::json& j, Relationship& out) {
  out = Relationship{};
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
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
        out.data.push_back(
            mgnify::detail::convert_at<ResourceIdentifier>((*data)[i], "/data/" + std::to_string(i)));
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

inline void to_json(nlohmann::json& j, const Relationship& r) {
  j = nlohmann::json::object();
  if (r.related) j["links"] = {{"related", *r.related}};
  switch (r.data_kind) {
    case Relationship::DataKind::absent: break;
    case Relationship::DataKind::null: j["data"] = nullptr; break;
    case Relationship::DataKind::one:
      j["data"] = r.data.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.data.front());
      break;
    case Relationship::DataKind::many: j["data"] = r.data; break;
  }
  if (r.count) j["meta"] = {{"count", *r.count}};
}

/// One resource object: `{type, id, attributes, relationships, links.self}`.
struct Resource {
  std::string type;
  std::string id;
  /// The attributes exactly as sent (hyphenated names), unknown ones included.
  /// Parsed on first access when the resource came from the fast decoder.
  RawJson attributes;
  std::map<std::string, Relationship> relationships;
  std::optional<std::string> self;  // links.self

  /// nullptr when the server sent no relationship of this name.
  const Relationship* relationship(const std::string& name) const {
    auto it = relationships.find(name);
    return it == relationships.end() ? nullptr : &it->second;
  }
  /// links.related of a relationship, when sent.
  std::optional<std::string> related_link(const std::string& name) const {
    const Relationship* r = relationship(name);
    return r ? r->related : std::nullopt;
  }
};

inline void from_json(const nlohmann::json& j, Resource& out) {
  out = Resource{};
  if (!j.is_object()) throw DecodeError("", "", std::string("expected a resource object, got ") + j.type_name());
  mgnify::detail::read_required(j, "type", out.type);
  mgnify::detail::read_required(j, "id", out.id);
  if (auto a = j.find("attributes"); a != j.end() && !a->is_null()) {
    if (!a->is_object()) throw DecodeError("/attributes", "", "expected an object");
    out.attributes = *a;
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

inline void to_json(nlohmann::json& j, const Resource& r) {
  j = nlohmann::json{{"type", r.type}, {"id", r.id}, {"attributes", r.attributes}};
  if (!r.relationships.empty()) {
    nlohmann::json rels = nlohmann::json::object();
    for (const auto& [name, rel] : r.relationships) rels[name] = rel;
    j["relationships"] = std::move(rels);
  }
  if (r.self) j["links"] = {{"self", *r.self}};
}

/// A single-resource response: `data` plus the `included` compound objects.
template <class T>
struct Document {
  T data;
  std::vector<Resource> included;

  /// The included object of this type and id, or nullptr.
  const Resource* find_included(const std::string& type, const std::string& id) const {
    for (const auto& r : included) {
      if (r.type == type && r.id == id) return &r;
    }
    return nullptr;
  }
  /// The included object of this type and id decoded as U (Sample, Biome, ...).
  template <class U>
  std::optional<U> included_as(const std::string& type, const std::string& id) const {
    const Resource* r = find_included(type, id);
    if (!r) return std::nullopt;
    return mgnify::detail::convert_at<U>(nlohmann::json(*r), "/included");
  }
  /// Every included object that a relationship names, decoded as U, in the
  /// relationship's order. Identifiers without an included object are skipped.
  template <class U>
  std::vector<U> related_included(const Relationship& rel) const {
    std::vector<U> out;
    for (const auto& ident : rel.data) {
      if (auto u = included_as<U>(ident.type, ident.id)) out.push_back(std::move(*u));
    }
    return out;
  }
};

template <class T>
void from_json(const nlohmann::json& j, Document<T>& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected a document object, got ") + j.type_name());
  auto data = j.find("data");
  if (data == j.end() || data->is_null()) throw DecodeError("/data", "", "required field is missing");
  out.data = mgnify::detail::convert_at<T>(*data, "/data");
  out.included.clear();
  if (auto inc = j.find("included"); inc != j.end() && !inc->is_null()) {
    if (!inc->is_array()) throw DecodeError("/included", "", "expected an array");
    for (std::size_t i = 0; i < inc->size(); ++i) {
      out.included.push_back(
          mgnify::detail::convert_at<Resource>((*inc)[i], "/included/" + std::to_string(i)));
    }
  }
}

template <class T>
void to_json(nlohmann::json& j, const Document<T>& d) {
  j = nlohmann::json{{"data", d.data}};
  if (!d.included.empty()) j["included"] = d.included;
}

/// `links` of a list envelope. Cursor lists send only next and prev.
struct ListLinks {
  std::optional<std::string> first;
  std::optional<std::string> last;
  std::optional<std::string> next;
  std::optional<std::string> prev;
};

/// `meta.pagination`. Cursor lists send only count.
struct Pagination {
  std::optional<std::int64_t> page;
  std::optional<std::int64_t> pages;
  std::optional<std::int64_t> count;

  bool is_cursor() const noexcept { return count.has_value() && !page && !pages; }
};

/// One page of a list response.
template <class T>
struct ListPage {
  std::vector<T> data;
  ListLinks links;
  Pagination pagination;
  std::vector<Resource> included;
};

template <class T>
void from_json(const nlohmann::json& j, ListPage<T>& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected a list envelope, got ") + j.type_name());
  out = ListPage<T>{};
  auto data = j.find("data");
  if (data == j.end() || !data->is_array()) {
    throw DecodeError("/data", "", data == j.end() ? "required field is missing" : "expected an array");
  }
  out.data.reserve(data->size());
  for (std::size_t i = 0; i < data->size(); ++i) {
    out.data.push_back(mgnify::detail::convert_at<T>((*data)[i], "/data/" + std::to_string(i)));
  }
  if (auto links = j.find("links"); links != j.end() && links->is_object()) {
    try {
      mgnify::detail::read_optional(*links, "first", out.links.first);
      mgnify::detail::read_optional(*links, "last", out.links.last);
      mgnify::detail::read_optional(*links, "next", out.links.next);
      mgnify::detail::read_optional(*links, "prev", out.links.prev);
    } catch (const DecodeError& e) {
      throw DecodeError("/links" + e.json_path(), "", e.detail());
    }
  }
  if (auto meta = j.find("meta"); meta != j.end() && meta->is_object()) {
    if (auto p = meta->find("pagination"); p != meta->end() && p->is_object()) {
      try {
        mgnify::detail::read_optional(*p, "page", out.pagination.page);
        mgnify::detail::read_optional(*p, "pages", out.pagination.pages);
        mgnify::detail::read_optional(*p, "count", out.pagination.count);
      } catch (const DecodeError& e) {
        throw DecodeError("/meta/pagination" + e.json_path(), "", e.detail());
      }
    }
  }
  if (auto inc = j.find("included"); inc != j.end() && inc->is_array()) {
    for (std::size_t i = 0; i < inc->size(); ++i) {
      out.included.push_back(
          mgnify::detail::convert_at<Resource>((*inc)[i], "/included/" + std::to_string(i)));
    }
  }
}

template <class T>
void to_json(nlohmann::json& j, const ListPage<T>& p) {
  auto opt = [](const std::optional<std::string>& s) {
    return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
  };
  j = nlohmann::json::object();
  j["links"] = {{"first", opt(p.links.first)}, {"last", opt(p.links.last)},
                {"next", opt(p.links.next)},   {"prev", opt(p.links.prev)}};
  j["data"] = p.data;
  nlohmann::json pag = nlohmann::json::object();
  if (p.pagination.page) pag["page"] = *p.pagination.page;
  if (p.pagination.pages) pag["pages"] = *p.pagination.pages;
  if (p.pagination.count) pag["count"] = *p.pagination.count;
  j["meta"] = {{"pagination", pag}};
  if (!p.included.empty()) j["included"] = p.included;
}

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
