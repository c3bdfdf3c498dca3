#pragma once

// Field tables: a model lists each JSON field once, and decoding and encoding
// are derived from that list, so the two cannot drift apart.
//
//   struct Study {
//     std::string accession;
//     std::optional<DateTime> updated_at;
//     RawJson raw{};
//     template <class Self, class Visitor>
//     static void fields(Self& self, Visitor& v) {
//       v.required("accession", self.accession);
//       v.optional("updated_at", self.updated_at);
//     }
//   };
//   MGNIFY_JSON_FIELDS(Study, "study")
//
// A v1 resource model (detail::wraps_resource) uses the same table and the
// same macro: its table lists the `attributes` object of the JSON:API
// resource it keeps in `resource`, and the rest of the resource (id, type,
// relationships, links) is read and written as a Resource. Such a model
// also lists the relationships its resources carry, in a static
// `relationships(visitor)`: `v.with_ids("biome")` for one that arrives with
// the related ids (`data`) in every record of a listing, `v.link_only("runs")`
// for one that arrives as a link (its ids only on request, with `include`).
// A table shows the ids of the first kind as columns, whether or not any
// record came (tables::schema_example).
//
// A derived model calls its base's fields() first. Five kinds of field:
// - required: absent or null is a DecodeError;
// - optional: a std::optional, absent or null is nullopt;
// - renamed: optional, but a document that lacks it (or has null) may carry
//   it under the name older servers used; that name is read instead and
//   written back, so such a document re-encodes as it came. A list sent
//   under the older name may be one element on its own (see read_former);
// - defaulted: absent keeps the member's initial value, null gives T{};
// - scalar_text: a std::string that the service fills with text or with a
//   bare number or boolean ("value": 7); it holds the value's JSON text and
//   is written back in the form it came in. Otherwise like defaulted.
// Encoding starts from `raw`, so members the SDK does not know survive, and
// then writes each field so that a decoded model re-encodes exactly: an
// optional that is empty stays absent or null as it came, and a defaulted
// field still at its default is written only where the document had it.
// The simdjson reader (detail/fast_json.hpp) walks the same table.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "mgnify/detail/json.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// Models with a field table (a static `fields(self, visitor)`).
template <class M, class = void>
struct has_fields : std::false_type {};

struct FieldProbe {
  template <class T>
  void required(const char*, T&) {}
  template <class T>
  void optional(const char*, T&) {}
  template <class T>
  void defaulted(const char*, T&) {}
  void scalar_text(const char*, const std::string&) {}
  template <class T>
  void renamed(const char*, const char*, T&) {}
};

template <class M>
struct has_fields<M,
                  std::void_t<decltype(M::fields(std::declval<M&>(), std::declval<FieldProbe&>()))>>
    : std::true_type {};

/// Visits a model's relationship list (see above) to find out that it has one.
struct RelationshipProbe {
  void with_ids(const char*) {}
  void link_only(const char*) {}
};

/// Models that list their JSON:API relationships (a static `relationships(visitor)`).
template <class M, class = void>
struct has_relationships : std::false_type {};
template <class M>
struct has_relationships<
    M, std::void_t<decltype(M::relationships(std::declval<RelationshipProbe&>()))>>
    : std::true_type {};

/// Table models that wrap a JSON:API resource (v1): their table covers
/// `resource.attributes`, not the whole object, which `resource` keeps.
template <class M, class = void>
struct wraps_resource : std::false_type {};
template <class M>
struct wraps_resource<M, std::void_t<decltype(std::declval<const M&>().resource.attributes.json())>>
    : has_fields<M> {};

/// A member still at T{}: the default of every defaulted field.
template <class T>
bool is_default_value(const T& value) {
  if constexpr (std::is_same_v<T, nlohmann::json>) {
    return value.is_null();
  } else if constexpr (std::is_arithmetic_v<T>) {
    return value == T{};
  } else if constexpr (std::is_same_v<T, std::string> || is_std_vector<T>::value) {
    return value.empty();
  } else {
    return nlohmann::json(value) == nlohmann::json(T{});
  }
}

