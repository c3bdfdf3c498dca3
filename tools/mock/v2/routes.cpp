// The v2 routes of the mock service. Behaviour follows proteins-v2-api.md
// Part B: {count, items} pages with page_size clamped at 100 and empty pages
// past the end, the service's exact error texts, JWT auth where a present but
// invalid token gets 401 even for public data, private objects answering 404
// to anyone but their owner, and 301s that add a missing trailing slash.

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/text.hpp"
#include "files/files.hpp"
#include "genome_search_mock.hpp"
#include "mock_server.hpp"
#include "v2_mock.hpp"

namespace mgnify::mock {

namespace {

using nlohmann::json;
using namespace v2data;
using Req = httplib::Request;
using Res = httplib::Response;

// ---- responses --------------------------------------------------------------

void send(Res& res, int status, const std::string& body) {
  res.status = status;
  res.set_content(body, "application/json; charset=utf-8");
}

void send_detail(Res& res, int status, const std::string& message) {
  send(res, status, py_dump(json{{"detail", message}}));
}

void send_html(Res& res, int status, const std::string& title) {
  res.status = status;
  res.set_content(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>" + title +
          "</title>\n</head>\n<body>\n  <h1>" + title +
          "</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n",
      "text/html; charset=utf-8");
}

void send_json(Res& res, const json& j) { send(res, 200, py_dump(j)); }

// ninja's 422: a list of pydantic errors (input and url removed, ctx kept).
struct Issues {
  json list = json::array();
  void add(const std::string& type, const char* source, const std::string& name,
           const std::string& msg, const json& ctx = nullptr) {
    json issue = {{"type", type}, {"loc", {source, name}}, {"msg", msg}};
    if (!ctx.is_null()) issue["ctx"] = ctx;
    list.push_back(std::move(issue));
  }
  bool empty() const { return list.empty(); }
  void send_to(Res& res) const { send(res, 422, py_dump(json{{"detail", list}})); }
};

// An integer query parameter with a lower bound; absent gives `fallback`.
std::optional<long long> int_param(const Req& req, const char* name, long long minimum,
                                   std::optional<long long> fallback, Issues& issues) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  const auto value = parse_int(text);
  if (!value) {
    issues.add("int_parsing", "query", name,
               "Input should be a valid integer, unable to parse string as an integer");
    return fallback;
  }
  if (*value < minimum) {
    issues.add("greater_than_equal", "query", name,
               "Input should be greater than or equal to " + std::to_string(minimum),
               {{"ge", minimum}});
    return fallback;
  }
  return value;
}

std::string expected_list(const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += i + 1 == values.size() ? " or " : ", ";
    out += "'" + values[i] + "'";
  }
  return out;
}

// A literal/enum query parameter; absent gives "".
std::string choice_param(const Req& req, const char* name, const std::vector<std::string>& allowed,
                         const char* type, Issues& issues) {
  if (!req.has_param(name)) return "";
  const std::string value = req.get_param_value(name);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    const std::string expected = expected_list(allowed);
    issues.add(type, "query", name, "Input should be " + expected, {{"expected", expected}});
    return "";
  }
  return value;
}

// Sends one page of `count` items; item(i) gives the i-th item's JSON text.
void send_page(const Req& req, Res& res, std::size_t count,
               const std::function<std::string(std::size_t)>& item, long long default_size = 100,
               Issues issues = {}) {
  const long long page = *int_param(req, "page", 1, 1, issues);
  long long size = *int_param(req, "page_size", 1, default_size, issues);
  if (!issues.empty()) return issues.send_to(res);
  size = std::min<long long>(size, 100);  // ninja clamps, it does not reject
  std::string body = "{\"count\": " + std::to_string(count) + ", \"items\": [";
  const auto start = static_cast<unsigned long long>((page - 1) * size);
  for (unsigned long long i = start; i < count && i < start + static_cast<unsigned long long>(size);
       ++i) {
    if (i > start) body += ", ";
    body += item(static_cast<std::size_t>(i));
  }
  body += "]}";
  send(res, 200, body);
}

template <class Vec, class Fn>
void send_indexed_page(const Req& req, Res& res, const Vec& indexes, Fn item,
                       long long default_size = 100, Issues issues = {}) {
  send_page(
      req, res, indexes.size(), [&](std::size_t i) { return item(indexes[i]); }, default_size,
      std::move(issues));
}

bool lineage_matches(const std::string& lineage, const std::string& filter) {
  if (filter.empty()) return true;
  const std::string a = lineage_path(lineage);
  const std::string f = lineage_path(filter);
  return a.compare(0, f.size(), f) == 0 && (a.size() == f.size() || a[f.size()] == '.');
}

// ---- indexes ----------------------------------------------------------------

struct Index {
  std::unordered_map<std::string, int> study, insdc, sample, run, assembly, analysis, genome,
      catalogue, super_study;
  std::unordered_map<long long, int> publication;
};

