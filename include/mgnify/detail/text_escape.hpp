#pragma once

// The one routine that decides which bytes of server-chosen text may be
// written as they are. A hostile or broken server must not be able to drive
// a terminal with control sequences (cursor moves, screen clears, OSC 52
// clipboard writes, a CR that overwrites a line) or split a TSV row, so
// terminal text, the download manifest's TSV cells and serialized JSON all
// pass through here, each with the rules its reader needs. TSV and CSV data
// files keep the text's own bytes, quoted (tables/table.hpp), and take only
// valid_utf8 from here.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

enum class Escapes {
  terminal,  // every control visible
  tsv,       // terminal rules plus a doubled backslash, so that a cell can be read back
  json,      // serialized JSON: only what nlohmann leaves raw inside strings
};

/// Length of the well-formed UTF-8 sequence at s[i] (no overlongs, surrogates
/// or code points past U+10FFFF), or 0 when s[i] does not start one.
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned lead = byte(i);
  std::size_t n = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  static constexpr std::uint32_t lead_bits[] = {0, 0, 0x1F, 0x0F, 0x07};
  static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  std::uint32_t cp = lead & lead_bits[n];
  if (s.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

inline void append_hex_escape(std::string& out, const char* prefix, unsigned value) {
  static const char hex[] = "0123456789abcdef";
  out += prefix;
  out.push_back(hex[(value >> 4) & 0xFu]);
  out.push_back(hex[value & 0xFu]);
}

/// `text` with tab, LF and CR as a backslash and t, n or r, the other C0
/// controls and DEL as a backslash, x and two hex digits, the C1 controls
/// U+0080..U+009F as a backslash, u00 and two hex digits, and each byte that
/// is not part of valid UTF-8 as a backslash, x and its two hex digits (json:
/// only DEL and C1 escaped, invalid bytes as the JSON escape of U+FFFD).
inline std::string escape_text(std::string_view text, Escapes mode) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (mode == Escapes::json) {
        // nlohmann escapes C0 inside strings; outside them a newline is indentation.
        if (c == 0x7F) {
          out += "\\u007f";
        } else {
          out.push_back(static_cast<char>(c));
        }
      } else if (c == '\\' && mode == Escapes::tsv) {
        out += "\\\\";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20 || c == 0x7F) {
        append_hex_escape(out, "\\x", c);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      // A stray byte such as 0x9B is CSI to a terminal in an 8-bit locale.
      if (mode == Escapes::json) {
        out += "\\ufffd";
      } else {
        append_hex_escape(out, "\\x", c);
      }
      ++i;
      continue;
    }
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (n == 2 && c == 0xC2 && second <= 0x9F) {
      // U+0080..U+009F: C1 controls, which many terminals obey like their ESC forms.
      append_hex_escape(out, "\\u00", second);
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out;
}

/// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD,
/// so that a file declared UTF-8 opens in readers that decode strictly
/// (pandas, readr); everything else, controls included, is kept.
inline std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      out.push_back(text[i++]);
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

/// nlohmann's dump, made safe: invalid UTF-8 (which would throw type_error
/// 316 and cut the output short) becomes U+FFFD and sets `replaced`, and DEL
/// and C1 controls, which nlohmann leaves raw, are escaped.
template <class Json>
std::string json_text(const Json& value, int indent, bool& replaced) {
  std::string text;
  try {
    text = value.dump(indent);
  } catch (const nlohmann::json::type_error& e) {
    if (e.id != 316) throw;
    replaced = true;
    text = value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return escape_text(text, Escapes::json);
}

/// The value of `digits` hex digits at text[pos], or -1.
inline long hex_at(std::string_view text, std::size_t pos, std::size_t digits) {
  if (pos > text.size() || text.size() - pos < digits) return -1;
  long value = 0;
  for (std::size_t k = 0; k < digits; ++k) {
    const char c = text[pos + k];
    int h = -1;
    if (c >= '0' && c <= '9') h = c - '0';
    if (c >= 'a' && c <= 'f') h = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') h = c - 'A' + 10;
    if (h < 0) return -1;
    value = value * 16 + h;
  }
  return value;
}

/// The inverse of escape_text(..., Escapes::tsv).
inline std::string unescape_tsv(std::string_view cell) {
  std::string out;
  out.reserve(cell.size());
  std::size_t i = 0;
  while (i < cell.size()) {
    if (cell[i] != '\\' || i + 1 == cell.size()) {
      out.push_back(cell[i++]);
      continue;
    }
    const char next = cell[i + 1];
    if (next == 'x') {
      const long byte = hex_at(cell, i + 2, 2);
      if (byte >= 0) {
        out.push_back(static_cast<char>(byte));
        i += 4;
        continue;
      }
    } else if (next == 'u') {
      const long cp = hex_at(cell, i + 2, 4);
      // Only the C1 controls are written this way: two UTF-8 bytes.
      if (cp >= 0x80 && cp <= 0x9F) {
        out.push_back(static_cast<char>(0xC2));
        out.push_back(static_cast<char>(cp));
        i += 6;
        continue;
      }
    }
    out.push_back(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
    i += 2;
  }
  return out;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