template <class T>
struct is_optional : std::false_type {};
template <class U>
struct is_optional<std::optional<U>> : std::true_type {};

/// Members that hold models with a table: their `raw` can view the parent's.
template <class T>
constexpr bool holds_table_models() {
  if constexpr (is_optional<T>::value || is_std_vector<T>::value) {
    return holds_table_models<typename T::value_type>();
  } else {
    return has_fields<T>::value;
  }
}

/// A renamed field's value under its older name: as `member` holds it, except
/// that a list may come as its one element on its own.
template <class T>
void read_former(const nlohmann::json& value, const char* former, std::optional<T>& member) {
  if (value.is_null()) {
    member.reset();
    return;
  }
  if constexpr (is_std_vector<T>::value) {
    if (!value.is_array()) {
      member = T{convert_at<typename T::value_type>(value, key_path(former))};
      return;
    }
  }
  member = convert_at<T>(value, key_path(former));
}

/// Whether a renamed field of `sent` came under its older name: the current
/// name absent or null, the older one holding a value.
inline bool sent_as_former(const nlohmann::json& sent, const char* key, const char* former) {
  if (!sent.is_object()) return false;
  const auto current = sent.find(key);
  const auto old = sent.find(former);
  return (current == sent.end() || current->is_null()) && old != sent.end() && !old->is_null();
}

/// Points the `raw` of every model nested in `member` into the enclosing
/// model's `raw` instead of keeping a copy of its own.
template <class T>
void view_nested_raw(T& member, const RawJson& parent, const std::string& path) {
  if constexpr (has_fields<T>::value) {
    member.raw = RawJson::view(parent, path);
  } else if constexpr (is_optional<T>::value) {
    if (member) view_nested_raw(*member, parent, path);
  } else if constexpr (is_std_vector<T>::value) {
    for (std::size_t i = 0; i < member.size(); ++i) {
      view_nested_raw(member[i], parent, path + "/" + std::to_string(i));
    }
  }
}

struct JsonFieldReader {
  const nlohmann::json& j;
  const RawJson& parent;

  template <class T>
  void required(const char* key, T& member) const {
    read_required(j, key, member);
    view_nested(key, member);
  }
  template <class T>
  void optional(const char* key, std::optional<T>& member) const {
    read_optional(j, key, member);
    view_nested(key, member);
  }
  template <class T>
  void defaulted(const char* key, T& member) const {
    auto it = j.find(key);
    if (it == j.end()) return;
    member = it->is_null() ? T{} : convert_at<T>(*it, key_path(key));
    view_nested(key, member);
  }
  void scalar_text(const char* key, std::string& member) const {
    auto it = j.find(key);
    if (it == j.end()) return;
    member = json_scalar_text(*it);
  }
  template <class T>
  void renamed(const char* key, const char* former, std::optional<T>& member) const {
    if (!sent_as_former(j, key, former)) return optional(key, member);
    const nlohmann::json& value = j.at(former);
    read_former(value, former, member);
    if constexpr (holds_table_models<std::optional<T>>()) {
      // One element sent on its own is the whole value at the older name.
      if constexpr (is_std_vector<T>::value) {
        if (!value.is_array()) return view_nested_raw(member->front(), parent, key_path(former));
      }
      view_nested_raw(member, parent, key_path(former));
    }
  }

 private:
  template <class T>
  void view_nested(const char* key, T& member) const {
    if constexpr (holds_table_models<T>()) view_nested_raw(member, parent, key_path(key));
  }
};

/// Writes over `out`, which starts as the raw document the model came from.
struct JsonFieldWriter {
  nlohmann::json& out;

