#pragma once

// Bodies of mgnify/detail/text_excerpt.hpp.

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/detail/text_excerpt.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline bool starts_with_icase(std::string_view text, std::size_t pos, std::string_view word) {
  if (pos + word.size() > text.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) != word[i]) return false;
  }
  return true;
}

// The few entities error pages use; anything else is kept verbatim.
inline char decode_entity(std::string_view name) {
  if (name == "amp") return '&';
  if (name == "lt") return '<';
  if (name == "gt") return '>';
  if (name == "quot") return '"';
  if (name == "apos" || name == "#39" || name == "#x27") return '\'';
  if (name == "nbsp" || name == "#160") return ' ';
  return '\0';
}

MGNIFY_DECL std::string text_excerpt(std::string_view body, std::size_t limit) {
  std::string out;
  bool pending_space = false;
  bool truncated = false;
  auto emit = [&](char c) {
    const auto uc = static_cast<unsigned char>(c);
    if (uc < 0x20 || c == ' ') {
      pending_space = true;
      return;
    }
    if (pending_space && !out.empty()) out.push_back(' ');
    pending_space = false;
    // Cut only between characters: a split UTF-8 sequence would make what()
    // invalid text (and nlohmann::json refuses to dump it).
    if (out.size() >= limit && (uc & 0xC0) != 0x80) {
      truncated = true;
      return;
    }
    out.push_back(c);
  };
  std::size_t i = 0;
  while (i < body.size() && !truncated) {
    const char c = body[i];
    if (c == '<') {
      pending_space = true;
      if (body.substr(i, 4) == "<!--") {
        const auto end = body.find("-->", i + 4);
        i = end == std::string_view::npos ? body.size() : end + 3;
        continue;
      }
      std::string_view raw;  // an element whose content is not text
      for (std::string_view name : {std::string_view("script"), std::string_view("style")}) {
        const std::size_t after = i + 1 + name.size();
        if (starts_with_icase(body, i + 1, name) &&
            (after >= body.size() || body[after] == '>' || body[after] == '/' ||
             std::isspace(static_cast<unsigned char>(body[after])))) {
          raw = name;
        }
      }
      const auto close = body.find('>', i);
      i = close == std::string_view::npos ? body.size() : close + 1;
      if (!raw.empty()) {
        std::size_t end = i;
        while (end < body.size() &&
               !(body[end] == '<' && end + 1 < body.size() && body[end + 1] == '/' &&
                 starts_with_icase(body, end + 2, raw))) {
          ++end;
        }
        const auto end_close = body.find('>', end);
        i = end_close == std::string_view::npos ? body.size() : end_close + 1;
      }
      continue;
    }
    if (c == '&') {
      const auto semi = body.find(';', i + 1);
      if (semi != std::string_view::npos && semi - i <= 8) {
        if (const char decoded = decode_entity(body.substr(i + 1, semi - i - 1))) {
          emit(decoded);
          i = semi + 1;
          continue;
        }
      }
    }
    emit(c);
    ++i;
  }
  if (truncated) out += "...";
  return out;
}

MGNIFY_DECL std::string one_line(std::string_view text) {
  auto is_control = [](char c) {
    const auto uc = static_cast<unsigned char>(c);
    return uc < 0x20 || uc == 0x7F;
  };
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] != ' ' && !is_control(text[i])) {
      out.push_back(text[i++]);
      continue;
    }
    std::size_t j = i;
    bool control = false;
    while (j < text.size() && (text[j] == ' ' || is_control(text[j])))
      control |= is_control(text[j++]);
    if (!control) {
      out.append(text.substr(i, j - i));
    } else if (i != 0 && j != text.size()) {
      out.push_back(' ');  // a line break inside the text; at either end it is dropped
    }
    i = j;
  }
  return out;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
