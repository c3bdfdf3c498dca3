#pragma once

// Fast (simdjson) decoders of the v1 documents the client walks: list pages
// of any typed model (driven by the model's fields() table, the
// same table from_json uses) or of bare Resources. Same structs as from_json; see
// detail/fast_json.hpp for the fallback contract.

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/v1/model_base.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {
namespace fast {

namespace v1_detail {

// Each reader below sets its whole target from the value it is given, never
// merging into what an earlier occurrence of the same key left: nlohmann keeps
// only the last of duplicate names, and the fast path must build that struct.

/// Reads `out` from the member `name` of the object `v` ({"links": {"self":
/// ...}}), as from_json does: anything but an object leaves it empty.
template <class T>
void read_nested_member(od::value v, std::string_view name, std::optional<T>& out,
                        const Source& src) {
  out.reset();
  if (take(v.type()) != od::json_type::object) return validate(v);
  od::object holder = take(v.get_object());
  for_fields(holder, [&](std::string_view key, od::value& member) {
    if (key == name) {
      optional_field(member, out, src);
    } else {
      validate(member);
    }
  });
}

// The fields of a resource object whose text is `text`; `attributes` holds the
// typed model when M has a field table.
template <class M>
void read_resource(od::object obj, const ObjectText& text, const Source& src,
                   mgnify::v1::Resource& r, M* model) {
  bool has_type = false;
  bool has_id = false;
  bool had_attributes = false;
  for (auto f : obj) {
    od::field field = take(std::move(f));
    const std::string_view key = take(field.unescaped_key());
    od::value v = field.value();
    if (key == "type") {
      required_field(v, r.type, src, has_type);
    } else if (key == "id") {
      required_field(v, r.id, src, has_id);
    } else if (key == "attributes") {
      if constexpr (has_fields<M>::value) {
        // A repeated "attributes" replaces the earlier one whole: typed
        // members it does not name go back to their defaults. `r` is
        // model->resource, carried over.
        if (had_attributes) {
          M fresh{};
          fresh.resource = std::move(r);
          *model = std::move(fresh);
        }
      }
      had_attributes = true;
      if (is_null(v)) {
        r.attributes = RawJson();
        continue;
      }
      const ObjectText attributes_text(v);
      od::object attrs = take(v.get_object());
      if constexpr (has_fields<M>::value) {
        read_table(attrs, src, *model);
      } else {
        for_fields(attrs, [](std::string_view, od::value& attribute) { validate(attribute); });
      }
      r.attributes = src.raw(attributes_text.after_read());
    } else if (key == "relationships") {
      r.relationships.clear();
      if (is_null(v)) continue;
      od::object rels = take(v.get_object());
      for (auto rf : rels) {
        od::field rel = take(std::move(rf));
        std::string name(take(rel.unescaped_key()));
        mgnify::v1::Relationship out;
        read(rel.value(), out, src);
        r.relationships[std::move(name)] = std::move(out);
      }
    } else if (key == "links") {
      read_nested_member(v, "self", r.self, src);
    } else {
      validate(v);
    }
  }
  if (!has_type || !has_id) throw Fallback{};
  r.raw = src.raw(text.after_read());
}

}  // namespace v1_detail

template <>
struct Model<mgnify::v1::ResourceIdentifier> {
  static constexpr bool enabled = true;
  static void read(od::object obj, const ObjectText&, const Source& src,
                   mgnify::v1::ResourceIdentifier& out) {
    bool has_type = false;
    bool has_id = false;
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      if (key == "type") {
        required_field(field.value(), out.type, src, has_type);
      } else if (key == "id") {
        required_field(field.value(), out.id, src, has_id);
      } else if (key == "links") {
        v1_detail::read_nested_member(field.value(), "self", out.self, src);
      } else {
        validate(field.value());
      }
    }
    if (!has_type || !has_id) throw Fallback{};
  }
};

template <>
struct Model<mgnify::v1::Relationship> {
  static constexpr bool enabled = true;
  static void read(od::object obj, const ObjectText&, const Source& src,
                   mgnify::v1::Relationship& out) {
    using Kind = mgnify::v1::Relationship::DataKind;
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "links") {
        v1_detail::read_nested_member(v, "related", out.related, src);
      } else if (key == "data") {
        out.data.clear();
        const od::json_type type = take(v.type());
        if (type == od::json_type::null) {
          if (!is_null(v)) throw Fallback{};
          out.data_kind = Kind::null;
        } else if (type == od::json_type::array) {
          out.data_kind = Kind::many;
          fast::read(v, out.data, src);
        } else {
          out.data_kind = Kind::one;
          mgnify::v1::ResourceIdentifier one;
          fast::read(v, one, src);
          out.data.push_back(std::move(one));
        }
      } else if (key == "meta") {
        v1_detail::read_nested_member(v, "count", out.count, src);
      } else {
        validate(v);
      }
    }
  }
};

template <>
struct Model<mgnify::v1::Resource> {
  static constexpr bool enabled = true;
  static void read(od::object obj, const ObjectText& text, const Source& src,
                   mgnify::v1::Resource& out) {
    v1_detail::read_resource<mgnify::v1::Resource>(obj, text, src, out, nullptr);
  }
};

/// Every typed v1 model (Study, Sample, Run, ...): the resource plus the
/// attributes its fields() table lists.
template <class M>
struct Model<M, std::enable_if_t<wraps_resource<M>::value>> {
  static constexpr bool enabled = true;
  static void read(od::object obj, const ObjectText& text, const Source& src, M& out) {
    v1_detail::read_resource<M>(obj, text, src, out.resource, &out);
  }
};

/// A v1 list page: each item of `data` owns a copy of its own text.
template <class T>
struct Document<mgnify::v1::ListPage<T>, std::enable_if_t<Model<T>::enabled>> {
  static constexpr bool enabled = true;
  static void read(od::document& doc, std::string_view body, mgnify::v1::ListPage<T>& out) {
    std::string_view text;
    od::object root = open_root(doc, body, text);
    bool has_data = false;
    nlohmann::json envelope = nlohmann::json::object();
    for (auto f : root) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "data") {
        has_data = true;
        out.data.clear();
        od::array items = take(v.get_array());
        for (auto e : items) {
          od::value item = take(std::move(e));
          const ObjectText text(item);
          ItemSource src(text);
          Model<T>::read(take(item.get_object()), text, src.source(), out.data.emplace_back());
          src.keep(text.after_read());
        }
      } else if (key == "included") {
        out.included.clear();
        if (take(v.type()) != od::json_type::array) {
          envelope["included"] = to_nlohmann(v);
          continue;
        }
        od::array items = take(v.get_array());
        for (auto e : items) {
          od::value item = take(std::move(e));
          const ObjectText text(item);
          ItemSource src(text);
          Model<mgnify::v1::Resource>::read(take(item.get_object()), text, src.source(),
                                            out.included.emplace_back());
          src.keep(text.after_read());
        }
        envelope["included"] = nlohmann::json::array();
      } else {
        envelope[std::string(key)] = to_nlohmann(v);
      }
    }
    if (!has_data) throw Fallback{};
    // links and meta are a few bytes: read through the same code as from_json.
    try {
      mgnify::v1::detail::read_list_envelope(envelope, out.links, out.pagination);
    } catch (const DecodeError&) {
      throw Fallback{};
    }
    out.raw = std::move(envelope);
  }
};

}  // namespace fast
}  // namespace detail
MGNIFY_NAMESPACE_END
