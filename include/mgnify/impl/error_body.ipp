#pragma once

// The bodies of mgnify/error_body.hpp: parse_error_body and the readers of each
// shape of error document it knows.

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/detail/text_excerpt.hpp"
#include "mgnify/error_body.hpp"

MGNIFY_NAMESPACE_BEGIN

namespace detail {

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

MGNIFY_NAMESPACE_END