const Index& index() {
  static const Index* const ix = new Index([] {
    Index x;
    const auto& d = dataset();
    for (std::size_t i = 0; i < d.studies.size(); ++i) {
      x.study[d.studies[i].accession] = static_cast<int>(i);
      if (!d.studies[i].is_private) {
        for (const auto& e : d.studies[i].ena_accessions) x.insdc[e] = static_cast<int>(i);
      }
    }
    for (std::size_t i = 0; i < d.samples.size(); ++i) {
      for (const auto& e : d.samples[i].ena_accessions) x.sample[e] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < d.runs.size(); ++i)
      x.run[d.runs[i].accession] = static_cast<int>(i);
    for (std::size_t i = 0; i < d.assemblies.size(); ++i)
      x.assembly[d.assemblies[i].accession] = static_cast<int>(i);
    for (std::size_t i = 0; i < d.analyses.size(); ++i)
      x.analysis[d.analyses[i].accession] = static_cast<int>(i);
    for (std::size_t i = 0; i < d.genomes.size(); ++i)
      x.genome[d.genomes[i].accession] = static_cast<int>(i);
    for (std::size_t i = 0; i < d.catalogues.size(); ++i) {
      x.catalogue[d.catalogues[i].at("catalogue_id").get<std::string>()] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < d.super_studies.size(); ++i) {
      x.super_study[d.super_studies[i].at("slug").get<std::string>()] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < d.publications.size(); ++i)
      x.publication[d.publications[i].pubmed_id] = static_cast<int>(i);
    return x;
  }());  // never destroyed, as dataset() is not
  return *ix;
}

int find(const std::unordered_map<std::string, int>& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? -1 : it->second;
}

// ---- auth -------------------------------------------------------------------

enum class TokenState { valid, expired, dead };

struct AuthState {
  std::mutex mutex;
  std::map<std::string, std::pair<std::string, TokenState>> tokens;  // token -> (user, state)
  int serial = 0;

  AuthState() {
    tokens[kValidToken] = {kUser, TokenState::valid};
    tokens[kOtherUserToken] = {kOtherUser, TokenState::valid};
    tokens[kExpiredToken] = {kUser, TokenState::expired};
    tokens[kDeadToken] = {kUser, TokenState::dead};
  }
  std::optional<std::pair<std::string, TokenState>> lookup(const std::string& token) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = tokens.find(token);
    if (it == tokens.end()) return std::nullopt;
    return it->second;
  }
  std::string issue(const std::string& user) {
    std::lock_guard<std::mutex> lock(mutex);
    const std::string token = "mock-jwt." + user + "." + std::to_string(++serial);
    tokens[token] = {user, TokenState::valid};
    return token;
  }
};

const char* const kTokenNotValid =
    R"({"detail": "Given token not valid for any token type", "code": "token_not_valid", "messages": [{"token_class": "SlidingToken", "token_type": "sliding", "message": "Token is invalid or expired"}]})";

struct Caller {
  std::optional<std::string> user;
};

// ninja runs the auth callbacks in order: a Bearer token that does not verify
// is a 401, even where anonymous access would have been fine.
bool authenticate(const Req& req, Res& res, AuthState& auth, Caller& caller) {
  const std::string header = req.get_header_value("Authorization");
  if (header.empty()) return true;
  const std::string scheme = "Bearer ";
  if (header.compare(0, scheme.size(), scheme) != 0) return true;
  const auto found = auth.lookup(header.substr(scheme.size()));
  if (!found || found->second != TokenState::valid) {
    send(res, 401, kTokenNotValid);
    return false;
  }
  caller.user = found->first;
  return true;
}

bool can_see(const StudyRec& s, const Caller& caller) {
  return !s.is_private || (caller.user && *caller.user == s.owner);
}

// ---- route registration -----------------------------------------------------

using Handler = std::function<void(const Req&, Res&, const Caller&)>;

