#pragma once

// One parser for every error body the three MGnify services send, so that each
// client surfaces the server's own words instead of a bare status code.

#include <cctype>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

/// One item of a FastAPI / django-ninja 422 `detail` list.
struct ValidationIssue {
  std::string type;
  std::vector<std::string> loc;  // integers in `loc` (list indexes) are kept as their decimal text
  std::string msg;
  nlohmann::json raw;  // the whole item, `ctx` and any future keys included
};

/// One member of a JSON:API `errors` array (legacy v1 API).
struct JsonApiError {
  std::string detail;
  std::string status;  // JSON:API sends the status as a string
  std::string code;
  std::string source_pointer;
};

/// What an error response said, whatever its shape.
struct ErrorBody {
  enum class Shape {
    empty,           // no body at all
    detail_string,   // {"detail": "text"}
    detail_list,     // {"detail": [{"type","loc","msg"}, ...]}
    jsonapi_errors,  // {"errors": [{"detail","status","code","source":{"pointer"}}]}
    field_errors,    // {"errors": {"field": ["msg", ...]}}
    other_json,      // valid JSON of any other shape
    text             // not JSON (an HTML page from a proxy, plain text)
  };
  Shape shape = Shape::empty;
  std::string message;  // one readable line summarising the body
  std::string code;     // a machine code when the server sent one ("token_not_valid", "not_found")
  std::vector<ValidationIssue> issues;
  std::vector<JsonApiError> api_errors;
  std::map<std::string, std::vector<std::string>> field_errors;
};

namespace detail {

inline constexpr std::size_t kErrorExcerptLimit = 200;

/// A scalar as text: a string as it is, null as "", anything else as its
/// JSON ("7", "true", "1.5").
inline std::string json_scalar_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return {};
  return value.dump();
}

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

/// Deepest nesting of arrays and objects the SDK decodes. nlohmann's dump()
/// and conversions, and the fast path's readers of values no model names,
/// recurse once per level: a server's 2 MB of "[[[..." would otherwise exhaust
/// the stack (a few hundred levels already do in a sanitizer build, whose
/// frames are large). MGnify's documents nest fewer than ten levels.
inline constexpr std::size_t kMaxJsonDepth = 256;

/// Whether `text` nests arrays or objects deeper than `limit` (strings are
/// skipped; the text need not be valid JSON).
inline bool nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth) {
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

// Collapses whitespace and strips markup so that an HTML error page still gives
// a one-line hint ("502 Bad Gateway") instead of kilobytes of tags. Comments
// and the contents of <script> and <style> are skipped: a framework's error
// page would otherwise spend the whole excerpt on CSS.
inline std::string text_excerpt(std::string_view body, std::size_t limit = kErrorExcerptLimit) {
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

// what() is one line: a server message with embedded newlines or tabs (a
// traceback, a multi-line DRF message) is folded. A run of whitespace that
// holds a control character becomes one space; plain spaces are the server's
// own text and stay as sent.
inline std::string one_line(std::string_view text) {
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

inline std::string join_loc(const std::vector<std::string>& loc) {
  std::string out;
  for (const auto& part : loc) {
    if (!out.empty()) out.push_back('.');
    out += part;
  }
  return out;
}

inline void parse_detail_list(const nlohmann::json& list, ErrorBody& out) {
  out.shape = ErrorBody::Shape::detail_list;
  for (const auto& item : list) {
    ValidationIssue issue;
    issue.raw = item;
    if (item.is_object()) {
      if (auto it = item.find("type"); it != item.end()) issue.type = json_scalar_text(*it);
      if (auto it = item.find("msg"); it != item.end()) issue.msg = json_scalar_text(*it);
      if (auto it = item.find("loc"); it != item.end() && it->is_array()) {
        for (const auto& part : *it) issue.loc.push_back(json_scalar_text(part));
      }
    } else {
      issue.msg = json_scalar_text(item);
    }
    out.issues.push_back(std::move(issue));
  }
  for (const auto& issue : out.issues) {
    if (!out.message.empty()) out.message += "; ";
    const std::string where = join_loc(issue.loc);
    out.message += where.empty() ? issue.msg : where + ": " + issue.msg;
  }
}

inline void parse_jsonapi_errors(const nlohmann::json& list, ErrorBody& out) {
  out.shape = ErrorBody::Shape::jsonapi_errors;
  for (const auto& item : list) {
    JsonApiError e;
    if (item.is_object()) {
      if (auto it = item.find("detail"); it != item.end()) e.detail = json_scalar_text(*it);
      if (auto it = item.find("status"); it != item.end()) e.status = json_scalar_text(*it);
      if (auto it = item.find("code"); it != item.end()) e.code = json_scalar_text(*it);
      if (auto src = item.find("source"); src != item.end() && src->is_object()) {
        if (auto p = src->find("pointer"); p != src->end()) e.source_pointer = json_scalar_text(*p);
      }
    } else {
      e.detail = json_scalar_text(item);
    }
    out.api_errors.push_back(std::move(e));
  }
  for (const auto& e : out.api_errors) {
    if (!out.message.empty()) out.message += "; ";
    out.message += e.detail;
  }
  if (!out.api_errors.empty()) out.code = out.api_errors.front().code;
}

inline void parse_field_errors(const nlohmann::json& object, ErrorBody& out) {
  out.shape = ErrorBody::Shape::field_errors;
  for (const auto& [field, messages] : object.items()) {
    auto& bucket = out.field_errors[field];
    if (messages.is_array()) {
      for (const auto& m : messages) bucket.push_back(json_scalar_text(m));
    } else {
      bucket.push_back(json_scalar_text(messages));
    }
  }
  for (const auto& [field, messages] : out.field_errors) {
    for (const auto& m : messages) {
      if (!out.message.empty()) out.message += "; ";
      // DRF's catch-all key carries no information worth showing to a person.
      out.message += field == "non_field_errors" ? m : field + ": " + m;
    }
  }
}

}  // namespace detail

namespace detail {
inline void parse_error_json(const nlohmann::json& doc, ErrorBody& out) {
  if (doc.is_object()) {
    if (auto it = doc.find("code"); it != doc.end() && it->is_string())
      out.code = it->get<std::string>();
    if (auto it = doc.find("detail"); it != doc.end()) {
      if (it->is_array()) {
        parse_detail_list(*it, out);
      } else {
        out.shape = ErrorBody::Shape::detail_string;
        out.message = json_scalar_text(*it);
      }
      return;
    }
    if (auto it = doc.find("errors"); it != doc.end()) {
      if (it->is_array()) {
        parse_jsonapi_errors(*it, out);
        return;
      }
      if (it->is_object()) {
        parse_field_errors(*it, out);
        return;
      }
    }
  }
  out.shape = ErrorBody::Shape::other_json;
  out.message = text_excerpt(doc.dump());
}
}  // namespace detail

/// Parses an error response body. Never throws: a body it cannot understand is
/// kept as a short excerpt.
MGNIFY_DECL ErrorBody parse_error_body(std::string_view body);

}  // namespace v0
}  // namespace mgnify

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/error_body.ipp"
#endif
