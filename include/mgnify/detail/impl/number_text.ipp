#pragma once

// Bodies of mgnify/detail/number_text.hpp.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/detail/number_text.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL bool number_kept_by_dump(std::string_view token) {
  std::size_t i = token.size() > 0 && token[0] == '-' ? 1 : 0;
  const std::size_t digits = token.size() - i;
  if (digits == 0 || digits > 18) return false;
  if (token[i] == '0') return digits == 1 && i == 0;
  for (; i < token.size(); ++i) {
    if (token[i] < '0' || token[i] > '9') return false;
  }
  return true;
}

MGNIFY_DECL bool is_json_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

MGNIFY_DECL std::string pointer_token(std::string_view key) {
  std::string out = "/";
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

MGNIFY_DECL NumberTexts changed_number_texts(std::string_view text) {
  NumberTexts out;
  if (nesting_exceeds(text)) return out;
  struct Level {
    bool object;
    std::size_t next_index;
    std::size_t base;  // pointer's length at this container
  };
  std::vector<Level> levels;
  std::string pointer;
  std::string key;
  bool expect_key = false;
  // The place of the value that starts now.
  // A repeated name's last value is the one a parser keeps: each value
  // clears what an earlier one at its place left.
  const auto enter_value = [&]() {
    if (levels.empty()) return;
    Level& level = levels.back();
    pointer.resize(level.base);
    if (level.object) {
      pointer += pointer_token(key);
    } else {
      pointer += '/';
      pointer += std::to_string(level.next_index++);
    }
    if (!out.empty()) out.erase(pointer);
  };
  std::size_t i = 0;
  try {
    while (i < text.size()) {
      const char c = text[i];
      if (c == '{' || c == '[') {
        enter_value();
        levels.push_back({c == '{', 0, pointer.size()});
        expect_key = c == '{';
        ++i;
      } else if (c == '}' || c == ']') {
        if (!levels.empty()) levels.pop_back();
        expect_key = false;
        ++i;
      } else if (c == ',') {
        expect_key = !levels.empty() && levels.back().object;
        ++i;
      } else if (c == '"') {
        std::size_t end = i + 1;
        bool escaped = false;
        while (end < text.size()) {
          if (escaped) {
            escaped = false;
          } else if (text[end] == '\\') {
            escaped = true;
          } else if (text[end] == '"') {
            break;
          }
          ++end;
        }
        if (end >= text.size()) return {};
        const std::string_view token = text.substr(i, end + 1 - i);
        if (expect_key) {
          key = token.find('\\') == std::string_view::npos
                    ? std::string(token.substr(1, token.size() - 2))
                    : nlohmann::json::parse(std::string(token)).get<std::string>();
          expect_key = false;
        } else {
          enter_value();
        }
        i = end + 1;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        std::size_t end = i;
        while (end < text.size() && is_json_number_char(text[end])) ++end;
        const std::string_view token = text.substr(i, end - i);
        enter_value();
        if (!number_kept_by_dump(token)) {
          const std::string sent(token);
          if (nlohmann::json::parse(sent).dump() != sent) out[pointer] = sent;
        }
        i = end;
      } else {
        // Whitespace, ':', and the letters of true, false and null.
        if (c == 't' || c == 'f' || c == 'n') {
          enter_value();
          while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') ++i;
        } else {
          ++i;
        }
      }
    }
  } catch (const nlohmann::json::exception&) {
    return {};
  }
  return out;
}

MGNIFY_DECL void keep_sent_numbers(RawJson& raw, std::string_view text) {
  if (!text.empty() && !changed_number_texts(text).empty()) {
    raw = RawJson::from_text(std::string(text));
  }
}

MGNIFY_DECL const std::string* sent_number_text(const NumberTexts& texts,
                                                const std::string& pointer,
                                                const nlohmann::json& value) {
  const auto it = texts.find(pointer);
  if (it == texts.end()) return nullptr;
  return number_text_reads_as(it->second, value) ? &it->second : nullptr;
}

MGNIFY_DECL bool number_text_reads_as(const std::string& text, const nlohmann::json& value) {
  try {
    return nlohmann::json::parse(text) == value;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace detail
MGNIFY_NAMESPACE_END
