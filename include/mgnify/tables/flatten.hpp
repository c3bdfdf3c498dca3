#pragma once

// Any record (a model's JSON, a v1 JSON:API resource) as one table row: named
// columns in the service's field order, nested values reachable by dotted
// path, and cells that are safe to write as TSV. The `mgnify` tool's
// `--format tsv` and `--columns` are built on this.

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
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

/// Makes a view in insertion order with its names hashed. nlohmann's ordered
/// object finds a key by a linear scan, so a record with N keys (a sample
/// whose submitter repeated one metadata key N times) would cost N^2 to
/// build, and N^3 to number its repeated keys; here both are linear.
class ViewBuilder {
 public:
  /// `view` must be an object; it is appended to, never searched.
  MGNIFY_DECL explicit ViewBuilder(nlohmann::ordered_json& view);

  bool contains(const std::string& name) const { return position_.count(name) != 0; }
  /// Sets `name`, in place where it is already, else at the end.
  MGNIFY_DECL void set(const std::string& name, nlohmann::ordered_json value);
  /// Adds `name` at the end unless the view has it.
  MGNIFY_DECL void add_if_absent(const std::string& name, const nlohmann::json& value);
  /// `base` when the view lacks it, else the first free "base #2", "base #3"...
  /// Each base remembers where its numbering stopped, so that N occurrences
  /// cost N steps in all, plus one per name that was taken already (a key
  /// that is literally "base #2").
  MGNIFY_DECL std::string free_name(const std::string& base);

 private:
  nlohmann::ordered_json& view_;
  nlohmann::ordered_json::object_t& object_;
  std::unordered_map<std::string, std::size_t> position_;
  std::unordered_map<std::string, int> next_occurrence_;
};

/// Adds the scalar leaves of `object` to the view as "prefix.key" (recursively
/// for nested objects); arrays are added whole, as values to name by path.
MGNIFY_DECL void add_leaves(ViewBuilder& view, const std::string& prefix,
                            const nlohmann::json& object);

/// A v1 `sample-metadata` list ({key, value, unit} objects) as metadata.KEY
/// (and metadata.KEY.unit) entries; a key met again goes to "metadata.KEY #2".
MGNIFY_DECL void add_sample_metadata(ViewBuilder& view, const nlohmann::json& entries);

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

namespace detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

/// Builds the JSON shape of a model from its field list: every field, a
/// nested model as an object of its fields (recursively), a free-form JSON
/// value as an empty object, a list as an empty array, anything else null.
struct SchemaFields {
  nlohmann::json& object;

  template <class T>
  void required(const char* key, const T&) {
    object[key] = shape<T>();
  }
  template <class T>
  void optional(const char* key, const T&) {
    object[key] = shape<T>();
  }
  template <class T>
  void defaulted(const char* key, const T&) {
    object[key] = shape<T>();
  }
  void scalar_text(const char* key, const std::string&) { object[key] = nullptr; }
  template <class T>
  void renamed(const char* key, const char*, const T&) {
    object[key] = shape<T>();
  }

  template <class T>
  static nlohmann::json shape() {
    if constexpr (is_optional<T>::value) {
      return shape<typename T::value_type>();
    } else if constexpr (std::is_same<T, nlohmann::json>::value) {
      return nlohmann::json::object();
    } else if constexpr (mgnify::detail::has_fields<T>::value) {
      nlohmann::json fields = nlohmann::json::object();
      SchemaFields visitor{fields};
      const T model{};
      T::fields(model, visitor);
      return fields;
    } else if constexpr (is_vector<T>::value) {
      return nlohmann::json::array();
    } else {
      return nullptr;
    }
  }
};

/// The JSON:API relationships object of a resource whose relationships that
/// arrive with ids (detail/fields.hpp) all came without one: {"biome": {"data": null}}.
struct SchemaRelationships {
  nlohmann::json& object;

  void with_ids(const char* name) { object[name] = {{"data", nullptr}}; }
  void link_only(const char*) {}
};

}  // namespace detail

/// The JSON shape of an M with every field its field list names, nested
/// models likewise (a v1 resource as id, type, its attributes and the
/// relationships it lists as arriving with ids): tsv_view of it names every
/// column a record of M can have, whatever a given record leaves out. A
/// listing takes its TSV header from here, so that 0, 1 or N records give
/// the same columns.
template <class M>
nlohmann::json schema_example() {
  if constexpr (!mgnify::detail::has_fields<M>::value) {
    return nlohmann::json(M{});
  } else if constexpr (mgnify::detail::wraps_resource<M>::value) {
    nlohmann::json example{
        {"id", nullptr}, {"type", nullptr}, {"attributes", detail::SchemaFields::shape<M>()}};
    if constexpr (mgnify::detail::has_relationships<M>::value) {
      nlohmann::json relationships = nlohmann::json::object();
      detail::SchemaRelationships visitor{relationships};
      M::relationships(visitor);
      example["relationships"] = std::move(relationships);
    }
    return example;
  } else {
    return detail::SchemaFields::shape<M>();
  }
}

/// Moves the identifier ("mgyp", else "accession") to the front of
/// `columns`, the others keeping their order: tsv_view's keys and a listing's
/// header follow this rule.
MGNIFY_DECL void identifier_first(std::vector<std::string>& columns);

/// The row a record is made into. A v1 JSON:API resource becomes id, type,
/// its attributes and, per relationship that came with its `data`, the ids
/// it names (`biome`; null where it names none); anything else is used as
/// it is, and a value that is not an object becomes {"value": record}.
/// Nested objects are kept and their scalar leaves added as dotted keys
/// ("biome.lineage"), and a v1 `sample-metadata` list as one "metadata.KEY"
/// per entry (with "metadata.KEY.unit" where it has a unit), so that
/// metadata can be named by key. Keys follow `order` (field_order; the rest
/// sorted after), with the identifier ("mgyp", else "accession") first.
MGNIFY_DECL nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                            const std::vector<std::string>& order = {});

/// The value at a dotted path ("biome.lineage", "downloads.0.alias") in a
/// view, or nullptr where there is none (a null value is found, and is not
/// nullptr). A key that itself holds dots ("metadata.depth") is matched whole
/// before the path is split.
MGNIFY_DECL const nlohmann::ordered_json* find_value(const nlohmann::ordered_json& view,
                                                     const std::string& dotted_path);

/// A view's names hashed, for finding many columns in one row: find() costs
/// the same as find_value, without its linear scan of the view's keys. The
/// view must outlive the index and stay unchanged.
class ViewIndex {
 public:
  MGNIFY_DECL explicit ViewIndex(const nlohmann::ordered_json& view);
  MGNIFY_DECL const nlohmann::ordered_json* find(const std::string& dotted_path) const;

 private:
  const nlohmann::ordered_json& view_;
  std::unordered_map<std::string_view, const nlohmann::ordered_json*> names_;
};

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
