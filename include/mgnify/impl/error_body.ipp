#pragma once

// The body of parse_error_body (mgnify/error_body.hpp): it instantiates nlohmann's parser.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/error_body.hpp"

namespace mgnify {
inline namespace v0 {

MGNIFY_DECL ErrorBody parse_error_body(std::string_view body) {
  ErrorBody out;
  std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return out;
  nlohmann::json doc = detail::nesting_exceeds(body)
                           ? nlohmann::json(nlohmann::json::value_t::discarded)
                           : nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
  if (doc.is_discarded()) {
    out.shape = ErrorBody::Shape::text;
    out.message = detail::text_excerpt(body);
    return out;
  }
  detail::parse_error_json(doc, out);
  out.message = detail::one_line(out.message);
  return out;
}

}  // namespace v0
}  // namespace mgnify
