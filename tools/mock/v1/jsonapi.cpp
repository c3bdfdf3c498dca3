#include "jsonapi.hpp"

namespace mgnify::mock::v1routes {

std::string error_body(const std::string& detail, const std::string& status,
                       const std::string& code, const std::optional<std::string>& pointer) {
  J e;
  e["detail"] = detail;
  if (pointer) e["source"] = {{"pointer", *pointer}};
  e["status"] = status;
  e["code"] = code;
  return J{{"errors", J::array({e})}}.dump();
}

[[noreturn]] void not_found(const std::string& detail) {
  // Django's Http404 loses its pointer in DRF-JSON:API; explicit NotFound keeps /data.
  const bool generic = detail == "Not found.";
  throw HttpError{404, error_body(detail, "404", "not_found",
                                  generic ? std::nullopt : std::optional<std::string>("/data"))};
}
[[noreturn]] void bad_request(const std::string& detail, const std::string& code,
                              const std::string& pointer) {
  throw HttpError{400, error_body(detail, "400", code, pointer)};
}
[[noreturn]] void html_not_found() {
  throw HttpError{
      404,
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n"
      "<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this "
      "server.</p>\n</body>\n</html>\n",
      "text/html; charset=utf-8"};
}

std::string percent_decode(const std::string& s, bool plus_is_space) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else if (plus_is_space && s[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// Python's quote_plus: only letters, digits and "_.-~" stay as they are.
std::string quote_plus(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '~') {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

// Django's escape_uri_path keeps these in a path.
std::string quote_path_segment(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) ||
        std::string_view("-._~!$&'()*+,;=:@").find(ch) != std::string_view::npos) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

Includes parse_includes(const Ctx& ctx, const std::set<std::string>& supported) {
  Includes inc;
  auto value = ctx.param("include");
  if (!value || value->empty()) return inc;
  std::size_t start = 0;
  while (start <= value->size()) {
    auto comma = value->find(',', start);
    std::string name =
        value->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::replace(name.begin(), name.end(), '_', '-');
    if (!name.empty()) {
      if (!supported.count(name)) {
        bad_request("This endpoint does not support the include parameter for path " + name,
                    "parse_error");
      }
      inc.names.insert(name);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return inc;
}

J ident(const Ctx& ctx, const std::string& type, const std::string& id,
        const std::string& self_path) {
  return J{{"type", type}, {"id", id}, {"links", {{"self", ctx.url(self_path)}}}};
}
J rel_link(const std::string& url) { return J{{"links", {{"related", url}}}}; }
J rel_many(const std::string& url, J data) {
  return J{{"links", {{"related", url}}}, {"data", std::move(data)}};
}
J rel_one(const std::string& type, const std::string& id, const std::string& url) {
  return J{{"data", {{"type", type}, {"id", id}}}, {"links", {{"related", url}}}};
}
J rel_null() { return J{{"data", nullptr}}; }

std::string lineage_path(const std::string& lineage) {
  return "biomes/" + quote_path_segment(lineage);
}

}  // namespace mgnify::mock::v1routes
