#pragma once

// Bodies of mgnify/detail/json_text.hpp.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/detail/json_text.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL std::string json_scalar_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return {};
  return value.dump();
}

MGNIFY_DECL bool nesting_exceeds(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
