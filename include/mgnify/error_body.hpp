#pragma once

// One parser for every error body the three MGnify services send, so that each
// client surfaces the server's own words instead of a bare status code.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

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

/// Parses an error response body. Never throws: a body it cannot understand is
/// kept as a short excerpt.
MGNIFY_DECL ErrorBody parse_error_body(std::string_view body);

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/error_body.ipp"
#endif
