#pragma once

// What the response cache may keep and when it must ask again, from the
// messages themselves: Cache-Control on either side, and whether a response is
// the kind of body its request asked for (a proxy's HTML page sent with status
// 200 to a JSON call is an answer to nothing, and must not be replayed).

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline std::string_view trim_ascii_space(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

/// Calls `each` with every comma-separated item of `list`, trimmed, in lower case.
template <class Each>
void for_each_list_item(std::string_view list, Each&& each) {
  for (;;) {
    const std::size_t comma = list.find(',');
    const std::string item = ascii_lower(trim_ascii_space(list.substr(0, comma)));
    if (!item.empty()) each(item);
    if (comma == std::string_view::npos) return;
    list.remove_prefix(comma + 1);
  }
}

/// True when a Cache-Control header holds `directive`, with or without an
/// argument (`private` matches `private="Set-Cookie"`); "max-age=0" matches
/// only that value.
inline bool has_cache_directive(const http::Headers& headers, std::string_view directive) {
  bool found = false;
  for (const auto& [name, value] : headers) {
    if (!http::detail::iequals(name, "Cache-Control")) continue;
    for_each_list_item(value, [&](const std::string& item) {
      std::string compact;
      for (char c : item) {
        if (c != ' ' && c != '\t') compact.push_back(c);
      }
      const bool with_argument = compact.size() > directive.size() &&
                                 compact.compare(0, directive.size(), directive) == 0 &&
                                 compact[directive.size()] == '=';
      if (compact == directive || with_argument) found = true;
    });
  }
  return found;
}

/// The request wants the service's answer, not a stored one (it may still be stored).
inline bool asks_for_fresh_response(const http::Request& request) {
  return has_cache_directive(request.headers, "no-cache") ||
         has_cache_directive(request.headers, "max-age=0");
}

/// The response forbids keeping it, or using it without asking the service again.
inline bool forbids_storing(const http::Response& response) {
  return has_cache_directive(response.headers, "no-store") ||
         has_cache_directive(response.headers, "no-cache") ||
         has_cache_directive(response.headers, "max-age=0");
}

/// "type/subtype" of a Content-Type or an Accept item, in lower case.
inline std::string media_type_of(std::string_view value) {
  return ascii_lower(trim_ascii_space(value.substr(0, value.find(';'))));
}

inline bool is_json_media_type(std::string_view type) {
  constexpr std::string_view kSuffix = "+json";
  return type == "application/json" ||
         (type.rfind("application/", 0) == 0 && type.size() > kSuffix.size() &&
          type.compare(type.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0);
}

/// True when the response's Content-Type is one the request's Accept names
/// (`*/*` and `type/*` included; any JSON type answers a JSON request) and,
/// for JSON, the body parses. A response without a Content-Type answers
/// nothing; a request without Accept takes any type.
inline bool answers_accept(const http::Request& request, const http::Response& response) {
  const auto content_type = response.headers.get("Content-Type");
  if (!content_type) return false;
  const std::string type = media_type_of(*content_type);
  if (type.empty()) return false;
  bool accepted = !request.headers.contains("Accept");
  if (const auto accept = request.headers.get("Accept")) {
    for_each_list_item(*accept, [&](const std::string& item) {
      const std::string range = media_type_of(item);
      const bool any_subtype = range.size() > 2 && range.compare(range.size() - 2, 2, "/*") == 0 &&
                               type.compare(0, range.size() - 1, range, 0, range.size() - 1) == 0;
      if (range == "*/*" || range == type || any_subtype ||
          (is_json_media_type(range) && is_json_media_type(type))) {
        accepted = true;
      }
    });
  }
  return accepted && (!is_json_media_type(type) || nlohmann::json::accept(response.body));
}

}  // namespace detail
MGNIFY_NAMESPACE_END
