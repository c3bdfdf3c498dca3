#pragma once

// The v1 mock's JSON:API vocabulary: errors as DRF-JSON:API writes them, URL
// quoting as Django does, the request context and its links, include= and
// relationship objects.

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../genome_search_mock.hpp"
#include "../mock_server.hpp"
#include "common/text.hpp"
#include "data.hpp"
#include "downloads.hpp"
#include "files/files.hpp"

namespace mgnify::mock::v1routes {

using J = nlohmann::ordered_json;
namespace d = v1data;

struct HttpError {
  HttpError(int s, std::string b, std::string type = "application/json",
            std::vector<std::pair<std::string, std::string>> h = {})
      : status(s), body(std::move(b)), content_type(std::move(type)), headers(std::move(h)) {}
  int status;
  std::string body;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;
};
std::string error_body(const std::string& detail, const std::string& status,
                       const std::string& code, const std::optional<std::string>& pointer);
[[noreturn]] void not_found(const std::string& detail = "Not found.");
[[noreturn]] void bad_request(const std::string& detail, const std::string& code,
                              const std::string& pointer = "/data");
[[noreturn]] void html_not_found();
std::string percent_decode(const std::string& s, bool plus_is_space);
std::string quote_plus(const std::string& s);
std::string quote_path_segment(const std::string& s);

struct Ctx {
  const httplib::Request& req;
  std::string origin;    // http://host:port as the client addressed us
  std::string api;       // origin + /metagenomics/api/v1
  std::string raw_path;  // path exactly as sent
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in request order
  bool authenticated = false;

  std::optional<std::string> param(const std::string& key) const {
    std::optional<std::string> last;
    for (const auto& [k, v] : query) {
      if (k == key) last = v;
    }
    return last;
  }
  std::string url(const std::string& path) const { return api + "/" + path; }

  // DRF replace_query_param: parse_qs, replace one key, urlencode(sorted(...), doseq=True).
  std::string link_with(const std::string& key, const std::string& value) const {
    std::map<std::string, std::vector<std::string>> grouped;
    for (const auto& [k, v] : query) grouped[k].push_back(v);
    grouped[key] = {value};
    std::string q;
    for (const auto& [k, values] : grouped) {
      for (const auto& v : values) {
        if (!q.empty()) q.push_back('&');
        q += quote_plus(k) + "=" + quote_plus(v);
      }
    }
    return origin + raw_path + "?" + q;
  }
};

struct Includes {
  std::set<std::string> names;
  std::vector<J> included;
  std::set<std::pair<std::string, std::string>> seen;

  bool has(const std::string& name) const { return names.count(name) > 0; }
  void add(J obj) {
    auto key = std::make_pair(obj["type"].get<std::string>(), obj["id"].get<std::string>());
    if (seen.insert(key).second) included.push_back(std::move(obj));
  }
};
Includes parse_includes(const Ctx& ctx, const std::set<std::string>& supported);
J ident(const Ctx& ctx, const std::string& type, const std::string& id,
        const std::string& self_path);
J rel_link(const std::string& url);
J rel_many(const std::string& url, J data);
J rel_one(const std::string& type, const std::string& id, const std::string& url);
J rel_null();
std::string lineage_path(const std::string& lineage);

}  // namespace mgnify::mock::v1routes
