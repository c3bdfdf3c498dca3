#pragma once

// The order in which a model lists its fields: its field table
// (mgnify/detail/fields.hpp), written in the order of the service's schema.
// The SDK's JSON objects sort their keys, so TSV columns take their order
// from here instead.

#include <mgnify/detail/fields.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mgnify_cli {

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
};

/// Typed v1 models list their JSON:API attributes in a table of their own.
template <class M, class = void>
struct has_attribute_table : std::false_type {};
template <class M>
struct has_attribute_table<
    M, std::void_t<decltype(M::attributes(std::declval<const M&>(), std::declval<FieldNames&>()))>>
    : std::true_type {};

}  // namespace detail

/// The keys of M's JSON in the service's order ("id", "type" and then the
/// attributes for a v1 model); empty for a model without a table.
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

}  // namespace mgnify_cli