  template <class T>
  void required(const char* key, const T& member) const {
    write(key, member);
  }
  template <class T>
  void optional(const char* key, const std::optional<T>& member) const {
    if (member) {
      write(key, *member);
    } else if (out.contains(key)) {
      out[key] = nullptr;
    }
  }
  template <class T>
  void defaulted(const char* key, const T& member) const {
    if (!is_default_value(member)) {
      write(key, member);
      return;
    }
    // At its default: absent stays absent and null stays null; a value the
    // document had is replaced by the default the caller set.
    auto it = out.find(key);
    if (it != out.end() && !it->is_null()) write(key, member);
  }
  void scalar_text(const char* key, const std::string& member) const {
    auto it = out.find(key);
    // A number or boolean whose text is still `member` goes back as that number.
    if (it != out.end() && !it->is_string() && json_scalar_text(*it) == member) return;
    defaulted(key, member);
  }
  /// Back under the name the document used, in the form it came in (one
  /// element or a list) while that form can hold the value.
  template <class T>
  void renamed(const char* key, const char* former, const std::optional<T>& member) const {
    if (!sent_as_former(out, key, former)) return optional(key, member);
    if (!member) {
      out[former] = nullptr;
      return;
    }
    if constexpr (is_std_vector<T>::value) {
      if (!out.at(former).is_array()) {
        if (member->size() == 1) return write(former, member->front());
        return optional(key, member);
      }
    }
    write(former, *member);
  }

 private:
  template <class T>
  void write(const char* key, const T& member) const {
    auto it = out.find(key);
    if (it != out.end() && is_text_form_of(*it, member)) return;
    out[key] = member;
  }
};

/// Throws unless `j` is an object, naming what was expected.
inline void expect_object(const nlohmann::json& j, const char* what) {
  if (!j.is_object()) {
    throw DecodeError("", "", std::string("expected a ") + what + " object, got " + j.type_name());
  }
}

template <class M>
void read_fields(const nlohmann::json& j, M& out, const char* what) {
  expect_object(j, what);
  if constexpr (wraps_resource<M>::value) {
    out = M{};
    j.get_to(out.resource);
    try {
      const JsonFieldReader reader{out.resource.attributes.json(), out.resource.attributes};
      M::fields(out, reader);
    } catch (const DecodeError& e) {
      throw DecodeError("/attributes" + e.json_path(), e.url(), e.detail());
    }
  } else {
    out.raw = j;
    JsonFieldReader reader{j, out.raw};
    M::fields(out, reader);
  }
}

template <class M>
void write_fields(nlohmann::json& j, const M& model) {
  if constexpr (wraps_resource<M>::value) {
    // The typed attributes go over the raw ones, so unknown attributes survive.
    auto resource = model.resource;
    nlohmann::json attributes =
        resource.attributes.is_object() ? resource.attributes.json() : nlohmann::json::object();
    const JsonFieldWriter writer{attributes};
    M::fields(model, writer);
    resource.attributes = std::move(attributes);
    j = resource;
  } else {
    const nlohmann::json& raw = model.raw.json();
    j = raw.is_object() ? raw : nlohmann::json::object();
    JsonFieldWriter writer{j};
    M::fields(model, writer);
  }
}

}  // namespace detail
MGNIFY_NAMESPACE_END

/// from_json/to_json of a model with a field table; `what` names it in errors
/// ("expected a study object, got array"). They are templates so that only a
/// translation unit that converts the model instantiates its field readers and
/// writers, not every file that includes the model's header; nlohmann finds
/// them by argument-dependent lookup all the same.
#define MGNIFY_JSON_FIELDS(Model, what)                                                 \
  template <class Json,                                                                 \
            ::std::enable_if_t<::std::is_same<Json, ::nlohmann::json>::value, int> = 0> \
  void from_json(const Json& j, Model& out) {                                           \
    ::mgnify::detail::read_fields(j, out, what);                                        \
  }                                                                                     \
  template <class Json,                                                                 \
            ::std::enable_if_t<::std::is_same<Json, ::nlohmann::json>::value, int> = 0> \
  void to_json(Json& j, const Model& model) {                                           \
    ::mgnify::detail::write_fields(j, model);                                           \
  }
