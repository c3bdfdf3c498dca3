#pragma once

// A number keeps the text the service wrote when a double would change it.
//
// nlohmann reads every JSON number into an int64, a uint64 or a double and
// writes it back in its own spelling: `1.50` comes back as `1.5`, `1e3` as
// `1000.0`, `-0` as `0`, and a value with more digits than a double holds
// (`0.12345678901234567890`, an integer past 2^64) is rounded. Models keep
// the text they were decoded from (RawJson::text()), so a writer that has it
// can put each such number back exactly as it was sent.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>

#include "mgnify/config.hpp"
#include "mgnify/detail/text_escape.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// Number texts by JSON Pointer (RFC 6901: "/attributes/sample-metadata/3/value").
using NumberTexts = std::unordered_map<std::string, std::string>;

/// The numbers of a JSON text whose text nlohmann's dump of the parsed value
/// would change, by where they are. Most documents have none, and then the
/// result is empty without any parse. `text` is read as JSON that a decoder
/// has already accepted; text that is not (or nests past kMaxJsonDepth)
/// gives an empty result rather than an error.
MGNIFY_DECL NumberTexts changed_number_texts(std::string_view text);

/// Whether `text` (one JSON number) reads back as `value`: a writer uses a
/// sent text only for the value it was sent for.
MGNIFY_DECL bool number_text_reads_as(const std::string& text, const nlohmann::json& value);

/// The text sent at `pointer` when it reads back as `value`, else nullptr.
MGNIFY_DECL const std::string* sent_number_text(const NumberTexts& texts,
                                                const std::string& pointer,
                                                const nlohmann::json& value);

/// Whether nlohmann writes the number `token` back as it is, decided
/// without parsing for plain integers of up to 18 digits.
MGNIFY_DECL bool number_kept_by_dump(std::string_view token);

/// A character of a JSON number token.
MGNIFY_DECL bool is_json_number_char(char c);

/// Gives `raw` the text it was decoded from when that text holds a number a
/// double would respell (and leaves it alone otherwise, so that a document
/// decoded through nlohmann is not parsed again to read `raw`): a writer can
/// then put the number back as sent. `text` must be the JSON of raw's value.
MGNIFY_DECL void keep_sent_numbers(RawJson& raw, std::string_view text);

/// "/" + `key` escaped as a JSON Pointer token ("~" as "~0", "/" as "~1").
MGNIFY_DECL std::string pointer_token(std::string_view key);

template <class Json>
nlohmann::json number_value(const Json& number) {
  if (number.is_number_unsigned()) return number.template get<std::uint64_t>();
  if (number.is_number_integer()) return number.template get<std::int64_t>();
  return number.template get<double>();
}

template <class Json>
void append_json_keeping_numbers(std::string& out, const Json& value, int indent, int depth,
                                 bool& replaced, const NumberTexts& texts, std::string& pointer) {
  const auto newline = [&](int level) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
  if (value.is_object() && !value.empty()) {
    out += '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!first) out += ',';
      first = false;
      newline(depth + 1);
      out += json_text(Json(it.key()), -1, replaced);
      out += indent < 0 ? ":" : ": ";
      const std::size_t base = pointer.size();
      pointer += pointer_token(it.key());
      append_json_keeping_numbers(out, it.value(), indent, depth + 1, replaced, texts, pointer);
      pointer.resize(base);
    }
    newline(depth);
    out += '}';
  } else if (value.is_array() && !value.empty()) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i) out += ',';
      newline(depth + 1);
      const std::size_t base = pointer.size();
      pointer += '/';
      pointer += std::to_string(i);
      append_json_keeping_numbers(out, value[i], indent, depth + 1, replaced, texts, pointer);
      pointer.resize(base);
    }
    newline(depth);
    out += ']';
  } else if (const std::string* sent = value.is_number()
                                           ? sent_number_text(texts, pointer, number_value(value))
                                           : nullptr) {
    out += *sent;
  } else {
    out += json_text(value, indent, replaced);
  }
}

/// json_text(value, indent, replaced), except that a number found in
/// `texts` at its place, reading back as the same value, is written as sent.
/// The layout is nlohmann's (compact, or `indent` spaces per level).
template <class Json>
std::string json_text_keeping_numbers(const Json& value, int indent, bool& replaced,
                                      const NumberTexts& texts) {
  if (texts.empty()) return json_text(value, indent, replaced);
  std::string out;
  std::string pointer;
  append_json_keeping_numbers(out, value, indent, 0, replaced, texts, pointer);
  return out;
}

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/number_text.ipp"
#endif
