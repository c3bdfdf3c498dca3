#pragma once

// The body of detail::parse_body (mgnify/detail/json.hpp): it instantiates nlohmann's parser.

#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/config.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/error_body.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL nlohmann::json parse_body(const std::string& body, const std::string& url) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw DecodeError("", url, "empty response body where JSON was expected");
  }
  if (nesting_exceeds(body)) {
    throw DecodeError("", url,
                      "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  try {
    return nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {
    // parse_error for bad syntax, out_of_range for numbers like 1e99999.
    // nlohmann ends a syntax error with the token it was reading ("; last
    // read: '...'"): in a login or refresh answer cut off mid-string, that is
    // the token itself, and in any body it can be megabytes long. The line,
    // column and reason stay.
    std::string reason = e.what();
    const auto quoted_input = reason.find("; last read: ");
    if (quoted_input != std::string::npos) reason.erase(quoted_input);
    throw DecodeError("", url, "invalid JSON: " + reason);
  }
}

}  // namespace detail
MGNIFY_NAMESPACE_END