// The data set keeps the production URLs of files (kFilesHost, and signed
// private-data links on the API host); every response names the mock instead.
// Its origin is taken from the request's Host, as the v1 mock builds its links,
// because the port is ephemeral and the address the client used is the one
// that reaches this process. Paths stay as in production, so only the host
// differs from a real response. Unlike production, public files then share the
// API's origin, so a client sends its token along to them: harmless here, and
// the SDK's origin rule is tested with the fake transport.
// One pass into a new string: a list page holds a thousand URLs, and replacing
// them in place would move the rest of the body once per URL.
std::string replace_all(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  std::size_t done = 0;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, done)) {
    if (out.empty()) out.reserve(text.size() + text.size() / 8);
    out.append(text, done, at - done);
    out += to;
    done = at + from.size();
  }
  if (done == 0) return text;
  out.append(text, done, std::string::npos);
  return out;
}
void localise_file_urls(const Req& req, Res& res) {
  if (res.body.find("https://") == std::string::npos) return;
  const std::string origin =
      "http://" + (req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1");
  res.body = replace_all(res.body, kPrivateFilesPrefix, origin + kV2Prefix + "/private-data/");
  res.body = replace_all(res.body, std::string(kFilesHost) + "/", origin + "/");
}

struct Router {
  MockServer& server;
  std::shared_ptr<AuthState> auth;

  // `opt_auth`: the endpoint runs the JWT callbacks (B3 "opt"/"req"); public-only
  // endpoints never look at the header.
  void get(const std::string& pattern, bool opt_auth, Handler handler) {
    auto state = auth;
    server.server().Get(std::string(kV2Prefix) + "/" + pattern,
                        [state, opt_auth, handler](const Req& req, Res& res) {
                          Caller caller;
                          if (opt_auth && !authenticate(req, res, *state, caller)) return;
                          handler(req, res, caller);
                          localise_file_urls(req, res);
                        });
    if (!pattern.empty() && pattern.back() == '/') {
      // Django's APPEND_SLASH: 301 to the same path with the slash, query kept.
      server.server().Get(
          std::string(kV2Prefix) + "/" + pattern.substr(0, pattern.size() - 1),
          [](const Req& req, Res& res) {
            const auto q = req.target.find('?');
            const std::string path = q == std::string::npos ? req.target : req.target.substr(0, q);
            const std::string query = q == std::string::npos ? "" : req.target.substr(q);
            res.status = 301;
            res.set_header("Location", path + "/" + query);
          });
    }
  }
};

std::string study_not_found(const std::string& acc) {
  return "Study with accession = " + acc + "  was not found";
}

// Rows of analyses/{acc}/annotations/{type}.
json typed_rows(const std::string& type, const std::string& accession, int n) {
  json rows = json::array();
  const int seed = static_cast<int>(std::hash<std::string>{}(accession) % 97);
  for (int i = 0; i < n; ++i) {
    if (type == "pfams") {
      char pf[16];
      std::snprintf(pf, sizeof pf, "PF%05d", 1 + (i * 37 + seed) % 20000);
      rows.push_back(
          {{"count", 1000 - i * 7 % 1000 + seed}, {"description", pf}, {"organism", nullptr}});
    } else {
      rows.push_back(
          {{"count", 500 - i % 500 + seed},
           {"description", "sk__Bacteria;k__;p__Bacillota;c__Bacilli;o__Order" + std::to_string(i)},
           {"organism", "Organism " + std::to_string(i)}});
    }
  }
  return rows;
}

const std::vector<std::string>& annotation_types() {
  static const std::vector<std::string> t = {
      "taxonomies__ssu", "taxonomies__lsu",       "taxonomies__its_one_db",  "taxonomies__unite",
      "taxonomies__pr2", "taxonomies__dada2_pr2", "taxonomies__dada2_silva", "pfams"};
  return t;
}

json publication_annotations(long long pubmed_id) {
  auto group = [&](const char* type, const char* title, const char* description, const char* text,
                   const char* exact, const char* uri) {
    return json{
        {"annotation_type", type},
        {"annotations",
         json::array(
             {{{"annotation_text", text},
               {"mentions", json::array({{{"exact", exact},
                                          {"icase_text", text},
                                          {"id", nullptr},
                                          {"postfix", " was used"},
                                          {"prefix", "In PMID " + std::to_string(pubmed_id) + ", "},
                                          {"provider", "Metagenomics"},
                                          {"section", nullptr},
                                          {"tags", json::array({{{"name", exact}, {"uri", uri}}})},
                                          {"type", type}}})}}})},
        {"description", description},
        {"title", title}};
  };
  return {{"other",
           json::array({group(
               "Gene", "Gene", "Target gene(s) (e.g. hypervariable regions of 16s/18s rRNA gene)",
               "16s rrna", "16S rRNA", "http://purl.obolibrary.org/obo/NCIT_C25975")})},
          {"sample_processing",
           json::array({group("LS", "Library strategy", "e.g. amplicon, whole metagenome",
                              "rna-seq", "RNA-seq", "http://www.ebi.ac.uk/efo/EFO_0002770")})}};
}

json super_study_list_item(const json& detail) {
  return {{"slug", detail.at("slug")},
          {"title", detail.at("title")},
          {"description", detail.at("description")},
          {"logo_url", detail.at("logo_url")}};
}

}  // namespace

void prepare_v2_data() { index(); }

