#pragma once

// Enum tables: each enum that has a text form lists its values and their
// texts once, and both directions are read from that list. The table sits
// beside the enum as a function found by argument-dependent lookup, so an enum
// in any namespace (or nested in a class, as a friend) can have one:
//
//   enum class QcChart { gc_distribution, summary };
//   constexpr auto enum_names(QcChart) {
//     return enum_table<QcChart>({{QcChart::gc_distribution, "gc-distribution"},
//                                 {QcChart::summary, "summary"}});
//   }
//
// The table's size is the length of its list. An enum of an open value set
// (v2's, which keep unknown texts in Enumerated<E>) lists every value but
// `unknown`; a second table of other texts for the same values
// (v2::experiment_type_codes) is read with text_in/value_in.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// A value of E and its text.
template <class E>
struct EnumName {
  E value;
  const char* text;
};

template <class E, std::size_t N>
using EnumTable = std::array<EnumName<E>, N>;

/// The table of a braced list of names, as long as the list.
template <class E, std::size_t N>
constexpr EnumTable<E, N> enum_table(const EnumName<E> (&names)[N]) noexcept {
  EnumTable<E, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = names[i];
  return out;
}

/// The text `table` gives `value`, or "" where it lists none.
template <class E, std::size_t N>
constexpr const char* text_in(const EnumTable<E, N>& table, E value) noexcept {
  for (const auto& name : table) {
    if (name.value == value) return name.text;
  }
  return "";
}

/// The value `table` gives the text `text` (exactly), if any.
template <class E, std::size_t N>
constexpr std::optional<E> value_in(const EnumTable<E, N>& table, std::string_view text) noexcept {
  for (const auto& name : table) {
    if (text == name.text) return name.value;
  }
  return std::nullopt;
}

/// The text of `value` in its enum's table ("" for a value it does not list).
template <class E>
constexpr const char* enum_text(E value) noexcept {
  return text_in(enum_names(value), value);
}

/// The value of E that its table gives `text`, if any.
template <class E>
constexpr std::optional<E> enum_value(std::string_view text) noexcept {
  return value_in(enum_names(E{}), text);
}

MGNIFY_NAMESPACE_END
