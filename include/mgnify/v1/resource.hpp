#pragma once

// The generic JSON:API layer of the legacy v1 service: resource objects,
// relationships, single-resource documents (with `included`) and list pages
// (page-number and cursor). Typed models are built on top of Resource, so
// anything the typed layer does not name stays reachable here.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/page.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// `{type, id}` with, for to-many data, the related object's links.self.
struct ResourceIdentifier {
  std::string type;
  std::string id;
  std::optional<std::string> self;
};

MGNIFY_DECL void from_json(const nlohmann::json& j, ResourceIdentifier& out);

MGNIFY_DECL void to_json(nlohmann::json& j, const ResourceIdentifier& r);

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

  bool has_data() const noexcept {
    return data_kind == DataKind::one || data_kind == DataKind::many;
  }
  /// The single related identifier of a to-one relationship.
  std::optional<ResourceIdentifier> one() const {
    if (data_kind != DataKind::one || data.empty()) return std::nullopt;
    return data.front();
  }
};

MGNIFY_DECL void from_json(const nlohmann::json& j, Relationship& out);

MGNIFY_DECL void to_json(nlohmann::json& j, const Relationship& r);

/// One resource object: `{type, id, attributes, relationships, links.self}`.
struct Resource {
  std::string type;
  std::string id;
  /// The attributes exactly as sent (hyphenated names), unknown ones included.
  /// Parsed on first access when the resource came from the fast decoder.
  RawJson attributes;
  std::map<std::string, Relationship> relationships;
  std::optional<std::string> self;  // links.self
  /// The resource object as sent, members the SDK does not name included.
  RawJson raw{};

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

MGNIFY_DECL void from_json(const nlohmann::json& j, Resource& out);

/// The resource written over the object it came from, so members the SDK does
/// not name survive and a member sent as null or left out stays so.
MGNIFY_DECL void to_json(nlohmann::json& j, const Resource& r);

namespace detail {

/// A JSON:API document without its resources: `data` left out and a sent
/// `included` kept as an empty list (the Document and ListPage `raw`).
MGNIFY_DECL nlohmann::json envelope_of(const nlohmann::json& document);

MGNIFY_DECL nlohmann::json envelope_json(const RawJson& raw);

/// `included` is written when it holds resources or was sent.
MGNIFY_DECL void write_included(nlohmann::json& j, const std::vector<Resource>& included);

}  // namespace detail

/// A single-resource response: `data` plus the `included` compound objects.
template <class T>
struct Document {
  T data;
  std::vector<Resource> included;
  /// The document's other members as sent (jsonapi, meta, links, ...). The
  /// resources are left out, as each keeps its own raw; an `included` that
  /// was sent is kept as an empty list, so that its presence survives.
  RawJson raw{};

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
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected a document object, got ") + j.type_name());
  auto data = j.find("data");
  if (data == j.end() || data->is_null())
    throw DecodeError("/data", "", "required field is missing");
  out.data = mgnify::detail::convert_at<T>(*data, "/data");
  out.included.clear();
  if (auto inc = j.find("included"); inc != j.end() && !inc->is_null()) {
    if (!inc->is_array()) throw DecodeError("/included", "", "expected an array");
    for (std::size_t i = 0; i < inc->size(); ++i) {
      out.included.push_back(
          mgnify::detail::convert_at<Resource>((*inc)[i], "/included/" + std::to_string(i)));
    }
  }
  out.raw = detail::envelope_of(j);
}

template <class T>
void to_json(nlohmann::json& j, const Document<T>& d) {
  j = detail::envelope_json(d.raw);
  j["data"] = d.data;
  detail::write_included(j, d.included);
}

/// `links` of a list envelope is an mgnify::PageLinks (mgnify/page.hpp), the
/// links type of every page. The old name, kept for code written against it.
using ListLinks [[deprecated("use mgnify::PageLinks")]] = PageLinks;

/// `meta.pagination`. Cursor lists send only count.
struct Pagination {
  std::optional<std::int64_t> page;
  std::optional<std::int64_t> pages;
  std::optional<std::int64_t> count;

  bool is_cursor() const noexcept { return count.has_value() && !page && !pages; }

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.optional("page", self.page);
    v.optional("pages", self.pages);
    v.optional("count", self.count);
  }
};

namespace detail {

/// Writes `value` over the object `holder[key]` through T's fields() table;
/// the object is created only when something is to be written into it.
template <class T>
void write_members(nlohmann::json& holder, const char* key, const T& value) {
  nlohmann::json target = holder.contains(key) ? holder[key] : nlohmann::json::object();
  if (!target.is_object()) target = nlohmann::json::object();
  const mgnify::detail::JsonFieldWriter writer{target};
  T::fields(value, writer);
  if (!target.empty() || holder.contains(key)) holder[key] = std::move(target);
}

/// `links` and `meta.pagination` of a list envelope.
MGNIFY_DECL void read_list_envelope(const nlohmann::json& envelope, PageLinks& links,
                                    Pagination& pagination);

}  // namespace detail

/// One page of a list response.
template <class T>
struct ListPage {
  std::vector<T> data;
  PageLinks links;
  Pagination pagination;
  std::vector<Resource> included;
  /// The envelope's other members as sent, as Document::raw.
  RawJson raw{};
};

template <class T>
void from_json(const nlohmann::json& j, ListPage<T>& out) {
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected a list envelope, got ") + j.type_name());
  out = ListPage<T>{};
  auto data = j.find("data");
  if (data == j.end() || !data->is_array()) {
    throw DecodeError("/data", "",
                      data == j.end() ? "required field is missing" : "expected an array");
  }
  out.data.reserve(data->size());
  for (std::size_t i = 0; i < data->size(); ++i) {
    out.data.push_back(mgnify::detail::convert_at<T>((*data)[i], "/data/" + std::to_string(i)));
  }
  if (auto inc = j.find("included"); inc != j.end() && inc->is_array()) {
    for (std::size_t i = 0; i < inc->size(); ++i) {
      out.included.push_back(
          mgnify::detail::convert_at<Resource>((*inc)[i], "/included/" + std::to_string(i)));
    }
  }
  out.raw = detail::envelope_of(j);
  detail::read_list_envelope(out.raw.json(), out.links, out.pagination);
}

/// The page written over its envelope as sent: a link or count the document
/// did not have stays absent, one sent as null stays null.
template <class T>
void to_json(nlohmann::json& j, const ListPage<T>& p) {
  j = detail::envelope_json(p.raw);
  detail::write_members(j, "links", p.links);
  nlohmann::json meta = j.contains("meta") ? j["meta"] : nlohmann::json::object();
  if (meta.is_object()) {
    detail::write_members(meta, "pagination", p.pagination);
    if (!meta.empty()) j["meta"] = std::move(meta);
  }
  j["data"] = p.data;
  detail::write_included(j, p.included);
}

}  // namespace v1
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/v1/impl/resource.ipp"
#endif