// The handlers look the data set up when they run: building it takes longer than most
// tests, and most processes that start every service never ask v2 for anything.
void register_v2_routes(MockServer& server) {
  Router r{server, std::make_shared<AuthState>()};
  auto auth = r.auth;

  // Genome search: COBS hits and gather results come from the data set's genomes.
  register_genome_search_routes(server, {kV2Prefix, "/", true, [](const Req&) {
                                           std::vector<SearchableGenome> out;
                                           for (const auto& g : dataset().genomes) {
                                             out.push_back({g.accession, g.catalogue_id, g.list});
                                           }
                                           return out;
                                         }});

  // ---- studies ----
  r.get("studies/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    Issues issues;
    const std::string order =
        choice_param(req, "order", {"accession", "-accession", "updated_at", "-updated_at", ""},
                     "literal_error", issues);
    const std::string pipeline =
        choice_param(req, "has_analyses_from_pipeline",
                     {"V1", "V2", "V3", "V4", "V4.1", "V5", "V6", "V6.1"}, "enum", issues);
    const std::string search = req.get_param_value("search");
    const std::string lineage = req.get_param_value("biome_lineage");
    std::vector<int> hits;
    for (int i = 0; i < kPublicStudies; ++i) {
      const auto& s = d.studies[static_cast<std::size_t>(i)];
      if (!lineage_matches(s.lineage, lineage)) continue;
      if ((pipeline == "V6" || pipeline == "V6.1") && (s.legacy || s.analyses.empty())) continue;
      if (pipeline == "V5" && !s.legacy) continue;
      if (!search.empty()) {
        bool match = contains_icase(s.title, search) || s.accession == search;
        for (const auto& e : s.ena_accessions) match = match || contains_icase(e, search);
        if (!match) continue;
      }
      hits.push_back(i);
    }
    if (!order.empty()) {
      const bool desc = order[0] == '-';
      const bool by_date = order.find("updated_at") != std::string::npos;
      std::stable_sort(hits.begin(), hits.end(), [&](int a, int b) {
        const auto& x = d.studies[static_cast<std::size_t>(a)];
        const auto& y = d.studies[static_cast<std::size_t>(b)];
        const std::string& kx = by_date ? x.updated_at : x.accession;
        const std::string& ky = by_date ? y.updated_at : y.accession;
        return desc ? ky < kx : kx < ky;
      });
    }
    send_indexed_page(
        req, res, hits,
        [&d](int i) { return py_dump(d.studies[static_cast<std::size_t>(i)].list); }, 100, issues);
  });
  r.get("studies/insdc/([^/]+)", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.insdc, req.matches[1]);
    if (i < 0) return send_detail(res, 404, "Not Found");
    send_json(res, {{"accession", d.studies[static_cast<std::size_t>(i)].accession}});
  });
  // Resolves a study the caller may see, or answers the 404 the service gives.
  auto visible_study = [](const std::string& acc, const Caller& caller,
                          Res& res) -> const StudyRec* {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.study, acc);
    if (i < 0) {
      send_detail(res, 404, study_not_found(acc));
      return nullptr;
    }
    const auto& s = d.studies[static_cast<std::size_t>(i)];
    if (!can_see(s, caller)) {
      send_detail(res, 404, "Not found.");
      return nullptr;
    }
    return &s;
  };
  r.get("studies/([^/]+)", true, [visible_study](const Req& req, Res& res, const Caller& caller) {
    if (const auto* s = visible_study(req.matches[1], caller, res)) send(res, 200, s->detail);
  });
  r.get("studies/([^/]+)/analyses/", true,
        [visible_study](const Req& req, Res& res, const Caller& caller) {
          if (const auto* s = visible_study(req.matches[1], caller, res)) {
            send_indexed_page(req, res, s->analyses, [](int i) { return analysis_list(i); });
          }
        });
  r.get("studies/([^/]+)/samples/", true,
        [visible_study](const Req& req, Res& res, const Caller& caller) {
          const Dataset& d = dataset();
          if (const auto* s = visible_study(req.matches[1], caller, res)) {
            send_indexed_page(req, res, s->samples, [&d](int i) {
              return py_dump(d.samples[static_cast<std::size_t>(i)].with_metadata);
            });
          }
        });
  r.get("studies/([^/]+)/publications/", true,
        [visible_study](const Req& req, Res& res, const Caller& caller) {
          const Dataset& d = dataset();
          if (const auto* s = visible_study(req.matches[1], caller, res)) {
            send_indexed_page(req, res, s->publications, [&d](int i) {
              return py_dump(d.publications[static_cast<std::size_t>(i)].list);
            });
          }
        });
  r.get("my-data/studies/", true, [](const Req& req, Res& res, const Caller& caller) {
    const Dataset& d = dataset();
    if (!caller.user) return send_detail(res, 401, "Unauthorized");
    std::vector<int> mine;
    for (std::size_t i = 0; i < d.studies.size(); ++i) {
      if (d.studies[i].owner == *caller.user) mine.push_back(static_cast<int>(i));
    }
    send_indexed_page(req, res, mine,
                      [&d](int i) { return py_dump(d.studies[static_cast<std::size_t>(i)].list); });
  });

  // ---- samples ----
  r.get("samples/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    Issues issues;
    const std::string order = choice_param(
        req, "order", {"sample_title", "-sample_title", "updated_at", "-updated_at", ""},
        "literal_error", issues);
    const std::string search = req.get_param_value("search");
    const std::string lineage = req.get_param_value("biome_lineage");
    std::vector<int> hits;
    for (std::size_t i = 0; i < d.samples.size(); ++i) {
      const auto& s = d.samples[i];
      if (!lineage_matches(s.lineage, lineage)) continue;
      if (!search.empty()) {
        bool match = contains_icase(s.title, search);
        for (const auto& e : s.ena_accessions) match = match || contains_icase(e, search);
        if (!match) continue;
      }
      hits.push_back(static_cast<int>(i));
    }
    if (!order.empty()) {
      const bool desc = order[0] == '-';
      const bool by_date = order.find("updated_at") != std::string::npos;
      std::stable_sort(hits.begin(), hits.end(), [&](int a, int b) {
        const auto& x = d.samples[static_cast<std::size_t>(a)];
        const auto& y = d.samples[static_cast<std::size_t>(b)];
        const std::string& kx = by_date ? x.updated_at : x.title;
        const std::string& ky = by_date ? y.updated_at : y.title;
        return desc ? ky < kx : kx < ky;
      });
    }
    send_indexed_page(
        req, res, hits,
        [&d](int i) { return py_dump(d.samples[static_cast<std::size_t>(i)].list); }, 100, issues);
  });
  r.get("samples/([^/]+)", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.sample, req.matches[1]);
    if (i < 0)
      return send_detail(res, 404,
                         "No sample available for accession " + std::string(req.matches[1]));
    const auto& s = d.samples[static_cast<std::size_t>(i)];
    json detail = s.with_metadata;
    detail["studies"] = json::array({d.studies[static_cast<std::size_t>(s.study)].list});
    send_json(res, detail);
  });
  // The service does not catch an unknown sample here: Django's HTML 500.
  r.get("samples/([^/]+)/runs/", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.sample, req.matches[1]);
    if (i < 0) return send_html(res, 500, "Server Error (500)");
    send_indexed_page(req, res, d.samples[static_cast<std::size_t>(i)].runs,
                      [&d](int k) { return py_dump(d.runs[static_cast<std::size_t>(k)].list); });
  });
  r.get("samples/([^/]+)/assemblies/", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.sample, req.matches[1]);
    if (i < 0) return send_html(res, 500, "Server Error (500)");
    std::vector<int> assemblies;
    for (int run : d.samples[static_cast<std::size_t>(i)].runs) {
      for (int a : d.runs[static_cast<std::size_t>(run)].assemblies) assemblies.push_back(a);
    }
    send_indexed_page(req, res, assemblies, [&d](int k) {
      return py_dump(d.assemblies[static_cast<std::size_t>(k)].detail);
    });
  });

  // ---- runs ----
  r.get("runs/", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    Issues issues;
    const std::string code = choice_param(
        req, "has_experiment_type",
        {"METAT", "METAG", "AMPLI", "ASSEM", "HYASS", "LRASS", "METAB", "UNKNO"}, "enum", issues);
    std::vector<int> hits;
    for (std::size_t i = 0; i < d.runs.size(); ++i) {
      if (code.empty() || d.runs[i].code == code) hits.push_back(static_cast<int>(i));
    }
    send_indexed_page(
        req, res, hits, [&d](int i) { return py_dump(d.runs[static_cast<std::size_t>(i)].list); },
        100, issues);
  });
  auto find_run = [](const std::string& acc, Res& res) {
    const Index& ix = index();
    const int i = find(ix.run, acc);
    if (i < 0) send_detail(res, 404, "Analysed run with accession " + acc + " not found.");
    return i;
  };
  r.get("runs/([^/]+)", true, [find_run](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_run(req.matches[1], res);
    if (i < 0) return;
    const auto& run = d.runs[static_cast<std::size_t>(i)];
    json detail = run.list;
    detail["sample"] = d.samples[static_cast<std::size_t>(run.sample)].list;
    detail["study"] = d.studies[static_cast<std::size_t>(run.study)].list;
    send_json(res, detail);
  });
  r.get("runs/([^/]+)/analyses/", true, [find_run](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_run(req.matches[1], res);
    if (i < 0) return;
    send_indexed_page(req, res, d.runs[static_cast<std::size_t>(i)].analyses,
                      [](int k) { return analysis_list(k); });
  });
  r.get("runs/([^/]+)/assemblies/", true, [find_run](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_run(req.matches[1], res);
    if (i < 0) return;
    send_indexed_page(req, res, d.runs[static_cast<std::size_t>(i)].assemblies, [&d](int k) {
      return py_dump(d.assemblies[static_cast<std::size_t>(k)].detail);
    });
  });

  // ---- assemblies ----
  r.get("assemblies/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    send_page(req, res, d.assemblies.size(),
              [&d](std::size_t i) { return py_dump(d.assemblies[i].list); });
  });
  auto find_assembly = [](const std::string& acc, Res& res) {
    const Index& ix = index();
    const int i = find(ix.assembly, acc);
    if (i < 0) send_detail(res, 404, "Not Found");
    return i;
  };
  r.get("assemblies/([^/]+)", false, [find_assembly](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_assembly(req.matches[1], res);
    if (i >= 0) send_json(res, d.assemblies[static_cast<std::size_t>(i)].detail);
  });
  r.get("assemblies/([^/]+)/analyses", false,
        [find_assembly](const Req& req, Res& res, const Caller&) {
          const Dataset& d = dataset();
          const int i = find_assembly(req.matches[1], res);
          if (i < 0) return;
          send_indexed_page(req, res, d.assemblies[static_cast<std::size_t>(i)].analyses,
                            [](int k) { return analysis_list(k); });
        });
  auto genome_ref = [](int g) {
    const Dataset& d = dataset();
    const auto& genome = d.genomes[static_cast<std::size_t>(g % kGenomes)];
    return json{{"accession", genome.accession},
                {"catalogue_id", genome.catalogue_id},
                {"taxon_lineage", genome.taxon_lineage},
                {"catalogue_version", genome.catalogue_id == "human-gut-v2-0" ? "2.0" : "1.0"},
                {"ena_genome_accession", genome.list.at("ena_genome_accession")}};
  };
  r.get("assemblies/([^/]+)/genome-links", false,
        [find_assembly, genome_ref](const Req& req, Res& res, const Caller&) {
          const Dataset& d = dataset();
          const int i = find_assembly(req.matches[1], res);
          if (i < 0) return;
          const std::string acc = d.assemblies[static_cast<std::size_t>(i)].accession;
          send_page(req, res, 3, [&](std::size_t k) {
            return py_dump(
                {{"genome", genome_ref(i * 3 + static_cast<int>(k))},
                 {"species_rep", k == 0 ? json(genome_ref(i * 3).at("accession")) : json(nullptr)},
                 {"mag_accession", acc + "_bin." + std::to_string(k + 1)},
                 {"updated_at", "2025-06-01T10:00:00Z"}});
          });
        });
  r.get("assemblies/([^/]+)/additional-contained-genomes", false,
        [find_assembly, genome_ref](const Req& req, Res& res, const Caller&) {
          const Dataset& d = dataset();
          const int i = find_assembly(req.matches[1], res);
          if (i < 0) return;
          const auto& run =
              d.runs[static_cast<std::size_t>(d.assemblies[static_cast<std::size_t>(i)].run)];
          send_page(req, res, 2, [&](std::size_t k) {
            return py_dump({{"genome", genome_ref(i * 7 + static_cast<int>(k))},
                            {"run_accession", run.accession},
                            {"containment", 0.5 + static_cast<double>(k) / 4},
                            {"cani", k == 0 ? json(0.97) : json(nullptr)},
                            {"updated_at", "2025-06-01T10:00:00.250Z"}});
          });
        });

  // ---- analyses ----
  r.get("analyses/", false, [](const Req& req, Res& res, const Caller&) {
    // Top-level lists hold public objects only; private analyses sort last in the data set.
    send_page(req, res, static_cast<std::size_t>(kPublicAnalyses),
              [](std::size_t i) { return analysis_detail(static_cast<int>(i)); });
  });
  auto visible_analysis = [](const std::string& acc, const Caller& caller,
                             Res& res) -> const AnalysisRec* {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.analysis, acc);
    if (i < 0) {
      send_detail(res, 404, "Analysis with accession = " + acc + "  was not found");
      return nullptr;
    }
    const auto& a = d.analyses[static_cast<std::size_t>(i)];
    if (!can_see(d.studies[static_cast<std::size_t>(a.study)], caller)) {
      send_detail(res, 404, "Not found.");
      return nullptr;
    }
    return &a;
  };
  r.get("analyses/([^/]+)", true,
        [visible_analysis](const Req& req, Res& res, const Caller& caller) {
          if (const auto* a = visible_analysis(req.matches[1], caller, res))
            send(res, 200, analysis_detail(a->index));
        });
  r.get("analyses/([^/]+)/annotations", true,
        [visible_analysis](const Req& req, Res& res, const Caller& caller) {
          const auto* a = visible_analysis(req.matches[1], caller, res);
          if (!a) return;
          json doc = json::parse(analysis_detail(a->index));
          doc["annotations"] = {{"pfams", typed_rows("pfams", a->accession, 5)},
                                {"taxonomies",
                                 {{"ssu", typed_rows("taxonomies__ssu", a->accession, 3)},
                                  {"lsu", typed_rows("taxonomies__lsu", a->accession, 2)}}}};
          send_json(res, doc);
        });
  r.get("analyses/([^/]+)/annotations/([^/]+)", true,
        [visible_analysis](const Req& req, Res& res, const Caller& caller) {
          const std::string type = req.matches[2];
          const auto& types = annotation_types();
          if (std::find(types.begin(), types.end(), type) == types.end()) {
            Issues issues;
            const std::string expected = expected_list(types);
            issues.add("enum", "path", "annotation_type", "Input should be " + expected,
                       {{"expected", expected}});
            return issues.send_to(res);
          }
          const auto* a = visible_analysis(req.matches[1], caller, res);
          if (!a) return;
          const json rows = typed_rows(type, a->accession, kTypedAnnotationRows);
          send_page(req, res, rows.size(), [&rows](std::size_t i) { return py_dump(rows[i]); });
        });

  // ---- biomes ----
  r.get("biomes/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    Issues issues;
    const auto max_depth = int_param(req, "max_depth", 1, std::nullopt, issues);
    const std::string lineage = req.get_param_value("biome_lineage");
    std::vector<int> hits;
    for (std::size_t i = 0; i < d.biomes.size(); ++i) {
      const std::string l = d.biomes[i].at("lineage").get<std::string>();
      if (!lineage_matches(l, lineage)) continue;
      if (max_depth && static_cast<long long>(std::count(l.begin(), l.end(), ':') + 1) > *max_depth)
        continue;
      hits.push_back(static_cast<int>(i));
    }
    send_indexed_page(
        req, res, hits, [&d](int i) { return py_dump(d.biomes[static_cast<std::size_t>(i)]); }, 100,
        issues);
  });

  // ---- publications ----
  r.get("publications/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    Issues issues;
    const std::string order = choice_param(req, "order", {"published_year", "-published_year", ""},
                                           "literal_error", issues);
    const auto after = int_param(req, "published_after", -1000000, std::nullopt, issues);
    const auto before = int_param(req, "published_before", -1000000, std::nullopt, issues);
    const std::string title = req.get_param_value("title");
    std::vector<int> hits;
    for (std::size_t i = 0; i < d.publications.size(); ++i) {
      const auto& p = d.publications[i];
      if ((after || before) && p.year == 0) continue;
      if (after && p.year < *after) continue;
      if (before && p.year > *before) continue;
      if (!title.empty() && !contains_icase(p.title, title)) continue;
      hits.push_back(static_cast<int>(i));
    }
    if (!order.empty()) {
      const bool desc = order[0] == '-';
      std::stable_sort(hits.begin(), hits.end(), [&](int a, int b) {
        const int x = d.publications[static_cast<std::size_t>(a)].year;
        const int y = d.publications[static_cast<std::size_t>(b)].year;
        return desc ? y < x : x < y;
      });
    }
    send_indexed_page(
        req, res, hits,
        [&d](int i) { return py_dump(d.publications[static_cast<std::size_t>(i)].list); }, 100,
        issues);
  });
  auto find_publication = [](const std::string& text, Res& res) {
    const Index& ix = index();
    const auto id = parse_int(text);
    if (!id) {
      Issues issues;
      issues.add("int_parsing", "path", "pubmed_id",
                 "Input should be a valid integer, unable to parse string as an integer");
      issues.send_to(res);
      return -1;
    }
    auto it = ix.publication.find(*id);
    if (it == ix.publication.end()) {
      send_detail(res, 404, "Publication with pubmed_id = " + text + "  was not found");
      return -1;
    }
    return it->second;
  };
  r.get("publications/([^/]+)", false, [find_publication](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_publication(req.matches[1], res);
    if (i < 0) return;
    const auto& p = d.publications[static_cast<std::size_t>(i)];
    json detail = p.list;
    detail["studies"] = json::array();
    for (int s : p.studies)
      detail["studies"].push_back(d.studies[static_cast<std::size_t>(s)].list);
    send_json(res, detail);
  });
  r.get("publications/([^/]+)/annotations", false,
        [find_publication](const Req& req, Res& res, const Caller&) {
          const Dataset& d = dataset();
          const int i = find_publication(req.matches[1], res);
          if (i < 0) return;
          // The last publication stands for a Europe PMC failure, which the service reports as 404.
          if (i == kPublications - 1) return send_detail(res, 404, "Not Found");
          send_json(res,
                    publication_annotations(d.publications[static_cast<std::size_t>(i)].pubmed_id));
        });

  // ---- super studies ----
  r.get("super-studies/", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    send_page(
        req, res, d.super_studies.size(),
        [&d](std::size_t i) { return py_dump(super_study_list_item(d.super_studies[i])); }, 50);
  });
  r.get("super-studies/([^/]+)", false, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.super_study, req.matches[1]);
    if (i < 0)
      return send_detail(
          res, 404, "SuperStudy with slug = " + std::string(req.matches[1]) + "  was not found");
    send_json(res, d.super_studies[static_cast<std::size_t>(i)]);
  });

  // ---- genomes (catalogue routes first: "genomes/catalogues" would match genomes/{acc}) ----
  auto genome_list = [](const Req& req, Res& res, const std::string& catalogue) {
    const Dataset& d = dataset();
    Issues issues;
    const std::string order = choice_param(
        req, "order",
        {"accession", "-accession", "length", "-length", "completeness", "-completeness",
         "contamination", "-contamination", "num_genomes_total", "-num_genomes_total", ""},
        "literal_error", issues);
    const std::string search = req.get_param_value("search");
    const std::string lineage = req.get_param_value("biome_lineage");
    std::vector<int> hits;
    for (std::size_t i = 0; i < d.genomes.size(); ++i) {
      const auto& g = d.genomes[i];
      if (!catalogue.empty() && g.catalogue_id != catalogue) continue;
      if (!lineage_matches(g.lineage, lineage)) continue;
      if (!search.empty() && g.accession != search && !contains_icase(g.taxon_lineage, search) &&
          !contains_icase(g.catalogue_id, search)) {
        continue;
      }
      hits.push_back(static_cast<int>(i));
    }
    if (!order.empty()) {
      const bool desc = order[0] == '-';
      const std::string key = desc ? order.substr(1) : order;
      std::stable_sort(hits.begin(), hits.end(), [&](int a, int b) {
        const auto& x = d.genomes[static_cast<std::size_t>(a)].list.at(key);
        const auto& y = d.genomes[static_cast<std::size_t>(b)].list.at(key);
        return desc ? y < x : x < y;
      });
    }
    send_indexed_page(
        req, res, hits,
        [&d](int i) { return py_dump(d.genomes[static_cast<std::size_t>(i)].list); }, 100, issues);
  };
  r.get("genomes/", false,
        [genome_list](const Req& req, Res& res, const Caller&) { genome_list(req, res, ""); });
  r.get("genomes/catalogues/", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    send_page(req, res, d.catalogues.size(),
              [&d](std::size_t i) { return py_dump(d.catalogues[i]); });
  });
  r.get("genomes/catalogues/([^/]+)", true, [](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.catalogue, req.matches[1]);
    if (i < 0) return send_detail(res, 404, "Not Found");
    send_json(res, d.catalogues[static_cast<std::size_t>(i)]);
  });
  r.get("genomes/catalogues/([^/]+)/genomes/", true,
        [genome_list](const Req& req, Res& res, const Caller&) {
          const Index& ix = index();
          if (find(ix.catalogue, req.matches[1]) < 0) return send_detail(res, 404, "Not Found");
          genome_list(req, res, req.matches[1]);
        });
  auto find_genome = [](const Req& req, Res& res) {
    const Dataset& d = dataset();
    const Index& ix = index();
    const int i = find(ix.genome, req.matches[1]);
    const std::string catalogue = req.get_param_value("catalogue_id");
    if (i < 0 ||
        (!catalogue.empty() && d.genomes[static_cast<std::size_t>(i)].catalogue_id != catalogue)) {
      send_detail(res, 404, "Not Found");
      return -1;
    }
    return i;
  };
  r.get("genomes/([^/]+)", true, [find_genome](const Req& req, Res& res, const Caller&) {
    const Dataset& d = dataset();
    const int i = find_genome(req, res);
    if (i >= 0) send_json(res, d.genomes[static_cast<std::size_t>(i)].detail);
  });
  r.get("genomes/([^/]+)/annotations", true,
        [find_genome](const Req& req, Res& res, const Caller&) {
          const Dataset& d = dataset();
          const int i = find_genome(req, res);
          if (i < 0) return;
          const auto& g = d.genomes[static_cast<std::size_t>(i)];
          send_json(res, {{"accession", g.accession},
                          {"annotations",
                           {{"pfams", typed_rows("pfams", g.accession, 4)},
                            {"cog_categories", json::array({{{"name", "J"},
                                                             {"description", "Translation"},
                                                             {"count", 120 + i}}})}}}});
        });

  // ---- auth ----
  server.server().Post(std::string(kV2Prefix) + "/auth/sliding", [auth](const Req& req, Res& res) {
    json body;
    try {
      body = json::parse(req.body);
    } catch (const json::exception&) {
      Issues issues;
      issues.add("json_invalid", "body", "0", "JSON decode error", {{"error", "Expecting value"}});
      issues.list[0]["loc"] = {"body", 0};
      return issues.send_to(res);
    }
    Issues issues;
    for (const char* field : {"username", "password"}) {
      const bool present = body.is_object() && body.contains(field);
      if (!present) {
        issues.list.push_back({{"type", "missing"},
                               {"loc", {"body", "user_token", field}},
                               {"msg", "Field required"}});
      } else if (!body[field].is_string()) {
        issues.list.push_back({{"type", "string_type"},
                               {"loc", {"body", "user_token", field}},
                               {"msg", "Input should be a valid string"}});
      }
    }
    if (!issues.empty()) return issues.send_to(res);
    const std::string user = body["username"].get<std::string>();
    if (user != kUser || body["password"].get<std::string>() != kPassword) {
      return send_detail(res, 401, "Invalid credentials");
    }
    send_json(res, {{"token", auth->issue(user)}, {"token_type", "sliding"}});
  });
  auto token_from_body = [](const Req& req, Res& res) -> std::optional<std::string> {
    json body = json::parse(req.body, nullptr, false);
    if (!body.is_object() || !body.contains("token") || !body["token"].is_string() ||
        body["token"].get<std::string>().empty()) {
      send(res, 400,
           R"({"detail": "Invalid input.", "code": "invalid", "token": "token is required"})");
      return std::nullopt;
    }
    return body["token"].get<std::string>();
  };
  server.server().Post(
      std::string(kV2Prefix) + "/auth/sliding/refresh",
      [auth, token_from_body](const Req& req, Res& res) {
        const auto token = token_from_body(req, res);
        if (!token) return;
        const auto found = auth->lookup(*token);
        if (!found || found->second == TokenState::dead) {
          return send(res, 401,
                      R"({"detail": "Token is invalid or expired", "code": "token_not_valid"})");
        }
        send_json(res, {{"token", auth->issue(found->first)}, {"token_type", "sliding"}});
      });
  server.server().Post(
      std::string(kV2Prefix) + "/auth/verify", [auth, token_from_body](const Req& req, Res& res) {
        const auto token = token_from_body(req, res);
        if (!token) return;
        const auto found = auth->lookup(*token);
        if (!found || found->second != TokenState::valid) {
          return send(res, 401,
                      R"({"detail": "Token is invalid or expired", "code": "token_not_valid"})");
        }
        send(res, 200, "{}");
      });

  // ---- listed files ----
  // Served with the files mock's code at the paths the listings give, under the
  // mock's origin (see localise_file_urls). Only listed files exist.
  auto serve_listed = [&server](const Req& req, Res& res, const std::string& production_url) {
    if (!lists_file(production_url)) return send_html(res, 404, "Not Found");
    ServeOptions options;
    options.bytes_per_second = server.file_bytes_per_second();
    serve_file(req, res, req.path.substr(req.path.rfind('/') + 1),
               std::make_shared<const std::string>(file_bytes(req.path)), options);
  };
  server.server().Get("/pub/databases/metagenomics/(.+)", [serve_listed](const Req& req, Res& res) {
    serve_listed(req, res, kFilesHost + req.path);
  });
  server.server().Get(
      std::string(kV2Prefix) + "/private-data/(.+)", [serve_listed](const Req& req, Res& res) {
        // A signed link: without its token the file is not served.
        if (!req.has_param("expires") || !req.has_param("token")) {
          return send_detail(res, 403, "Authentication credentials were not provided.");
        }
        serve_listed(req, res, std::string("https://www.ebi.ac.uk") + req.path);
      });

  // ---- the service's own description ----
  // An OpenAPI 3.1 document naming the paths this mock serves, with the
  // live document's info block; enough for a client to read it as JSON.
  server.server().Get(std::string(kV2Prefix) + "/openapi.json", [](const Req&, Res& res) {
    static const std::vector<std::pair<const char*, const char*>> operations = {
        {"get", "studies/"},
        {"get", "studies/{accession}"},
        {"get", "studies/{accession}/samples/"},
        {"get", "samples/"},
        {"get", "samples/{accession}"},
        {"get", "runs/"},
        {"get", "analyses/"},
        {"get", "analyses/{accession}"},
        {"get", "biomes/"},
        {"get", "genomes/"},
        {"get", "genomes/{accession}"},
        {"post", "auth/sliding"},
        {"post", "auth/sliding/refresh"},
        {"post", "auth/verify"}};
    json paths = json::object();
    for (const auto& [verb, path] : operations) {
      paths[std::string(kV2Prefix) + "/" + path][verb] = {
          {"operationId", std::string(verb) + "_" + path},
          {"responses", {{"200", {{"description", "OK"}}}}}};
    }
    const json doc = {{"openapi", "3.1.0"},
                      {"info", {{"title", "MGnify API"}, {"version", "2.0.0"}}},
                      {"paths", paths}};
    res.set_content(doc.dump(), "application/json");
  });

  // Anything else under the prefix: Django's HTML 404 page.
  server.server().Get(std::string(kV2Prefix) + "(/.*)?",
                      [](const Req&, Res& res) { send_html(res, 404, "Not Found"); });
}

}  // namespace mgnify::mock
