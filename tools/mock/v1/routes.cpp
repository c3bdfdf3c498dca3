// The legacy v1 API mock: routes, JSON:API rendering, page-number and cursor
// pagination, include, filters, errors and auth, built the way emgapi (Django
// REST framework + DRF-JSON:API) builds them. Links are absolute, use the
// request's Host, keep every query parameter (sorted and re-encoded like DRF's
// replace_query_param) and replace only `page` or `cursor`.

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

namespace mgnify::mock {

namespace {

using J = nlohmann::ordered_json;
namespace d = v1data;

// ---------------------------------------------------------------- errors --

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
                       const std::string& code, const std::optional<std::string>& pointer) {
  J e;
  e["detail"] = detail;
  if (pointer) e["source"] = {{"pointer", *pointer}};
  e["status"] = status;
  e["code"] = code;
  return J{{"errors", J::array({e})}}.dump();
}

[[noreturn]] void not_found(const std::string& detail = "Not found.") {
  // Django's Http404 loses its pointer in DRF-JSON:API; explicit NotFound keeps /data.
  const bool generic = detail == "Not found.";
  throw HttpError{404, error_body(detail, "404", "not_found",
                                  generic ? std::nullopt : std::optional<std::string>("/data"))};
}
[[noreturn]] void bad_request(const std::string& detail, const std::string& code,
                              const std::string& pointer = "/data") {
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

// ------------------------------------------------------------------ URLs --

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

// ------------------------------------------------------------- includes --

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

// -------------------------------------------------------- relationships --

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

// ------------------------------------------------------------ renderers --

std::string iso_minus_minutes(std::size_t minutes) {
  // 2023-06-30T23:59:00 minus `minutes`, kept within 2023 for simplicity of the arithmetic.
  const long total = 181L * 24 * 60 + 23 * 60 + 59 - static_cast<long>(minutes % (180L * 24 * 60));
  const long day_of_year = total / (24 * 60);
  const long hh = (total / 60) % 24;
  const long mm = total % 60;
  static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  long month = 0, day = day_of_year;
  while (day >= month_days[month]) day -= month_days[month++];
  char buf[64];
  std::snprintf(buf, sizeof buf, "2023-%02ld-%02ldT%02ld:%02ld:%02ld", month + 1, day + 1, hh, mm,
                static_cast<long>(minutes % 60));
  return buf;
}
std::string date_of(std::size_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04zu-%02zu-%02zu", 2012 + n % 10, 1 + n % 12, 1 + n % 28);
  return buf;
}

J biome_json(const Ctx& ctx, std::size_t b);
J sample_json(const Ctx& ctx, std::size_t s, Includes* inc);
J download_json(const Ctx& ctx, const std::string& owner_kind, std::size_t owner, std::size_t k);
J publication_json(const Ctx& ctx, std::size_t p);
J analysis_json(const Ctx& ctx, std::size_t s, Includes* inc);
J run_json(const Ctx& ctx, std::size_t s, Includes* inc);
J assembly_json(const Ctx& ctx, std::size_t s, Includes* inc);

std::size_t biome_samples_count(std::size_t b) {
  static const std::vector<std::size_t> counts = [] {
    std::vector<std::size_t> c(d::biomes().size(), 0);
    std::vector<std::size_t> per_leaf(d::biomes().size(), 0);
    for (std::size_t s = 0; s < d::kSamples; ++s) ++per_leaf[d::sample_biome(s)];
    for (std::size_t b2 = 0; b2 < c.size(); ++b2) {
      for (std::size_t leaf = 0; leaf < c.size(); ++leaf) {
        if (d::in_subtree(d::biomes()[leaf].lineage, d::biomes()[b2].lineage))
          c[b2] += per_leaf[leaf];
      }
    }
    return c;
  }();
  return counts[b];
}

J biome_json(const Ctx& ctx, std::size_t b) {
  const std::string lineage = d::biomes()[b].lineage;
  const std::string base = ctx.url(lineage_path(lineage));
  J attrs{{"samples-count", biome_samples_count(b)},
          {"biome-name", d::biomes()[b].name},
          {"lineage", lineage}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"children", rel_link(base + "/children")},
         {"genomes", rel_link(base + "/genomes")},
         {"studies", rel_link(base + "/studies")}};
  return J{{"type", "biomes"},
           {"id", lineage},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

// Private studies (mydata) use indexes kStudies.. kStudies + kPrivateStudies.
std::string any_study_accession(std::size_t i) {
  return i < d::kStudies ? d::study_accession(i)
                         : d::fmt("MGYS%08llu", 90000001 + (i - d::kStudies));
}

J study_json(const Ctx& ctx, std::size_t i, bool detail, Includes* inc) {
  const std::string acc = any_study_accession(i);
  const std::string base = ctx.url("studies/" + acc);
  const std::size_t b = d::study_biome(i);
  const bool is_private = i >= d::kStudies;
  J attrs;
  attrs["samples-count"] = is_private ? 0 : d::study_sample_end(i) - d::study_sample_begin(i);
  attrs["accession"] = acc;
  attrs["bioproject"] = i % 10 == 9 ? J(nullptr) : J(d::fmt("PRJEB%llu", 40000 + i));
  attrs["is-private"] = is_private;
  attrs["secondary-accession"] = d::fmt("ERP%06llu", 100000 + i);
  attrs["centre-name"] = d::study_centre(i);
  attrs["public-release-date"] = nullptr;
  attrs["study-abstract"] = "Deterministic mock study " + std::to_string(i + 1) + " of " +
                            d::biomes()[b].lineage + " samples.";
  attrs["study-name"] =
      std::string("Mock ") + d::biomes()[b].name + " study " + std::to_string(i + 1);
  attrs["data-origination"] = i % 2 == 0 ? "SUBMITTED" : "HARVESTED";
  attrs["last-update"] = iso_minus_minutes(i);

  J rels;
  {
    J biomes = J::array(
        {ident(ctx, "biomes", d::biomes()[b].lineage, lineage_path(d::biomes()[b].lineage))});
    rels["biomes"] = rel_many(base + "/biomes", biomes);
    if (inc && inc->has("biomes")) inc->add(biome_json(ctx, b));
  }
  auto many = [&](const char* name, const std::function<void(J&)>& fill) {
    if (inc && inc->has(name)) {
      J data = J::array();
      fill(data);
      rels[name] = rel_many(base + "/" + name, data);
    } else {
      rels[name] = rel_link(base + "/" + name);
    }
  };
  many("publications", [&](J& data) {
    if (auto p = d::study_publication(i); p >= 0 && !is_private) {
      const auto pi = static_cast<std::size_t>(p);
      data.push_back(ident(ctx, "publications", std::to_string(25000000 + pi * 137),
                           "publications/" + std::to_string(25000000 + pi * 137)));
      inc->add(publication_json(ctx, pi));
    }
  });
  rels["geocoordinates"] = rel_link(base + "/geocoordinates");
  many("downloads", [&](J& data) {
    for (std::size_t k = 0; k < d::download_count(d::DownloadOwner::study) && !is_private; ++k) {
      J dl = download_json(ctx, "study", i, k);
      data.push_back(J{{"type", dl["type"]}, {"id", dl["id"]}, {"links", dl["links"]}});
      inc->add(std::move(dl));
    }
  });
  many("analyses", [&](J& data) {
    if (is_private) return;
    for (std::size_t s = d::study_sample_begin(i); s < d::study_sample_end(i); ++s) {
      data.push_back(ident(ctx, "analysis-jobs", d::analysis_accession(s),
                           "analyses/" + d::analysis_accession(s)));
      inc->add(analysis_json(ctx, s, nullptr));
    }
  });
  many("samples", [&](J& data) {
    if (is_private) return;
    for (std::size_t s = d::study_sample_begin(i); s < d::study_sample_end(i); ++s) {
      data.push_back(
          ident(ctx, "samples", d::sample_accession(s), "samples/" + d::sample_accession(s)));
      inc->add(sample_json(ctx, s, nullptr));
    }
  });
  if (detail) rels["studies"] = rel_many(base + "/studies", J::array());
  return J{{"type", "studies"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J sample_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::sample_accession(s);
  const std::string base = ctx.url("samples/" + acc);
  const std::size_t b = d::sample_biome(s);
  const std::string lineage = d::biomes()[b].lineage;
  const bool host = lineage.rfind("root:Host-associated", 0) == 0;
  char temp[32];
  std::snprintf(temp, sizeof temp, "%g", d::sample_temperature(s));
  char depth[32];
  std::snprintf(depth, sizeof depth, "%.2f", static_cast<double>(s % 50) / 4.0);
  J metadata = J::array({
      J{{"key", "investigation type"}, {"value", "metagenome"}, {"unit", nullptr}},
      J{{"key", "temperature"}, {"value", temp}, {"unit", "°C"}},
      J{{"key", "depth"}, {"value", depth}, {"unit", "m"}},
      J{{"key", "geographic location (country and/or sea,region)"},
        {"value", s % 3 == 0 ? "Atlantic Ocean" : "United Kingdom"},
        {"unit", nullptr}},
      J{{"key", "instrument model"}, {"value", "Illumina HiSeq 2500"}, {"unit", nullptr}},
  });
  J attrs;
  attrs["sample-metadata"] = metadata;
  attrs["longitude"] =
      std::round((-170.0 + static_cast<double>((s * 53) % 3400) / 10.0) * 1e4) / 1e4;
  attrs["biosample"] = d::fmt("SAMEA%07llu", 2000000 + s);
  attrs["latitude"] = std::round((-60.0 + static_cast<double>((s * 37) % 1200) / 10.0) * 1e4) / 1e4;
  attrs["accession"] = acc;
  attrs["analysis-completed"] = date_of(s + 3);
  attrs["collection-date"] = date_of(s);
  attrs["geo-loc-name"] =
      s % 5 == 4 ? J(nullptr) : J(s % 3 == 0 ? "Atlantic Ocean" : "United Kingdom");
  attrs["sample-desc"] = "Mock sample " + std::to_string(s + 1);
  attrs["environment-biome"] = d::biomes()[b].name;
  attrs["environment-feature"] = s % 2 ? "sea water" : "sediment";
  attrs["environment-material"] = s % 2 ? "water" : "soil";
  attrs["sample-name"] = "S" + std::to_string(s + 1);
  attrs["sample-alias"] = "alias-" + std::to_string(s + 1);
  attrs["host-tax-id"] = host ? J(9606) : J(nullptr);
  attrs["species"] = host ? J("human gut metagenome") : J(nullptr);
  attrs["last-update"] = iso_minus_minutes(s);

  const std::size_t st = d::sample_study(s);
  J rels;
  rels["studies"] =
      rel_many(base + "/studies", J::array({ident(ctx, "studies", d::study_accession(st),
                                                  "studies/" + d::study_accession(st))}));
  if (inc && inc->has("runs")) {
    rels["runs"] = rel_many(
        base + "/runs",
        J::array({ident(ctx, "runs", d::run_accession(s), "runs/" + d::run_accession(s))}));
    inc->add(run_json(ctx, s, nullptr));
  } else {
    rels["runs"] = rel_link(base + "/runs");
  }
  rels["biome"] = rel_one("biomes", lineage, ctx.url(lineage_path(lineage)));
  if (inc && inc->has("biome")) inc->add(biome_json(ctx, b));
  return J{{"type", "samples"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J run_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::run_accession(s);
  const std::string base = ctx.url("runs/" + acc);
  J attrs{{"experiment-type", d::experiment_type_of(s)},
          {"accession", acc},
          {"secondary-accession", d::fmt("SRR%07llu", 5000000 + s)},
          {"instrument-platform", "ILLUMINA"},
          {"instrument-model", "Illumina HiSeq 2500"},
          {"ena-study-accession", d::fmt("PRJEB%llu", 40000 + d::sample_study(s))},
          {"is-private", false}};
  J rels;
  const std::size_t st = d::sample_study(s);
  rels["study"] =
      rel_one("studies", d::study_accession(st), ctx.url("studies/" + d::study_accession(st)));
  rels["sample"] =
      rel_one("samples", d::sample_accession(s), ctx.url("samples/" + d::sample_accession(s)));
  if (inc && inc->has("sample")) inc->add(sample_json(ctx, s, nullptr));
  J assemblies = J::array();
  if (d::has_assembly(s)) {
    assemblies.push_back(ident(ctx, "assemblies", d::assembly_accession(s),
                               "assemblies/" + d::assembly_accession(s)));
    if (inc && inc->has("assemblies")) inc->add(assembly_json(ctx, s, nullptr));
  }
  rels["assemblies"] = rel_many(base + "/assemblies", assemblies);
  rels["pipelines"] =
      J{{"data", J::array({ident(ctx, "pipelines", d::analysis_pipeline(s),
                                 std::string("pipelines/") + d::analysis_pipeline(s))})}};
  rels["analyses"] = rel_link(base + "/analyses");
  rels["extra-annotations"] = rel_link(base + "/extra-annotations");
  return J{{"type", "runs"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J assembly_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::assembly_accession(s);
  const std::string base = ctx.url("assemblies/" + acc);
  J attrs{{"experiment-type", "assembly"},
          {"accession", acc},
          {"wgs-accession", d::fmt("OBJK%02llu", s % 100)},
          {"legacy-accession", s % 8 == 3 ? J(d::fmt("GCA_%09llu", 900000000 + s)) : J(nullptr)},
          {"coverage", static_cast<double>(s % 90) + 0.5},
          {"min-gap-length", s % 3 == 0 ? J(nullptr) : J(10 + s % 5)},
          {"is-private", false}};
  J rels;
  J runs = J::array({ident(ctx, "runs", d::run_accession(s), "runs/" + d::run_accession(s))});
  if (inc && inc->has("runs")) inc->add(run_json(ctx, s, nullptr));
  rels["runs"] = rel_many(base + "/runs", runs);
  rels["samples"] =
      rel_many(base + "/samples", J::array({ident(ctx, "samples", d::sample_accession(s),
                                                  "samples/" + d::sample_accession(s))}));
  rels["analyses"] = rel_link(base + "/analyses");
  rels["pipelines"] =
      J{{"data", J::array({ident(ctx, "pipelines", d::analysis_pipeline(s),
                                 std::string("pipelines/") + d::analysis_pipeline(s))})}};
  rels["extra-annotations"] = rel_link(base + "/extra-annotations");
  return J{{"type", "assemblies"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J analysis_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::analysis_accession(s);
  const std::string base = ctx.url("analyses/" + acc);
  J summary = J::array(
      {J{{"key", "Submitted nucleotide sequences"}, {"value", std::to_string(100000 + s * 7)}},
       J{{"key", "Predicted CDS"}, {"value", std::to_string(50000 + s * 3)}},
       J{{"key", "Contigs"}, {"value", std::to_string(d::analysis_contigs(s))}}});
  J attrs{{"analysis-summary", summary},
          {"pipeline-version", d::analysis_pipeline(s)},
          {"analysis-status", s % 50 == 49 ? "QC not passed" : "completed"},
          {"accession", acc},
          {"experiment-type", d::experiment_type_of(s)},
          {"complete-time", iso_minus_minutes(s * 3)},
          {"instrument-platform", "ILLUMINA"},
          {"instrument-model", "Illumina HiSeq 2500"},
          {"is-private", false},
          {"last-update", iso_minus_minutes(s * 2)},
          {"mgx-accession", s % 7 == 0 ? J(d::fmt("MGX%07llu", s + 1)) : J(nullptr)}};
  J rels;
  const std::size_t st = d::sample_study(s);
  rels["sample"] =
      rel_one("samples", d::sample_accession(s), ctx.url("samples/" + d::sample_accession(s)));
  if (inc && inc->has("sample")) inc->add(sample_json(ctx, s, nullptr));
  rels["study"] =
      rel_one("studies", d::study_accession(st), ctx.url("studies/" + d::study_accession(st)));
  if (d::has_assembly(s)) {
    rels["run"] = rel_null();
    rels["assembly"] = rel_one("assemblies", d::assembly_accession(s),
                               ctx.url("assemblies/" + d::assembly_accession(s)));
    if (inc && inc->has("assembly")) inc->add(assembly_json(ctx, s, nullptr));
  } else {
    rels["run"] = rel_one("runs", d::run_accession(s), ctx.url("runs/" + d::run_accession(s)));
    rels["assembly"] = rel_null();
  }
  if (inc && inc->has("downloads")) {
    J data = J::array();
    for (std::size_t k = 0; k < d::download_count(d::DownloadOwner::analysis); ++k) {
      J dl = download_json(ctx, "analysis", s, k);
      data.push_back(J{{"type", dl["type"]}, {"id", dl["id"]}, {"links", dl["links"]}});
      inc->add(std::move(dl));
    }
    rels["downloads"] = rel_many(base + "/downloads", data);
  } else {
    rels["downloads"] = rel_link(base + "/downloads");
  }
  for (const char* name : {"taxonomy", "taxonomy-lsu", "taxonomy-ssu", "taxonomy-itsonedb",
                           "taxonomy-itsunite", "go-terms", "go-slim", "interpro-identifiers",
                           "antismash-gene-clusters", "genome-properties"}) {
    std::string path = name;
    if (path.rfind("taxonomy-", 0) == 0) path = "taxonomy/" + path.substr(9);
    if (path == "taxonomy/itsunite") path = "taxonomy/unite";
    rels[name] = rel_link(base + "/" + path);
  }
  return J{{"type", "analysis-jobs"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J download_json(const Ctx& ctx, const std::string& owner_kind, std::size_t owner, std::size_t k) {
  // The file itself (alias, digest) comes from downloads.cpp, which also serves it at `self`.
  std::string type, self;
  d::DownloadFile f;
  if (owner_kind == "study") {
    type = "study-downloads";
    f = d::download_file(d::DownloadOwner::study, owner, k);
    self = ctx.url("studies/" + d::study_accession(owner) + "/pipelines/" + f.pipeline + "/file/" +
                   f.alias);
  } else if (owner_kind == "analysis") {
    type = "analysis-job-downloads";
    f = d::download_file(d::DownloadOwner::analysis, owner, k);
    self = ctx.url("analyses/" + d::analysis_accession(owner) + "/file/" + f.alias);
  } else if (owner_kind == "genome") {
    type = "genome-downloads";
    f = d::download_file(d::DownloadOwner::genome, owner, k);
    self = ctx.url("genomes/" + d::genome_accession(owner) + "/downloads/" + f.alias);
  } else {
    type = "genome-catalogue-downloads";
    f = d::download_file(d::DownloadOwner::catalogue, owner, k);
    self = ctx.url(std::string("genome-catalogues/") + d::catalogues()[owner].id + "/downloads/" +
                   f.alias);
  }
  J attrs{
      {"alias", f.alias},
      {"file-format",
       {{"name", f.format},
        {"extension", f.extension},
        {"compression", std::string(f.extension).find(".gz") != std::string::npos}}},
      {"description",
       {{"label", f.label}, {"description", std::string(f.label) + " (" + f.format + ")"}}},
      {"group-type", f.group},
      {"file-checksum", {{"checksum", f.checksum}, {"checksum-algorithm", f.checksum_algorithm}}}};
  J out{{"type", type}, {"id", f.alias}, {"attributes", attrs}};
  if (!f.pipeline.empty()) {
    out["relationships"] = {
        {"pipeline", rel_one("pipelines", f.pipeline, ctx.url("pipelines/" + f.pipeline))}};
  }
  out["links"] = {{"self", self}};
  return out;
}

J publication_json(const Ctx& ctx, std::size_t p) {
  const std::string id = std::to_string(25000000 + p * 137);
  const std::string base = ctx.url("publications/" + id);
  std::size_t studies = 0;
  for (std::size_t i = 0; i < d::kStudies; ++i)
    studies += d::study_publication(i) == static_cast<std::int64_t>(p);
  J attrs{{"pubmed-id", 25000000 + p * 137},
          {"pubmed-central-id", p % 3 == 0 ? J(nullptr) : J(d::fmt("PMC%07llu", 4000000 + p))},
          {"pub-title", "Mock publication " + std::to_string(p + 1)},
          {"pub-abstract", "An abstract about mock metagenomes."},
          {"authors", "Doe J, Roe R"},
          {"doi", d::fmt("10.1000/mock.%llu", p + 1)},
          {"isbn", nullptr},
          {"published-year", 2010 + p % 14},
          {"pub-type", "journal article"},
          {"issue", std::to_string(1 + p % 12)},
          {"volume", std::to_string(10 + p % 30)},
          {"raw-pages", "1-10"},
          {"iso-journal", "Mock J"},
          {"medline-journal", "Mock journal"},
          {"pub-url", nullptr},
          {"studies-count", studies},
          {"samples-count", 0}};
  J rels{{"studies", rel_link(base + "/studies")}, {"samples", rel_link(base + "/samples")}};
  return J{{"type", "publications"},
           {"id", id},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J experiment_type_json(const Ctx& ctx, std::size_t e) {
  const std::string name = d::experiment_types()[e];
  const std::string base = ctx.url("experiment-types/" + name);
  std::size_t count = 0;
  for (std::size_t s = 0; s < 4; ++s) count += name == d::experiment_type_of(s);
  count *= d::kSamples / 4;
  J attrs{{"experiment-type", name}, {"samples-count", count}, {"runs-count", count}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"runs", rel_link(base + "/runs")},
         {"analyses", rel_link(base + "/analyses")}};
  return J{{"type", "experiment-types"},
           {"id", name},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J pipeline_json(const Ctx& ctx, std::size_t p) {
  const std::string v = d::pipelines()[p];
  const std::string base = ctx.url("pipelines/" + v);
  const bool used = v == "4.1" || v == "5.0";
  J attrs{{"description", "MGnify analysis pipeline " + v},
          {"changes", "Mock changes for " + v},
          {"release-version", v},
          {"release-date", date_of(p * 5)},
          {"samples-count", used ? d::kSamples / 2 : 0},
          {"analyses-count", used ? d::kSamples / 2 : 0}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"analyses", rel_link(base + "/analyses")},
         {"tools", J{{"data", J::array()}}}};
  return J{{"type", "pipelines"},
           {"id", v},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J catalogue_json(const Ctx& ctx, std::size_t c) {
  const auto& cat = d::catalogues()[c];
  const std::string base = ctx.url(std::string("genome-catalogues/") + cat.id);
  J attrs{{"catalogue-id", cat.id},
          {"version", "v2.0"},
          {"name", cat.name},
          {"description", std::string("Mock catalogue of ") + cat.name + " genomes"},
          {"protein-catalogue-name", nullptr},
          {"protein-catalogue-description", nullptr},
          {"catalogue-biome-label", d::biomes()[cat.biome].name},
          {"catalogue-type", "prokaryotes"},
          {"genome-count", d::kGenomesPerCatalogue},
          {"unclustered-genome-count", d::kGenomesPerCatalogue * 3},
          {"last-update", iso_minus_minutes(c * 1000)}};
  J rels{{"genomes", rel_link(base + "/genomes")},
         {"downloads", rel_link(base + "/downloads")},
         {"biome", rel_one("biomes", d::biomes()[cat.biome].lineage,
                           ctx.url(lineage_path(d::biomes()[cat.biome].lineage)))}};
  return J{{"type", "genome-catalogues"},
           {"id", cat.id},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J genome_json(const Ctx& ctx, std::size_t g) {
  const std::string acc = d::genome_accession(g);
  const std::string base = ctx.url("genomes/" + acc);
  const std::size_t c = g / d::kGenomesPerCatalogue;
  J attrs{{"accession", acc},
          {"ena-genome-accession", d::fmt("ERZ%07llu", 6000000 + g)},
          {"ena-sample-accession", d::fmt("ERS%07llu", 7000000 + g)},
          {"ena-study-accession", "ERP108418"},
          {"ncbi-genome-accession", nullptr},
          {"ncbi-sample-accession", nullptr},
          {"ncbi-study-accession", nullptr},
          {"img-genome-accession", nullptr},
          {"patric-genome-accession", nullptr},
          {"length", 2000000 + g * 1013},
          {"num-contigs", 20 + g % 300},
          {"n-50", 10000 + g * 17},
          {"gc-content", 30.0 + static_cast<double>(g % 400) / 10.0},
          {"type", g % 5 == 0 ? "Isolate" : "MAG"},
          {"completeness", 90.0 + static_cast<double>(g % 100) / 10.0},
          {"contamination", static_cast<double>(g % 50) / 10.0},
          {"rna-5s", 88.2},
          {"rna-16s", g % 3 == 0 ? 0.0 : 99.5},
          {"rna-23s", 97.1},
          {"rna-5-8s", 0.0},
          {"rna-18s", 0.0},
          {"rna-28s", 0.0},
          {"trnas", 18 + g % 3},
          {"nc-rnas", 40 + g % 20},
          {"num-proteins", 1800 + g * 3},
          {"eggnog-coverage", 92.5},
          {"ipr-coverage", 85.25},
          {"taxon-lineage",
           "d__Bacteria;p__Firmicutes_A;c__Clostridia;o__Lachnospirales;f__Lachnospiraceae"},
          {"num-genomes-total", 1 + g % 40},
          {"num-genomes-non-redundant", 1 + g % 20},
          {"pangenome-size", g % 4 == 0 ? J(nullptr) : J(3000 + g)},
          {"pangenome-core-size", g % 4 == 0 ? J(nullptr) : J(1500 + g)},
          {"pangenome-accessory-size", g % 4 == 0 ? J(nullptr) : J(1500)},
          {"geographic-origin", g % 2 ? "Europe" : "Asia"},
          {"geographic-range", J::array({"Europe", "Asia"})},
          {"last-update", iso_minus_minutes(g * 11)},
          {"first-created", iso_minus_minutes(g * 13 + 5000)}};
  J rels{{"downloads", rel_link(base + "/downloads")},
         {"catalogue", rel_one("genome-catalogues", d::catalogues()[c].id,
                               ctx.url(std::string("genome-catalogues/") + d::catalogues()[c].id))},
         {"biome", rel_one("biomes", d::biomes()[d::catalogues()[c].biome].lineage,
                           ctx.url(lineage_path(d::biomes()[d::catalogues()[c].biome].lineage)))}};
  return J{{"type", "genomes"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

struct SuperStudyDef {
  const char* slug;
  const char* title;
  std::size_t flagship_begin, flagship_end, related_begin, related_end;
};
const std::vector<SuperStudyDef>& super_studies() {
  static const std::vector<SuperStudyDef> all = {
      {"atlanteco", "AtlantECO", 0, 10, 10, 40},
      {"human-gut", "Human gut microbiome", 40, 45, 45, 60},
  };
  return all;
}

J super_study_json(const Ctx& ctx, std::size_t k) {
  const auto& def = super_studies()[k];
  const std::string base = ctx.url(std::string("super-studies/") + def.slug);
  J attrs{{"super-study-id", k + 1},
          {"title", def.title},
          {"url-slug", def.slug},
          {"description", std::string("Mock super study ") + def.title},
          {"image-url", nullptr}};
  J rels{{"flagship-studies", rel_link(base + "/flagship-studies")},
         {"related-studies", rel_link(base + "/related-studies")},
         {"biomes", rel_link(base + "/biomes")}};
  return J{{"type", "super-studies"},
           {"id", def.slug},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J annotation_json(const Ctx& ctx, const d::AnnDef& def, std::size_t k,
                  std::optional<std::size_t> analysis) {
  const std::string acc = d::annotation_accession(def.kind, k);
  J attrs{{"accession", acc},
          {"description", std::string("Mock ") + def.type + " entry " + std::to_string(k + 1)}};
  if (def.kind == d::AnnKind::go) {
    static const char* const ns[] = {"biological_process", "molecular_function",
                                     "cellular_component"};
    attrs["lineage"] = ns[k % 3];
  }
  if (def.kind == d::AnnKind::kegg_module) attrs["name"] = "Module " + std::to_string(k + 1);
  if (analysis) {
    if (def.kind == d::AnnKind::kegg_module) {
      attrs["completeness"] = static_cast<double>((*analysis + k) % 5) * 25.0;
      attrs["matching-kos"] = J::array({d::annotation_accession(d::AnnKind::kegg_ortholog, k)});
      attrs["missing-kos"] =
          (*analysis + k) % 5 == 4
              ? J::array()
              : J::array({d::annotation_accession(d::AnnKind::kegg_ortholog, k + 1)});
    } else if (def.kind == d::AnnKind::genome_property) {
      static const char* const presence[] = {"Yes", "Partial", "No"};
      attrs["presence"] = presence[(*analysis + k) % 3];
    } else {
      attrs["count"] = (*analysis * 31 + k * 17) % 1000 + 1;
    }
  }
  return J{{"type", def.type},
           {"id", acc},
           {"attributes", attrs},
           {"links", {{"self", ctx.url(std::string("annotations/") + def.path + "/" + acc)}}}};
}

J organism_json(const Ctx& ctx, std::size_t o, std::optional<std::size_t> analysis,
                const char* pipeline) {
  const std::string lineage = d::organisms()[o];
  J hierarchy = J::object();
  static const char* const ranks[] = {"kingdom", "phylum", "class", "order"};
  std::size_t start = 0, level = 0;
  std::string parent;
  std::string name;
  while (true) {
    const auto colon = lineage.find(':', start);
    name = lineage.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    hierarchy[ranks[std::min<std::size_t>(level, 3)]] = name;
    if (colon == std::string::npos) break;
    parent = name;
    start = colon + 1;
    ++level;
  }
  J attrs{{"lineage", lineage},
          {"hierarchy", hierarchy},
          {"domain", lineage.substr(0, lineage.find(':'))},
          {"name", name},
          {"parent", parent.empty() ? J(nullptr) : J(parent)},
          {"rank", ranks[std::min<std::size_t>(level, 3)]},
          {"pipeline-version", pipeline}};
  if (analysis) attrs["count"] = (*analysis * 13 + o * 29) % 500 + 1;
  // The real service double-encodes these links (':' -> %253A); following them still works.
  std::string encoded;
  for (char c : lineage) encoded += c == ':' ? std::string("%253A") : std::string(1, c);
  return J{{"type", "organisms"},
           {"id", lineage},
           {"attributes", attrs},
           {"links", {{"self", ctx.url("annotations/organisms/" + encoded)}}}};
}

// Contigs: a 24-hex-digit position (like a Mongo ObjectId) orders them.
std::string contig_position(std::size_t analysis, std::size_t c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "6152054c%08zx%08zx", analysis, c);
  return buf;
}
J contig_json(std::size_t s, std::size_t c) {
  const std::string contig_id = d::run_accession(s) + ".1-contig-" + std::to_string(c + 1);
  J attrs{{"contig-id", contig_id},
          {"length", 500 + (c * 7919) % 40000},
          {"coverage", static_cast<double>((c * 31) % 200) / 4.0},
          {"analysis-id", std::to_string(s + 1)},
          {"accession", d::analysis_accession(s)},
          {"pipeline-version", d::analysis_pipeline(s)},
          {"job-id", s + 1},
          {"has-cog", c % 2 == 0},
          {"has-kegg", c % 3 == 0},
          {"has-go", c % 2 == 1},
          {"has-pfam", c % 5 != 0},
          {"has-interpro", c % 4 != 1},
          {"has-antismash", c % 11 == 0},
          {"has-kegg-module", c % 13 == 0}};
  return J{{"type", "analysis-job-contigs"}, {"id", contig_id}, {"attributes", attrs}};
}

// ------------------------------------------------------------ pagination --

std::optional<long> positive_int(const std::optional<std::string>& text) {
  if (!text || text->empty() || text->size() > 9) return std::nullopt;
  long v = 0;
  for (char c : *text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v <= 0) return std::nullopt;
  return v;
}

struct PageRules {
  long default_size = 25;
  long max_size = 250;
};

// A list rendered as CSV is not paginated, and refused past this many rows.
constexpr std::size_t kCsvMaxRows = 1250;

J page_envelope(const Ctx& ctx, std::size_t count, const std::function<J(std::size_t)>& item,
                PageRules rules = {}, Includes* inc = nullptr) {
  const bool csv = ctx.param("format") == std::optional<std::string>("csv");
  if (csv && count > kCsvMaxRows) {
    throw HttpError{413, error_body("The requested data is too long to be returned as a single "
                                    "CSV. Please use the API to fetch paginated data.",
                                    "413", "payload_too_large", std::string("/data"))};
  }
  const long size =
      csv ? std::max<long>(1, static_cast<long>(count))
          : std::min(positive_int(ctx.param("page_size")).value_or(rules.default_size),
                     rules.max_size);
  const long pages = count == 0 ? 1
                                : static_cast<long>((count + static_cast<std::size_t>(size) - 1) /
                                                    static_cast<std::size_t>(size));
  long page = 1;
  if (auto p = ctx.param("page")) {
    if (*p == "last") {
      page = pages;
    } else {
      auto v = positive_int(p);
      if (!v || *v > pages) not_found("Invalid page.");
      page = *v;
    }
  }
  J data = J::array();
  const std::size_t begin = static_cast<std::size_t>((page - 1) * size);
  const std::size_t end = std::min(count, begin + static_cast<std::size_t>(size));
  for (std::size_t i = begin; i < end; ++i) data.push_back(item(i));
  auto link = [&](long n) {
    return n < 1 ? J(nullptr) : J(ctx.link_with("page", std::to_string(n)));
  };
  J out;
  out["links"] = {{"first", link(1)},
                  {"last", link(pages)},
                  {"next", link(page < pages ? page + 1 : 0)},
                  {"prev", link(page - 1)}};
  out["data"] = std::move(data);
  if (inc && !inc->included.empty()) out["included"] = inc->included;
  out["meta"] = {{"pagination", {{"page", page}, {"pages", pages}, {"count", count}}}};
  return out;
}

std::string b64encode(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {t[v >> 18], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const unsigned v =
        (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}
std::optional<std::string> b64decode(const std::string& in) {
  std::string out;
  unsigned buf = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else if (c == '=')
      break;
    else
      return std::nullopt;
    buf = (buf << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xFF));
    }
  }
  return out;
}

// DRF CursorPagination over `positions` (ascending): the cursor is base64 of
// "p=<position>" (forward, after it) or "r=1&p=<position>" (reverse, before it).
J cursor_envelope(const Ctx& ctx, const std::vector<std::string>& positions,
                  const std::function<J(std::size_t)>& item) {
  const std::size_t size =
      static_cast<std::size_t>(positive_int(ctx.param("page_size")).value_or(25));
  std::size_t begin = 0;
  if (auto cursor = ctx.param("cursor")) {
    auto decoded = b64decode(*cursor);
    std::string position;
    bool reverse = false;
    if (decoded) {
      std::string rest = *decoded;
      if (rest.rfind("r=1&", 0) == 0) {
        reverse = true;
        rest = rest.substr(4);
      }
      if (rest.rfind("p=", 0) == 0) position = rest.substr(2);
    }
    if (position.empty()) not_found("Invalid cursor");
    auto it = std::lower_bound(positions.begin(), positions.end(), position);
    if (reverse) {
      const std::size_t before = static_cast<std::size_t>(it - positions.begin());
      begin = before > size ? before - size : 0;
    } else {
      begin = static_cast<std::size_t>(
          std::upper_bound(positions.begin(), positions.end(), position) - positions.begin());
    }
  }
  const std::size_t end = std::min(positions.size(), begin + size);
  J data = J::array();
  for (std::size_t i = begin; i < end; ++i) data.push_back(item(i));
  J next = nullptr, prev = nullptr;
  if (end < positions.size() && end > begin)
    next = ctx.link_with("cursor", b64encode("p=" + positions[end - 1]));
  if (begin > 0 && begin < positions.size())
    prev = ctx.link_with("cursor", b64encode("r=1&p=" + positions[begin]));
  J out;
  out["links"] = {{"next", next}, {"prev", prev}};
  out["data"] = std::move(data);
  out["meta"] = {{"pagination", {{"count", positions.size()}}}};
  return out;
}

// -------------------------------------------------------------- filters --

std::vector<std::size_t> iota(std::size_t begin, std::size_t end) {
  std::vector<std::size_t> v;
  v.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) v.push_back(i);
  return v;
}

std::optional<std::size_t> find_biome(const std::string& lineage) {
  for (std::size_t b = 0; b < d::biomes().size(); ++b) {
    if (lineage == d::biomes()[b].lineage) return b;
  }
  return std::nullopt;
}

// Which biomes a lineage / biome_name filter admits (evaluated once per request).
std::vector<bool> biome_mask(const Ctx& ctx) {
  std::vector<bool> mask(d::biomes().size(), true);
  if (auto lineage = ctx.param("lineage")) {
    if (!find_biome(*lineage)) {
      bad_request("Select a valid choice. That choice is not one of the available choices.",
                  "invalid_choice", "/data/attributes/lineage");
    }
    for (std::size_t b = 0; b < mask.size(); ++b)
      mask[b] = mask[b] && d::in_subtree(d::biomes()[b].lineage, *lineage);
  }
  if (auto pattern = ctx.param("biome_name")) {
    std::optional<std::regex> re;
    try {
      re.emplace(*pattern, std::regex::icase);
    } catch (const std::regex_error&) {
      bad_request("Invalid regular expression.", "invalid", "/data/attributes/biome_name");
    }
    for (std::size_t b = 0; b < mask.size(); ++b) {
      mask[b] = mask[b] && std::regex_search(std::string(d::biomes()[b].lineage), *re);
    }
  }
  return mask;
}

std::vector<std::string> split_multi(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto comma = v.find(',', start);
    out.push_back(v.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void order(std::vector<std::size_t>& v, const Ctx& ctx, const std::set<std::string>& ascending_keys,
           const std::set<std::string>& descending_keys) {
  // Indexes are already in the default order (-last_update == ascending index).
  auto o = ctx.param("ordering");
  if (!o || o->empty()) return;
  // Ascending index == descending last_update == ascending accession here.
  if (ascending_keys.count(*o)) return;
  if (descending_keys.count(*o)) std::reverse(v.begin(), v.end());
}

std::vector<std::size_t> filter_studies(const Ctx& ctx, std::vector<std::size_t> base) {
  const auto mask = biome_mask(ctx);
  auto centre = ctx.param("centre_name");
  auto search = ctx.param("search");
  std::optional<std::set<std::string>> accessions;
  if (auto a = ctx.param("accession")) {
    auto list = split_multi(*a);
    accessions.emplace(list.begin(), list.end());
  }
  std::vector<std::size_t> out;
  out.reserve(base.size());
  for (std::size_t i : base) {
    if (!mask[d::study_biome(i)]) continue;
    if (centre && !contains_icase(d::study_centre(i), *centre)) continue;
    if (accessions && !accessions->count(d::study_accession(i)) &&
        !accessions->count(d::fmt("ERP%06llu", 100000 + i)))
      continue;
    if (search && !contains_icase(std::string("Mock ") + d::biomes()[d::study_biome(i)].name +
                                      " study " + std::to_string(i + 1),
                                  *search))
      continue;
    out.push_back(i);
  }
  order(out, ctx, {"study_id", "-last_update", "accession"},
        {"-study_id", "last_update", "-accession"});
  return out;
}

std::vector<std::size_t> filter_samples(const Ctx& ctx, std::vector<std::size_t> base) {
  const auto mask = biome_mask(ctx);
  std::optional<std::set<std::string>> types, accessions;
  if (auto t = ctx.param("experiment_type")) {
    auto list = split_multi(*t);
    types.emplace(list.begin(), list.end());
  }
  if (auto a = ctx.param("accession")) {
    auto list = split_multi(*a);
    accessions.emplace(list.begin(), list.end());
  }
  auto key = ctx.param("metadata_key");
  if (key) {
    const auto& keys = d::metadata_keys();
    if (std::find(keys.begin(), keys.end(), *key) == keys.end()) {
      bad_request("Select a valid choice. " + *key + " is not one of the available choices.",
                  "invalid_choice", "/data/attributes/metadata_key");
    }
  }
  auto number = [&](const char* name) -> std::optional<double> {
    auto v = ctx.param(name);
    if (!v) return std::nullopt;
    try {
      std::size_t used = 0;
      double x = std::stod(*v, &used);
      if (used != v->size()) throw std::invalid_argument("trailing");
      return x;
    } catch (const std::exception&) {
      bad_request("Enter a number.", "invalid", std::string("/data/attributes/") + name);
    }
  };
  const auto lte = number("metadata_value_lte");
  const auto gte = number("metadata_value_gte");
  const auto study_acc = ctx.param("study_accession");
  const auto search = ctx.param("search");
  std::vector<std::size_t> out;
  out.reserve(base.size());
  for (std::size_t s : base) {
    if (!mask[d::sample_biome(s)]) continue;
    if (types && !types->count(d::experiment_type_of(s))) continue;
    if (accessions && !accessions->count(d::sample_accession(s))) continue;
    if (study_acc && *study_acc != d::study_accession(d::sample_study(s))) continue;
    if (search &&
        !contains_icase(d::sample_accession(s) + " Mock sample " + std::to_string(s + 1), *search))
      continue;
    if (key && (lte || gte)) {
      double value = 0;
      if (*key == "temperature")
        value = d::sample_temperature(s);
      else if (*key == "depth")
        value = static_cast<double>(s % 50) / 4.0;
      else
        continue;  // non-numeric metadata never matches a numeric bound
      if (lte && value > *lte) continue;
      if (gte && value < *gte) continue;
    }
    out.push_back(s);
  }
  order(out, ctx, {"accession", "-last_update", "sample_name"},
        {"-accession", "last_update", "-sample_name"});
  return out;
}

std::vector<std::size_t> filter_runs_like(const Ctx& ctx, std::vector<std::size_t> base,
                                          bool analyses) {
  const auto mask = biome_mask(ctx);
  std::optional<std::set<std::string>> types;
  if (auto t = ctx.param("experiment_type")) {
    auto list = split_multi(*t);
    types.emplace(list.begin(), list.end());
  }
  auto pipeline = analyses ? ctx.param("pipeline_version") : std::nullopt;
  if (pipeline && *pipeline != "4.1" && *pipeline != "5.0") {
    const auto& all = d::pipelines();
    if (std::find(all.begin(), all.end(), *pipeline) == all.end()) {
      bad_request("Select a valid choice. That choice is not one of the available choices.",
                  "invalid_choice", "/data/attributes/pipeline_version");
    }
  }
  const auto study_acc = ctx.param("study_accession");
  const auto sample_acc = ctx.param("sample_accession");
  std::vector<std::size_t> out;
  for (std::size_t s : base) {
    if (!mask[d::sample_biome(s)]) continue;
    if (types && !types->count(d::experiment_type_of(s))) continue;
    if (pipeline && *pipeline != d::analysis_pipeline(s)) continue;
    if (study_acc && *study_acc != d::study_accession(d::sample_study(s))) continue;
    if (sample_acc && *sample_acc != d::sample_accession(s)) continue;
    out.push_back(s);
  }
  order(out, ctx, {"accession", "job_id"}, {"-accession", "-job_id"});
  return out;
}

// ------------------------------------------------------------- lookups --

std::optional<std::size_t> find_study(const std::string& acc, bool authenticated) {
  // Studies are also reachable by their ERP secondary accession.
  unsigned long long n = 0;
  if (std::sscanf(acc.c_str(), "MGYS%llu", &n) == 1 && acc.size() == 12) {
    if (n >= 1 && n <= d::kStudies) return static_cast<std::size_t>(n - 1);
    if (authenticated && n >= 90000001 && n < 90000001 + d::kPrivateStudies) {
      return d::kStudies + static_cast<std::size_t>(n - 90000001);
    }
  }
  if (std::sscanf(acc.c_str(), "ERP%llu", &n) == 1 && acc.size() == 9 && n >= 100000 &&
      n < 100000 + d::kStudies) {
    return static_cast<std::size_t>(n - 100000);
  }
  return std::nullopt;
}
std::optional<std::size_t> find_numbered(const std::string& acc, const char* pattern,
                                         std::size_t len, unsigned long long offset,
                                         std::size_t count) {
  unsigned long long n = 0;
  if (acc.size() != len || std::sscanf(acc.c_str(), pattern, &n) != 1 || n < offset ||
      n - offset >= count) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(n - offset);
}
std::optional<std::size_t> find_sample(const std::string& acc) {
  return find_numbered(acc, "ERS%llu", 10, 1000000, d::kSamples);
}
std::optional<std::size_t> find_run(const std::string& acc) {
  return find_numbered(acc, "ERR%llu", 10, 3000000, d::kSamples);
}
std::optional<std::size_t> find_assembly(const std::string& acc) {
  auto s = find_numbered(acc, "ERZ%llu", 10, 4000000, d::kSamples);
  return s && d::has_assembly(*s) ? s : std::nullopt;
}
std::optional<std::size_t> find_analysis(const std::string& acc) {
  // Like emgapi: strip the MGYA letters and read the number.
  std::string digits = acc;
  while (!digits.empty() && std::string("MGYA").find(digits.front()) != std::string::npos)
    digits.erase(0, 1);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
    return std::nullopt;
  const unsigned long long n = std::stoull(digits);
  if (n < 1 || n > d::kSamples) return std::nullopt;
  return static_cast<std::size_t>(n - 1);
}
std::optional<std::size_t> find_genome(const std::string& acc) {
  return find_numbered(acc, "MGYG%llu", 13, 1, d::kGenomes);
}
std::optional<std::size_t> find_publication(const std::string& id) {
  for (std::size_t p = 0; p < d::kPublications; ++p) {
    if (id == std::to_string(25000000 + p * 137)) return p;
  }
  return std::nullopt;
}
template <class List>
std::optional<std::size_t> find_name(const List& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (name == list[i]) return i;
  }
  return std::nullopt;
}
std::optional<std::size_t> find_catalogue(const std::string& id) {
  for (std::size_t c = 0; c < d::catalogues().size(); ++c) {
    if (id == d::catalogues()[c].id) return c;
  }
  return std::nullopt;
}
std::optional<std::size_t> find_super_study(const std::string& id) {
  for (std::size_t k = 0; k < super_studies().size(); ++k) {
    if (id == super_studies()[k].slug || id == std::to_string(k + 1)) return k;
  }
  return std::nullopt;
}
const d::AnnDef* find_ann_kind(const std::string& path) {
  for (const auto& def : d::annotation_kinds()) {
    if (path == def.path) return &def;
  }
  return nullptr;
}
std::optional<std::size_t> find_annotation(const d::AnnDef& def, const std::string& acc) {
  for (std::size_t k = 0; k < def.count; ++k) {
    if (acc == d::annotation_accession(def.kind, k)) return k;
  }
  return std::nullopt;
}

template <class T>
T need(std::optional<T> v) {
  if (!v) not_found();
  return *v;
}

void no_include(const Ctx& ctx) { parse_includes(ctx, {}); }

J single(J data, const Includes& inc) {
  J out{{"data", std::move(data)}};
  if (!inc.included.empty()) out["included"] = inc.included;
  return out;
}

// --------------------------------------------------------------- routes --

J root_doc(const Ctx& ctx) {
  J data = J::object();
  for (const char* name : {"biomes",
                           "studies",
                           "super-studies",
                           "samples",
                           "runs",
                           "analyses",
                           "assemblies",
                           "pipelines",
                           "experiment-types",
                           "publications",
                           "pipeline-tools",
                           "genome-search",
                           "genomes-search/gather",
                           "annotations/go-terms",
                           "annotations/interpro-identifiers",
                           "annotations/antismash-gene-clusters",
                           "annotations/genome-properties",
                           "annotations/kegg-modules",
                           "annotations/kegg-orthologs",
                           "annotations/pfam-entries",
                           "annotations/organisms",
                           "antismash-geneclusters",
                           "mydata",
                           "genomes",
                           "cogs",
                           "genomeset",
                           "kegg-classes",
                           "kegg-modules",
                           "genome-catalogues"}) {
    data[name] = ctx.url(name);
  }
  return J{{"data", data}};
}

J studies_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    auto ids = filter_studies(ctx, iota(0, d::kStudies));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return study_json(ctx, ids[k], false, &inc); }, {},
        &inc);
  }
  const std::size_t i = need(find_study(seg[1], ctx.authenticated));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"publications", "samples", "analyses", "biomes", "downloads"});
    return single(study_json(ctx, i, true, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  const std::string& rel = seg[2];
  const bool priv = i >= d::kStudies;
  if (rel == "samples") {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    auto ids = filter_samples(ctx, priv ? std::vector<std::size_t>{}
                                        : iota(d::study_sample_begin(i), d::study_sample_end(i)));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  if (rel == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    auto ids = filter_runs_like(
        ctx,
        priv ? std::vector<std::size_t>{} : iota(d::study_sample_begin(i), d::study_sample_end(i)),
        true);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return analysis_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  no_include(ctx);
  if (rel == "downloads") {
    return page_envelope(ctx, priv ? 0 : d::download_count(d::DownloadOwner::study),
                         [&](std::size_t k) { return download_json(ctx, "study", i, k); });
  }
  if (rel == "biomes") {
    return page_envelope(ctx, 1, [&](std::size_t) { return biome_json(ctx, d::study_biome(i)); });
  }
  if (rel == "studies") return page_envelope(ctx, 0, [&](std::size_t) { return J(); });
  if (rel == "publications") {
    const auto p = d::study_publication(i);
    return page_envelope(ctx, p >= 0 && !priv ? 1 : 0, [&](std::size_t) {
      return publication_json(ctx, static_cast<std::size_t>(p));
    });
  }
  if (rel == "geocoordinates") {
    const std::size_t b = priv ? 0 : d::study_sample_begin(i);
    const std::size_t n = priv ? 0 : std::min<std::size_t>(d::study_sample_end(i) - b, 5);
    return page_envelope(ctx, n, [&](std::size_t k) {
      J s = sample_json(ctx, b + k, nullptr);
      const std::string id =
          s["attributes"]["latitude"].dump() + "," + s["attributes"]["longitude"].dump();
      return J{{"type", "sample-geographies"},
               {"id", id},
               {"attributes",
                {{"longitude", s["attributes"]["longitude"]},
                 {"latitude", s["attributes"]["latitude"]},
                 {"samples-count", 1}}}};
    });
  }
  html_not_found();
}

J samples_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    auto ids = filter_samples(ctx, iota(0, d::kSamples));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_sample(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    return single(sample_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "runs") {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return run_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "studies") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return study_json(ctx, d::sample_study(s), false, &inc); }, {},
        &inc);
  }
  html_not_found();
}

J runs_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    auto ids = filter_runs_like(ctx, iota(0, d::kSamples), false);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return run_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_run(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return single(run_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return analysis_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "assemblies") {
    auto inc = parse_includes(ctx, {"runs"});
    return page_envelope(
        ctx, d::has_assembly(s) ? 1 : 0, [&](std::size_t) { return assembly_json(ctx, s, &inc); },
        {}, &inc);
  }
  html_not_found();
}

J assemblies_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"runs"});
    std::vector<std::size_t> base;
    for (std::size_t s = 3; s < d::kSamples; s += 4) base.push_back(s);
    auto ids = filter_runs_like(ctx, base, false);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return assembly_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_assembly(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"runs"});
    return single(assembly_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return analysis_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "runs") {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return run_json(ctx, s, &inc); }, {}, &inc);
  }
  html_not_found();
}

J analyses_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    auto ids = filter_runs_like(ctx, iota(0, d::kSamples), true);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return analysis_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_analysis(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return single(analysis_json(ctx, s, &inc), inc);
  }
  const std::string& rel = seg[2];
  if (seg.size() == 3 && rel == "contigs") {
    no_include(ctx);
    std::vector<std::string> positions;
    std::vector<std::size_t> contigs;
    auto gt = ctx.param("gt");
    auto lt = ctx.param("lt");
    for (std::size_t c = 0; c < d::analysis_contigs(s); ++c) {
      const long length = static_cast<long>(500 + (c * 7919) % 40000);
      if (gt && length < std::atol(gt->c_str())) continue;
      if (lt && length > std::atol(lt->c_str())) continue;
      positions.push_back(contig_position(s, c));
      contigs.push_back(c);
    }
    return cursor_envelope(ctx, positions,
                           [&](std::size_t k) { return contig_json(s, contigs[k]); });
  }
  if (seg.size() == 3 && rel == "downloads") {
    no_include(ctx);
    return page_envelope(ctx, d::download_count(d::DownloadOwner::analysis),
                         [&](std::size_t k) { return download_json(ctx, "analysis", s, k); });
  }
  const PageRules max_set{1000, 1000};
  if (rel == "taxonomy") {
    no_include(ctx);
    std::string kind = seg.size() == 4 ? seg[3] : "";
    if (seg.size() > 4 || (seg.size() == 4 && kind != "ssu" && kind != "lsu" &&
                           kind != "itsonedb" && kind != "unite")) {
      html_not_found();
    }
    std::vector<std::size_t> ids;
    // Pipeline 4+ analyses have an empty legacy list, as on the real service.
    if (!kind.empty()) {
      for (std::size_t o = 0; o < d::organisms().size(); ++o) {
        if ((o + s + kind.size()) % 3 != 0) ids.push_back(o);
      }
    }
    return page_envelope(
        ctx, ids.size(),
        [&](std::size_t k) { return organism_json(ctx, ids[k], s, d::analysis_pipeline(s)); },
        max_set);
  }
  if (seg.size() != 3) html_not_found();
  const d::AnnDef* def = rel == "go-slim" ? &d::annotation_kinds()[0] : find_ann_kind(rel);
  if (!def) html_not_found();
  no_include(ctx);
  std::vector<std::size_t> ids;
  for (std::size_t k = 0; k < def->count; ++k) {
    if (rel == "go-slim" ? k % 4 == s % 4 : d::analysis_has_annotation(s, k)) ids.push_back(k);
  }
  return page_envelope(
      ctx, ids.size(), [&](std::size_t k) { return annotation_json(ctx, *def, ids[k], s); },
      max_set);
}

J biomes_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    // /biomes validates its parameters strictly, unlike every other list.
    static const std::set<std::string> allowed = {"format",   "sort", "include",  "search",
                                                  "ordering", "page", "page_size"};
    for (const auto& [k, v] : ctx.query) {
      if (!allowed.count(k) && k.rfind("filter[", 0) != 0 && k.rfind("fields[", 0) != 0 &&
          k.rfind("page[", 0) != 0) {
        bad_request("invalid query parameter: " + k, "invalid");
      }
    }
    no_include(ctx);
    std::vector<std::size_t> ids;
    auto depth = ctx.param("filter[depth]");
    auto lineage = ctx.param("filter[lineage]");
    for (std::size_t b = 1; b < d::biomes().size(); ++b) {
      if (depth && std::to_string(d::biome_depth(d::biomes()[b].lineage)) != *depth) continue;
      if (lineage && *lineage != d::biomes()[b].lineage) continue;
      ids.push_back(b);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return biome_json(ctx, ids[k]); });
  }
  const std::size_t b = need(find_biome(seg[1]));
  const std::string lineage = d::biomes()[b].lineage;
  if (seg.size() == 2) {
    no_include(ctx);
    return single(biome_json(ctx, b), Includes{});
  }
  if (seg.size() != 3) html_not_found();
  const std::string& rel = seg[2];
  if (rel == "children") {
    no_include(ctx);
    std::vector<std::size_t> ids;
    for (std::size_t c = 0; c < d::biomes().size(); ++c) {
      if (d::in_subtree(d::biomes()[c].lineage, lineage)) ids.push_back(c);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return biome_json(ctx, ids[k]); });
  }
  if (rel == "samples") {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (d::in_subtree(d::biomes()[d::sample_biome(s)].lineage, lineage)) base.push_back(s);
    }
    auto ids = filter_samples(ctx, std::move(base));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  if (rel == "studies") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    std::vector<std::size_t> base;
    for (std::size_t i = 0; i < d::kStudies; ++i) {
      if (d::in_subtree(d::biomes()[d::study_biome(i)].lineage, lineage)) base.push_back(i);
    }
    auto ids = filter_studies(ctx, std::move(base));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return study_json(ctx, ids[k], false, &inc); }, {},
        &inc);
  }
  if (rel == "genomes") {
    no_include(ctx);
    std::vector<std::size_t> ids;
    for (std::size_t g = 0; g < d::kGenomes; ++g) {
      if (d::in_subtree(d::biomes()[d::catalogues()[g / d::kGenomesPerCatalogue].biome].lineage,
                        lineage))
        ids.push_back(g);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return genome_json(ctx, ids[k]); });
  }
  html_not_found();
}

J misc_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  const std::string& top = seg[0];
  if (top == "publications") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::kPublications,
                           [&](std::size_t p) { return publication_json(ctx, p); });
    const std::size_t p = need(find_publication(seg[1]));
    if (seg.size() == 2) return single(publication_json(ctx, p), Includes{});
    if (seg.size() == 3 && seg[2] == "studies") {
      std::vector<std::size_t> ids;
      for (std::size_t i = 0; i < d::kStudies; ++i) {
        if (d::study_publication(i) == static_cast<std::int64_t>(p)) ids.push_back(i);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return study_json(ctx, ids[k], false, nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "samples")
      return page_envelope(ctx, 0, [&](std::size_t) { return J(); });
    html_not_found();
  }
  if (top == "experiment-types") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, d::experiment_types().size(),
                           [&](std::size_t e) { return experiment_type_json(ctx, e); });
    }
    const std::size_t e = need(find_name(d::experiment_types(), seg[1]));
    if (seg.size() == 2) return single(experiment_type_json(ctx, e), Includes{});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (seg[1] == d::experiment_type_of(s)) base.push_back(s);
    }
    if (seg.size() == 3 && seg[2] == "samples") {
      auto ids = filter_samples(ctx, base);
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return sample_json(ctx, ids[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "runs") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return run_json(ctx, base[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "analyses") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return analysis_json(ctx, base[k], nullptr); });
    }
    html_not_found();
  }
  if (top == "pipelines") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::pipelines().size(),
                           [&](std::size_t p) { return pipeline_json(ctx, p); });
    const std::size_t p = need(find_name(d::pipelines(), seg[1]));
    if (seg.size() == 2) return single(pipeline_json(ctx, p), Includes{});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (seg[1] == d::analysis_pipeline(s)) base.push_back(s);
    }
    if (seg.size() == 3 && seg[2] == "analyses") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return analysis_json(ctx, base[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "samples") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return sample_json(ctx, base[k], nullptr); });
    }
    html_not_found();
  }
  if (top == "genomes") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::kGenomes, [&](std::size_t g) { return genome_json(ctx, g); });
    const std::size_t g = need(find_genome(seg[1]));
    if (seg.size() == 2) return single(genome_json(ctx, g), Includes{});
    if (seg.size() == 3 && seg[2] == "downloads") {
      return page_envelope(ctx, d::download_count(d::DownloadOwner::genome),
                           [&](std::size_t k) { return download_json(ctx, "genome", g, k); });
    }
    html_not_found();
  }
  if (top == "genome-catalogues") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, d::catalogues().size(),
                           [&](std::size_t c) { return catalogue_json(ctx, c); });
    }
    const std::size_t c = need(find_catalogue(seg[1]));
    if (seg.size() == 2) return single(catalogue_json(ctx, c), Includes{});
    if (seg.size() == 3 && seg[2] == "genomes") {
      return page_envelope(ctx, d::kGenomesPerCatalogue, [&](std::size_t k) {
        return genome_json(ctx, c * d::kGenomesPerCatalogue + k);
      });
    }
    if (seg.size() == 3 && seg[2] == "downloads") {
      return page_envelope(ctx, d::download_count(d::DownloadOwner::catalogue),
                           [&](std::size_t k) { return download_json(ctx, "catalogue", c, k); });
    }
    html_not_found();
  }
  if (top == "super-studies") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, super_studies().size(),
                           [&](std::size_t k) { return super_study_json(ctx, k); });
    }
    const std::size_t k = need(find_super_study(seg[1]));
    const auto& def = super_studies()[k];
    if (seg.size() == 2) return single(super_study_json(ctx, k), Includes{});
    if (seg.size() == 3 && seg[2] == "flagship-studies") {
      return page_envelope(ctx, def.flagship_end - def.flagship_begin, [&](std::size_t n) {
        return study_json(ctx, def.flagship_begin + n, false, nullptr);
      });
    }
    if (seg.size() == 3 && seg[2] == "related-studies") {
      return page_envelope(ctx, def.related_end - def.related_begin, [&](std::size_t n) {
        return study_json(ctx, def.related_begin + n, false, nullptr);
      });
    }
    html_not_found();
  }
  if (top == "annotations" && seg.size() >= 2) {
    no_include(ctx);
    if (seg[1] == "organisms") {
      if (seg.size() == 2) {
        return page_envelope(ctx, d::organisms().size(), [&](std::size_t o) {
          return organism_json(ctx, o, std::nullopt, "5.0");
        });
      }
      const std::size_t o = need(find_name(d::organisms(), seg[2]));
      std::vector<std::size_t> ids;
      for (std::size_t c = 0; c < d::organisms().size(); ++c) {
        if (d::in_subtree(d::organisms()[c], d::organisms()[o])) ids.push_back(c);
      }
      if (seg.size() == 3) {
        return page_envelope(ctx, ids.size(), [&](std::size_t k) {
          return organism_json(ctx, ids[k], std::nullopt, "5.0");
        });
      }
      html_not_found();
    }
    const d::AnnDef* def = find_ann_kind(seg[1]);
    if (!def) html_not_found();
    if (seg.size() == 2) {
      return page_envelope(ctx, def->count, [&](std::size_t k) {
        return annotation_json(ctx, *def, k, std::nullopt);
      });
    }
    const std::size_t k = need(find_annotation(*def, seg[2]));
    if (seg.size() == 3) return single(annotation_json(ctx, *def, k, std::nullopt), Includes{});
    if (seg.size() == 4 && seg[3] == "analyses") {
      std::vector<std::size_t> ids;
      for (std::size_t s = 0; s < d::kSamples; ++s) {
        if (d::analysis_has_annotation(s, k)) ids.push_back(s);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t n) { return analysis_json(ctx, ids[n], nullptr); });
    }
    html_not_found();
  }
  html_not_found();
}

J mydata(const Ctx& ctx) {
  no_include(ctx);
  return page_envelope(ctx, d::kPrivateStudies, [&](std::size_t k) {
    return study_json(ctx, d::kStudies + k, false, nullptr);
  });
}

// ------------------------------------------------------------- plumbing --

bool accepts_json(const httplib::Request& req) {
  if (!req.has_header("Accept")) return true;
  const std::string accept = req.get_header_value("Accept");
  if (accept.empty()) return true;
  for (const char* ok : {"application/json", "*/*", "application/*", "text/html"}) {
    if (accept.find(ok) != std::string::npos) return true;
  }
  return false;
}

// 401 for a bad or missing token, as rest_framework_jwt answers.
struct AuthState {
  bool sent = false;
  bool valid = false;
};
AuthState auth_of(const httplib::Request& req) {
  AuthState a;
  if (!req.has_header("Authorization")) return a;
  const std::string h = req.get_header_value("Authorization");
  if (h.rfind("Bearer ", 0) != 0) return a;  // another scheme is ignored: anonymous
  a.sent = true;
  a.valid = h.substr(7) == d::kTestToken;
  return a;
}

// Finished response bodies by Host + target (+ encoding). A list page costs
// a render, a dump and a gzip once; every later walk is a lookup.
class Cache {
 public:
  std::shared_ptr<const std::string> get(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }
  void put(const std::string& key, std::shared_ptr<const std::string> body) {
    std::lock_guard<std::mutex> lock(mutex_);
    // A coarse bound: a full walk of every list fits; anything beyond starts over.
    if (bytes_ + body->size() > kMaxBytes) {
      entries_.clear();
      bytes_ = 0;
    }
    const std::size_t size = body->size();
    if (entries_.emplace(key, std::move(body)).second) bytes_ += size;
  }

 private:
  static constexpr std::size_t kMaxBytes = std::size_t{192} * 1024 * 1024;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::string>> entries_;
  std::size_t bytes_ = 0;
};

bool wants_gzip(const httplib::Request& req) {
  return req.get_header_value("Accept-Encoding").find("gzip") != std::string::npos;
}

std::string gzip(const std::string& plain) {
  httplib::detail::gzip_compressor compressor;
  std::string out;
  compressor.compress(plain.data(), plain.size(), true, [&](const char* data, std::size_t n) {
    out.append(data, n);
    return true;
  });
  return out;
}

// Bodies go out through a sized content provider, which httplib sends as is:
// its own per-response compression (brotli at top quality) would cost far more
// than rendering the page. gzip is done here instead, once per cached body.
void send_payload(httplib::Response& res, int status, std::shared_ptr<const std::string> payload,
                  const std::string& type, bool gzipped) {
  res.status = status;
  res.set_header("Vary", "Accept");
  res.set_header("Allow", "GET, HEAD, OPTIONS");
  if (gzipped) res.set_header("Content-Encoding", "gzip");
  const std::size_t size = payload->size();
  res.set_content_provider(
      size, type, [payload](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        sink.write(payload->data() + offset, std::min(length, payload->size() - offset));
        return true;
      });
}

void send(const httplib::Request& req, httplib::Response& res, int status, const std::string& body,
          const std::string& type) {
  const bool gz = wants_gzip(req);
  send_payload(res, status, std::make_shared<const std::string>(gz ? gzip(body) : body), type, gz);
}

// ------------------------------------------------ smaller endpoints --
// Vocabularies of the genome catalogues and the pipelines' tools: small fixed
// lists, with per-genome counts derived from the indexes.

struct NamedEntry {
  const char* name;
  const char* description;
};

const std::vector<NamedEntry>& cog_categories() {
  static const std::vector<NamedEntry> all = {
      {"C", "Energy production and conversion"},
      {"D", "Cell cycle control, cell division, chromosome partitioning"},
      {"E", "Amino acid transport and metabolism"},
      {"G", "Carbohydrate transport and metabolism"},
      {"J", "Translation, ribosomal structure and biogenesis"},
      {"K", "Transcription"},
      {"L", "Replication, recombination and repair"},
      {"S", "Function unknown"}};
  return all;
}
const std::vector<NamedEntry>& genome_kegg_module_defs() {
  static const std::vector<NamedEntry> all = {
      {"M00001", "Glycolysis (Embden-Meyerhof pathway), glucose => pyruvate"},
      {"M00002", "Glycolysis, core module involving three-carbon compounds"},
      {"M00009", "Citrate cycle (TCA cycle, Krebs cycle)"},
      {"M00120", "Coenzyme A biosynthesis, pantothenate => CoA"}};
  return all;
}
const std::vector<NamedEntry>& antismash_cluster_defs() {
  static const std::vector<NamedEntry> all = {
      {"NRPS", "Non-ribosomal peptide synthetase"},
      {"T1PKS", "Type I polyketide synthase"},
      {"terpene", "Terpene"},
      {"bacteriocin", "Bacteriocin or other unspecified RiPP"}};
  return all;
}
struct KeggClassDef {
  const char* id;
  const char* name;
  const char* parent;  // nullptr at the top
};
const std::vector<KeggClassDef>& kegg_class_defs() {
  static const std::vector<KeggClassDef> all = {
      {"09100", "Metabolism", nullptr},
      {"09101", "Carbohydrate metabolism", "09100"},
      {"09102", "Energy metabolism", "09100"},
      {"09120", "Genetic Information Processing", nullptr},
      {"09121", "Transcription", "09120"}};
  return all;
}
const std::vector<const char*>& genome_set_names() {
  static const std::vector<const char*> all = {"EBI", "NCBI", "IMG", "PATRIC"};
  return all;
}
struct ToolDef {
  const char* name;
  const char* version;
  const char* description;
  const char* web_link;
  const char* pipeline;  // the release that runs it
};
const std::vector<ToolDef>& tool_defs() {
  static const std::vector<ToolDef> all = {
      {"Trimmomatic", "0.35", "A flexible read trimming tool for Illumina NGS data.",
       "http://www.usadellab.org/cms/?page=trimmomatic", "4.1"},
      {"InterProScan", "5.25-64.0", "Protein sequence analysis and classification.",
       "https://www.ebi.ac.uk/interpro/", "4.1"},
      {"MAPseq", "1.2.3", "Highly efficient k-mer search with confidence estimates.",
       "https://github.com/jfmrod/MAPseq", "5.0"},
      {"InterProScan", "5.36-75.0", "Protein sequence analysis and classification.",
       "https://www.ebi.ac.uk/interpro/", "5.0"},
      {"antiSMASH", "4.1.0", "Secondary metabolite biosynthesis gene cluster detection.",
       "https://antismash.secondarymetabolites.org/", "5.0"}};
  return all;
}

// Per-genome counts: a pure function of genome and entry, zero for some.
std::int64_t genome_count_of(std::size_t g, std::size_t k) {
  return static_cast<std::int64_t>((g * 7 + k * 13) % 40);
}

J counted_json(const Ctx& ctx, const std::string& type, const std::string& id,
               const std::string& self_path, J attrs, std::optional<std::size_t> genome,
               std::size_t k) {
  if (genome) {
    attrs["genome-count"] = genome_count_of(*genome, k);
    attrs["pangenome-count"] = genome_count_of(*genome, k) + static_cast<std::int64_t>(k);
  }
  return J{{"type", type},
           {"id", id},
           {"attributes", std::move(attrs)},
           {"links", {{"self", ctx.url(self_path)}}}};
}
// A vocabulary of `name` + `description` entries: its top-level list, and the
// relation of a genome that counts them.
struct Vocabulary {
  const std::vector<NamedEntry>& (*entries)();
  const char* path;             // the top-level list
  const char* type;             // its resource type
  const char* genome_relation;  // genomes/{acc}/<this>
  const char* genome_type;      // the type of a genome's counts
};
const std::vector<Vocabulary>& vocabularies() {
  static const std::vector<Vocabulary> all = {
      {&cog_categories, "cogs", "cog-cats", "cogs", "genome-cog-counts"},
      {&genome_kegg_module_defs, "kegg-modules", "kegg-modules", "kegg-module",
       "genome-kegg-module-counts"},
      {&antismash_cluster_defs, "antismash-geneclusters", "antismash-geneclusters",
       "antismash-genecluster", "genome-antismash-gene-cluster-counts"}};
  return all;
}
J named_json(const Ctx& ctx, const Vocabulary& v, std::size_t k,
             std::optional<std::size_t> genome) {
  const auto& e = v.entries()[k];
  return counted_json(ctx, genome ? v.genome_type : v.type, e.name,
                      std::string(v.path) + "/" + e.name,
                      J{{"name", e.name}, {"description", e.description}}, genome, k);
}
J kegg_class_json(const Ctx& ctx, std::size_t k, std::optional<std::size_t> genome) {
  const auto& c = kegg_class_defs()[k];
  return counted_json(
      ctx, genome ? "genome-kegg-class-counts" : "kegg-classes", c.id,
      std::string("kegg-classes/") + c.id,
      J{{"class-id", c.id}, {"name", c.name}, {"parent", c.parent ? J(c.parent) : J(nullptr)}},
      genome, k);
}
J genome_set_json(const Ctx& ctx, std::size_t k) {
  const std::string name = genome_set_names()[k];
  return J{{"type", "genome-sets"},
           {"id", name},
           {"attributes", {{"name", name}}},
           {"relationships", {{"genomes", rel_link(ctx.url("genomeset/" + name + "/genomes"))}}},
           {"links", {{"self", ctx.url("genomeset/" + name)}}}};
}
J pipeline_tool_json(const Ctx& ctx, std::size_t k) {
  const auto& t = tool_defs()[k];
  const std::string self = std::string("pipeline-tools/") + t.name + "/" + t.version;
  return J{{"type", "pipeline-tools"},
           {"id", std::string(t.name) + "/" + t.version},
           {"attributes",
            {{"tool-name", t.name},
             {"description", t.description},
             {"web-link", t.web_link},
             {"version", t.version},
             {"exe-command", std::string(t.name) + " --threads 8"},
             {"installation-dir", std::string("/opt/") + t.name},
             {"configuration-file", nullptr},
             {"notes", nullptr}}},
           {"relationships",
            {{"pipelines", rel_many(ctx.url(std::string("pipelines/") + t.pipeline),
                                    J::array({J{{"type", "pipelines"}, {"id", t.pipeline}}}))}}},
           {"links", {{"self", ctx.url(self)}}}};
}

// Files attached to a run or an assembly outside the analyses.
constexpr std::size_t kExtraAnnotations = 2;
std::string extra_annotation_alias(const std::string& owner_acc, std::size_t k) {
  return owner_acc + (k == 0 ? "_virify.gff" : "_mobilome.fasta");
}
std::string extra_annotation_text(const std::string& owner_acc, std::size_t k) {
  if (k == 0) {
    return "##gff-version 3\n" + owner_acc +
           "_1\tVIRify\tviral_sequence\t1\t5400\t.\t+\t.\tID=v1\n";
  }
  return ">" + owner_acc + "_mge_1\nACGTACGTTTGACCAGTACGGATCCA\n";
}
J extra_annotation_json(const Ctx& ctx, const std::string& owner_path, const std::string& owner_acc,
                        const std::string& type, std::size_t k) {
  const std::string alias = extra_annotation_alias(owner_acc, k);
  const std::string body = extra_annotation_text(owner_acc, k);
  J attrs{{"alias", alias},
          {"file-format",
           {{"name", k == 0 ? "GFF" : "FASTA"},
            {"extension", k == 0 ? "gff" : "fasta"},
            {"compression", false}}},
          {"description",
           {{"label", k == 0 ? "Viral annotation" : "Mobilome"},
            {"description", k == 0 ? "VIRify viral annotation" : "Mobile genetic elements"}}},
          {"group-type", "Functional analysis"},
          {"file-checksum", {{"checksum", ""}, {"checksum-algorithm", ""}}}};
  return J{{"type", type},
           {"id", alias},
           {"attributes", attrs},
           {"links", {{"self", ctx.url(owner_path + "/extra-annotations/" + alias)}}}};
}

// The shape of MGnify's Europe PMC helper: annotation groups under
// sample_processing and other, each with the mentions found in the text.
J europe_pmc_annotations_json(std::size_t p) {
  auto mention = [p](const std::string& exact, const std::string& type, const std::string& uri) {
    std::string lower = exact;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return J{{"exact", exact},
             {"icase_text", lower},
             {"id", nullptr},
             {"postfix", nullptr},
             {"prefix", nullptr},
             {"provider", "Metagenomics"},
             {"section", p % 2 == 0 ? J("METHODS") : J(nullptr)},
             {"tags", J::array({J{{"name", exact}, {"uri", uri}}})},
             {"type", type}};
  };
  auto group = [](const std::string& type, const std::string& title, const std::string& description,
                  J annotations) {
    return J{{"annotation_type", type},
             {"annotations", std::move(annotations)},
             {"description", description},
             {"title", title}};
  };
  J sample = group(
      "LS", "Library strategy", "Sequencing library strategy",
      J::array({J{
          {"annotation_text", "rna-seq"},
          {"mentions", J::array({mention("RNA-seq", "LS", "http://www.efo.org/EFO_0002770")})}}}));
  J other = group(
      "Gene", "Gene", "Target gene(s) (e.g. hypervariable regions of 16s/18s rRNA gene)",
      J::array(
          {J{{"annotation_text", "16s rrna"},
             {"mentions", J::array({mention("16S rRNA", "Gene",
                                            "http://purl.obolibrary.org/obo/SO_0001000")})}}}));
  return J{{"sample_processing", J::array({sample})}, {"other", J::array({other})}};
}

template <class Make>
J fixed_list(const Ctx& ctx, std::size_t count, Make make) {
  no_include(ctx);
  return page_envelope(ctx, count, [&](std::size_t k) { return make(k); });
}

// The endpoints above, or nullopt for a path they do not serve (the other
// routers then answer it).
std::optional<J> smaller_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  const std::string& top = seg[0];
  const std::size_t n = seg.size();
  if (top == "studies" && n == 2 && seg[1] == "recent") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    const std::size_t count = 25;
    return page_envelope(
        ctx, count,
        [&](std::size_t k) { return study_json(ctx, d::kStudies - 1 - k, false, &inc); }, {}, &inc);
  }
  if (top == "biomes" && n == 2 && seg[1] == "top10") {
    no_include(ctx);
    std::vector<std::size_t> ids = iota(1, d::biomes().size());
    std::stable_sort(ids.begin(), ids.end(), [](std::size_t a, std::size_t b) {
      return biome_samples_count(a) > biome_samples_count(b);
    });
    ids.resize(std::min<std::size_t>(ids.size(), 10));
    J data = J::array();
    for (auto b : ids) data.push_back(biome_json(ctx, b));
    return J{{"data", data}};
  }
  if (top == "samples" && n == 3 && seg[2] == "metadata") {
    no_include(ctx);
    const std::size_t s = need(find_sample(seg[1]));
    const J metadata = sample_json(ctx, s, nullptr)["attributes"]["sample-metadata"];
    return page_envelope(ctx, metadata.size(), [&](std::size_t k) {
      const J& m = metadata[k];
      const std::string value =
          m["value"].is_string() ? m["value"].get<std::string>() : m["value"].dump();
      return J{{"type", "sample-anns"},
               {"id", m["key"].get<std::string>() + "/" + value},
               {"attributes", {{"key", m["key"]}, {"value", m["value"]}, {"unit", m["unit"]}}},
               {"relationships",
                {{"sample", rel_one("samples", d::sample_accession(s),
                                    ctx.url("samples/" + d::sample_accession(s)))}}}};
    });
  }
  if (top == "pipeline-tools") {
    no_include(ctx);
    if (n == 1) {
      return page_envelope(ctx, tool_defs().size(),
                           [&](std::size_t k) { return pipeline_tool_json(ctx, k); });
    }
    if (n == 3) {
      for (std::size_t k = 0; k < tool_defs().size(); ++k) {
        if (seg[1] == tool_defs()[k].name && seg[2] == tool_defs()[k].version) {
          return single(pipeline_tool_json(ctx, k), Includes{});
        }
      }
      not_found();
    }
    html_not_found();
  }
  if (top == "pipelines" && n == 3 && seg[2] == "tools") {
    no_include(ctx);
    need(find_name(d::pipelines(), seg[1]));
    std::vector<std::size_t> ids;
    for (std::size_t k = 0; k < tool_defs().size(); ++k) {
      if (seg[1] == tool_defs()[k].pipeline) ids.push_back(k);
    }
    return page_envelope(ctx, ids.size(),
                         [&](std::size_t k) { return pipeline_tool_json(ctx, ids[k]); });
  }
  if (top == "genomeset") {
    no_include(ctx);
    if (n == 1) {
      return page_envelope(ctx, genome_set_names().size(),
                           [&](std::size_t k) { return genome_set_json(ctx, k); });
    }
    const std::size_t set = need(find_name(genome_set_names(), seg[1]));
    if (n == 2) return single(genome_set_json(ctx, set), Includes{});
    if (n == 3 && seg[2] == "genomes") {
      std::vector<std::size_t> ids;
      for (std::size_t g = 0; g < d::kGenomes; ++g) {
        if (g % genome_set_names().size() == set) ids.push_back(g);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return genome_json(ctx, ids[k]); });
    }
    html_not_found();
  }
  if (n == 1 && top == "kegg-classes") {
    return fixed_list(ctx, kegg_class_defs().size(),
                      [&](std::size_t k) { return kegg_class_json(ctx, k, std::nullopt); });
  }
  if (top == "genomes" && n == 3 && seg[2] == "kegg-class") {
    const std::size_t g = need(find_genome(seg[1]));
    return fixed_list(ctx, kegg_class_defs().size(),
                      [&](std::size_t k) { return kegg_class_json(ctx, k, g); });
  }
  for (const auto& v : vocabularies()) {
    std::optional<std::size_t> genome;
    if (top == "genomes" && n == 3 && seg[2] == v.genome_relation) {
      genome = need(find_genome(seg[1]));
    } else if (!(n == 1 && top == v.path)) {
      continue;
    }
    return fixed_list(ctx, v.entries().size(),
                      [&](std::size_t k) { return named_json(ctx, v, k, genome); });
  }
  if ((top == "runs" || top == "assemblies") && n == 3 && seg[2] == "extra-annotations") {
    const bool run = top == "runs";
    const std::size_t s = need(run ? find_run(seg[1]) : find_assembly(seg[1]));
    const std::string acc = run ? d::run_accession(s) : d::assembly_accession(s);
    return fixed_list(ctx, kExtraAnnotations, [&](std::size_t k) {
      return extra_annotation_json(ctx, top + "/" + acc, acc,
                                   run ? "run-extra-annotations" : "assembly-extra-annotations", k);
    });
  }
  if (top == "biomes" && n == 3 && seg[2] == "genome-catalogues") {
    const std::string lineage = d::biomes()[need(find_biome(seg[1]))].lineage;
    std::vector<std::size_t> ids;
    for (std::size_t c = 0; c < d::catalogues().size(); ++c) {
      if (d::in_subtree(d::biomes()[d::catalogues()[c].biome].lineage, lineage)) ids.push_back(c);
    }
    return fixed_list(ctx, ids.size(), [&](std::size_t k) { return catalogue_json(ctx, ids[k]); });
  }
  if (top == "super-studies" && n == 3 &&
      (seg[2] == "related-genome-catalogues" || seg[2] == "biomes")) {
    const std::size_t k = need(find_super_study(seg[1]));
    if (seg[2] == "biomes") {
      // The biomes of its flagship studies, each once.
      const auto& def = super_studies()[k];
      std::set<std::size_t> biomes;
      for (std::size_t i = def.flagship_begin; i < def.flagship_end; ++i)
        biomes.insert(d::study_biome(i));
      const std::vector<std::size_t> ids(biomes.begin(), biomes.end());
      return fixed_list(ctx, ids.size(), [&](std::size_t b) { return biome_json(ctx, ids[b]); });
    }
    return fixed_list(ctx, 1,
                      [&](std::size_t) { return catalogue_json(ctx, k % d::catalogues().size()); });
  }
  if (top == "annotations" && n == 4 && seg[1] == "organisms" && seg[3] == "analyses") {
    const std::size_t o = need(find_name(d::organisms(), seg[2]));
    std::vector<std::size_t> ids;
    for (std::size_t s = 0; s < d::kSamples && ids.size() < 40; ++s) {
      if ((o + s) % 3 != 0) ids.push_back(s);
    }
    return fixed_list(ctx, ids.size(),
                      [&](std::size_t k) { return analysis_json(ctx, ids[k], nullptr); });
  }
  if (top == "publications" && n == 3 && seg[2] == "europe_pmc_annotations") {
    no_include(ctx);
    return J{{"data", europe_pmc_annotations_json(need(find_publication(seg[1])))}};
  }
  return std::nullopt;
}

// --------------------------------------------------------- text bodies --
// FASTA, GFF and TSV as the service sends them: text, not JSON, and errors
// as the JSON:API error list.

std::string contig_sequence(std::size_t s, std::size_t c) {
  static const char bases[] = "ACGT";
  const std::size_t length = 500 + (c * 7919) % 40000;
  std::string out;
  out.reserve(length + length / 80 + 1);
  std::uint64_t x = (s + 1) * 0x9E3779B97F4A7C15ULL + c;
  for (std::size_t i = 0; i < length; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out.push_back(bases[x & 3]);
    if (i % 80 == 79 && i + 1 < length) out.push_back('\n');
  }
  out.push_back('\n');
  return out;
}

// The contig index of `contig_id` in analysis `s`, as contig_json names them.
std::optional<std::size_t> find_contig(std::size_t s, const std::string& contig_id) {
  const std::string stem = d::run_accession(s) + ".1-contig-";
  if (contig_id.rfind(stem, 0) != 0) return std::nullopt;
  auto n = positive_int(contig_id.substr(stem.size()));
  if (!n || static_cast<std::size_t>(*n) > d::analysis_contigs(s)) return std::nullopt;
  return static_cast<std::size_t>(*n - 1);
}

std::string contig_gff(std::size_t s, std::size_t c, bool antismash) {
  const std::string id = d::run_accession(s) + ".1-contig-" + std::to_string(c + 1);
  const std::size_t length = 500 + (c * 7919) % 40000;
  std::string out =
      "##gff-version 3\n##sequence-region " + id + " 1 " + std::to_string(length) + "\n";
  const std::size_t genes = 1 + length / 3000;
  for (std::size_t g = 0; g < genes; ++g) {
    const std::size_t start = 1 + g * 3000;
    const std::size_t end = std::min(length, start + 899);
    out += id + (antismash ? "\tantiSMASH\tCDS\t" : "\tProdigal\tCDS\t") + std::to_string(start) +
           "\t" + std::to_string(end) + "\t.\t" + (g % 2 == 0 ? "+" : "-") + "\t0\tID=" + id + "_" +
           std::to_string(g + 1) +
           (antismash ? ";as_type=NRPS;as_gene_clusters=region1\n"
                      : ";pfam=PF00" + std::to_string(100 + (c + g) % 900) + ";cog=" +
                            cog_categories()[(c + g) % cog_categories().size()].name + "\n");
  }
  return out;
}

std::string qc_tsv(std::size_t s, const std::string& chart) {
  std::string out;
  if (chart == "summary") {
    out = "Submitted nucleotide sequences\t" + std::to_string(100000 + s * 17) +
          "\nNucleotide sequences after format-specific filtering\t" +
          std::to_string(99000 + s * 17) + "\nNucleotide sequences after length filtering\t" +
          std::to_string(98000 + s * 17) +
          "\nNucleotide sequences after undetermined bases filtering\t" +
          std::to_string(97500 + s * 17) + "\n";
  } else if (chart == "gc-distribution") {
    for (int bin = 0; bin < 100; bin += 5) {
      out += std::to_string(bin) + ".0\t" + std::to_string((bin * (s + 3)) % 997) + "\n";
    }
  } else if (chart == "nucleotide-distribution") {
    out = "pos\tA\tC\tG\tT\tN\n";
    for (int pos = 1; pos <= 20; ++pos) {
      const int a = 24 + (pos + static_cast<int>(s)) % 3;
      out += std::to_string(pos) + "\t" + std::to_string(a) + "\t25\t25\t" +
             std::to_string(50 - a) + "\t0\n";
    }
  } else {
    for (int len = 100; len <= 300; len += 25) {
      out += std::to_string(len) + "\t" + std::to_string((len * (s + 1)) % 5000) + "\n";
    }
  }
  return out;
}

void send_text(const httplib::Request& req, httplib::Response& res,
               const std::function<std::string()>& body, const std::string& type) {
  try {
    send(req, res, 200, body(), type);
  } catch (const HttpError& e) {
    for (const auto& [k, v] : e.headers) res.set_header(k, v);
    send(req, res, e.status, e.body, e.content_type);
  }
}

// ?format=csv on a list: the serializer's attributes as columns (dasherized
// names turned back into the underscore field names), every row at once.
std::string csv_cell(const J& v) {
  std::string text = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  return quoted + "\"";
}
std::string csv_of(const J& doc) {
  std::vector<std::string> columns;
  const J& data = doc.at("data");
  for (const auto& item : data) {
    const J attrs = item.value("attributes", J::object());
    for (const auto& [key, value] : attrs.items()) {
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string name = columns[i];
    std::replace(name.begin(), name.end(), '-', '_');
    out += (i ? "," : "") + name;
  }
  out += "\r\n";
  for (const auto& item : data) {
    const J attrs = item.value("attributes", J::object());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      out += (i ? "," : "") + csv_cell(attrs.value(columns[i], J(nullptr)));
    }
    out += "\r\n";
  }
  return out;
}

void handle_get(const httplib::Request& req, httplib::Response& res, Cache& cache) {
  try {
    const std::string target = req.target;
    const auto qpos = target.find('?');
    const std::string raw_path = target.substr(0, qpos);
    const std::string prefix = kV1Prefix;
    if (raw_path == prefix) {
      res.status = 301;
      res.set_header("Location",
                     prefix + "/" + (qpos == std::string::npos ? "" : target.substr(qpos)));
      return;
    }
    // ?format=csv picks the renderer whatever the Accept header says (DRF's format override).
    const bool csv =
        qpos != std::string::npos &&
        ("&" + target.substr(qpos + 1) + "&").find("&format=csv&") != std::string::npos;
    if (!accepts_json(req) && !csv) {
      throw HttpError{406, error_body("Could not satisfy the request Accept header.", "406",
                                      "not_acceptable", std::string("/data"))};
    }
    const AuthState auth = auth_of(req);
    if (auth.sent && !auth.valid) {
      throw HttpError{401,
                      error_body("Error decoding signature.", "401", "authentication_failed",
                                 std::string("/data")),
                      "application/json",
                      {{"WWW-Authenticate", "Bearer realm=\"api\""}}};
    }
    const std::string host = req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1";
    Ctx ctx{req, "http://" + host, "http://" + host + prefix, raw_path, {}, auth.valid};
    if (qpos != std::string::npos) {
      const std::string q = target.substr(qpos + 1);
      std::size_t start = 0;
      while (start < q.size()) {
        auto amp = q.find('&', start);
        const std::string part =
            q.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
        if (!part.empty()) {
          const auto eq = part.find('=');
          ctx.query.emplace_back(
              percent_decode(part.substr(0, eq), true),
              eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1), true));
        }
        if (amp == std::string::npos) break;
        start = amp + 1;
      }
    }
    std::vector<std::string> seg;
    {
      const std::string rest = raw_path.substr(prefix.size() + 1);  // after "/v1/"
      std::size_t start = 0;
      while (true) {
        auto slash = rest.find('/', start);
        seg.push_back(percent_decode(
            rest.substr(start, slash == std::string::npos ? std::string::npos : slash - start),
            false));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
    }
    for (std::size_t k = 1; k < seg.size(); ++k) {
      if (seg[k].empty()) html_not_found();  // trailing slash or "//": not routed
    }
    const bool cacheable = seg[0] != "mydata" && !auth.valid && !csv;
    const bool gz = wants_gzip(req);
    const std::string key = host + target + (gz ? " gzip" : "");
    if (cacheable) {
      if (auto hit = cache.get(key)) {
        send_payload(res, 200, std::move(hit), "application/json", gz);
        return;
      }
    }
    J doc;
    const std::string& top = seg[0];
    if (auto smaller = smaller_routes(ctx, seg))
      doc = std::move(*smaller);
    else if (top.empty() && seg.size() == 1)
      doc = root_doc(ctx);
    else if (top == "studies")
      doc = studies_routes(ctx, seg);
    else if (top == "samples")
      doc = samples_routes(ctx, seg);
    else if (top == "runs")
      doc = runs_routes(ctx, seg);
    else if (top == "assemblies")
      doc = assemblies_routes(ctx, seg);
    else if (top == "analyses")
      doc = analyses_routes(ctx, seg);
    else if (top == "biomes")
      doc = biomes_routes(ctx, seg);
    else if (top == "mydata" && seg.size() == 1) {
      if (!auth.valid) {
        throw HttpError{401,
                        error_body("Authentication credentials were not provided.", "401",
                                   "not_authenticated", std::string("/data")),
                        "application/json",
                        {{"WWW-Authenticate", "Bearer realm=\"api\""}}};
      }
      doc = mydata(ctx);
    } else
      doc = misc_routes(ctx, seg);
    if (csv) {
      if (!doc.contains("data") || !doc["data"].is_array()) not_found();
      send(req, res, 200, csv_of(doc), "text/csv; charset=utf-8");
      return;
    }
    const std::string body = doc.dump();
    auto payload = std::make_shared<const std::string>(gz ? gzip(body) : body);
    if (cacheable) cache.put(key, payload);
    send_payload(res, 200, std::move(payload), "application/json", gz);
  } catch (const HttpError& e) {
    for (const auto& [k, v] : e.headers) res.set_header(k, v);
    send(req, res, e.status, e.body, e.content_type);
  }
}

void handle_token(const httplib::Request& req, httplib::Response& res) {
  auto fail = [&](const std::string& message) {
    send(req, res, 400, J{{"errors", {{"non_field_errors", J::array({message})}}}}.dump(),
         "application/json");
  };
  const auto body = nlohmann::json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    send(req, res, 400, error_body("JSON parse error", "400", "parse_error", std::string("/data")),
         "application/json");
    return;
  }
  auto user = body.find("username");
  auto pass = body.find("password");
  if (user == body.end() || pass == body.end() || !user->is_string() || !pass->is_string() ||
      user->get<std::string>().empty() || pass->get<std::string>().empty()) {
    fail("Must include \"username\" and \"password\".");
    return;
  }
  if (user->get<std::string>() != d::kTestUser || pass->get<std::string>() != d::kTestPassword) {
    fail("Unable to log in with provided credentials.");
    return;
  }
  res.set_header("Set-Cookie", std::string("EMG_AUTH=") + d::kTestToken + "; HttpOnly; Path=/");
  send(req, res, 200, J{{"data", {{"token", d::kTestToken}}}}.dump(), "application/json");
}

// GET of a listed file's links.self: the file, as the service's nginx sends it
// (octet-stream, attachment), through the files mock's serving code.
void handle_file(const httplib::Request& req, httplib::Response& res, d::DownloadOwner kind,
                 std::optional<std::size_t> owner, const std::string& alias,
                 const std::string& pipeline) {
  if (owner) {
    for (std::size_t k = 0; k < d::download_count(kind); ++k) {
      const d::DownloadFile f = d::download_file(kind, *owner, k);
      if (f.alias != alias || (kind == d::DownloadOwner::study && f.pipeline != pipeline)) continue;
      serve_file(req, res, f.alias, d::download_bytes(kind, *owner, k),
                 ServeOptions{"application/octet-stream", f.alias});
      return;
    }
  }
  send(req, res, 404, error_body("Not found.", "404", "not_found", std::nullopt),
       "application/json");
}

}  // namespace

void register_v1_routes(MockServer& server) {
  auto cache = std::make_shared<Cache>();
  const std::string prefix = kV1Prefix;
  // Genome search, ahead of the catch-all. Hits carry the genome resources the
  // genomes endpoints serve.
  register_genome_search_routes(
      server,
      {prefix, "", false, [prefix](const httplib::Request& req) {
         const std::string host =
             req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1";
         const Ctx ctx{req, "http://" + host, "http://" + host + prefix, req.path, {}, false};
         std::vector<SearchableGenome> out;
         for (std::size_t g = 0; g < d::kGenomes; ++g) {
           out.push_back({d::genome_accession(g), d::catalogues()[g / d::kGenomesPerCatalogue].id,
                          genome_json(ctx, g)});
         }
         return out;
       }});
  server.server().Post(
      prefix + "/utils/token/obtain",
      [](const httplib::Request& req, httplib::Response& res) { handle_token(req, res); });
  // Listed files, ahead of the catch-all. Only public studies list files.
  server.server().Get(prefix + "/analyses/([^/]+)/file/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::analysis,
                                    find_analysis(req.matches[1]), req.matches[2], "");
                      });
  server.server().Get(prefix + "/studies/([^/]+)/pipelines/([^/]+)/file/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::study,
                                    find_study(req.matches[1], false), req.matches[3],
                                    req.matches[2]);
                      });
  server.server().Get(prefix + "/genomes/([^/]+)/downloads/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::genome, find_genome(req.matches[1]),
                                    req.matches[2], "");
                      });
  server.server().Get(prefix + "/genome-catalogues/([^/]+)/downloads/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::catalogue,
                                    find_catalogue(req.matches[1]), req.matches[2], "");
                      });
  server.server().Post(prefix + "/utils/token/verify", [](const httplib::Request& req,
                                                          httplib::Response& res) {
    const auto body = nlohmann::json::parse(req.body, nullptr, false);
    const auto token = body.is_object() ? body.find("token") : body.end();
    if (body.is_object() && token != body.end() && token->is_string() && *token == d::kTestToken) {
      send(req, res, 200, J{{"data", {{"token", *token}}}}.dump(), "application/json");
      return;
    }
    send(req, res, 400, J{{"errors", {{"non_field_errors", {"Error decoding signature."}}}}}.dump(),
         "application/json");
  });
  // Text bodies, ahead of the catch-all.
  server.server().Get(prefix + "/analyses/([^/]+)/contigs/([^/]+)(/annotations)?",
                      [](const httplib::Request& req, httplib::Response& res) {
                        const bool gff = req.matches[3].length() > 0;
                        const std::string analysis = req.matches[1];
                        const std::string contig_id = req.matches[2];
                        const bool antismash = req.get_param_value("antismash") == "True";
                        send_text(
                            req, res,
                            [&] {
                              const std::size_t s = need(find_analysis(analysis));
                              const std::size_t c = need(find_contig(s, contig_id));
                              return gff ? contig_gff(s, c, antismash)
                                         : ">" + contig_id + "\n" + contig_sequence(s, c);
                            },
                            gff ? "text/x-gff3" : "text/x-fasta");
                      });
  server.server().Get(
      prefix + "/analyses/([^/]+)/(gc-distribution|nucleotide-distribution|seq-length|summary)",
      [](const httplib::Request& req, httplib::Response& res) {
        const std::string analysis = req.matches[1];
        const std::string chart = req.matches[2];
        send_text(
            req, res, [&] { return qc_tsv(need(find_analysis(analysis)), chart); }, "text/tsv");
      });
  server.server().Get(
      prefix + "/(runs|assemblies)/([^/]+)/extra-annotations/([^/]+)",
      [](const httplib::Request& req, httplib::Response& res) {
        const bool run = req.matches[1] == "runs";
        const std::string owner = req.matches[2];
        const std::string alias = req.matches[3];
        send_text(
            req, res,
            [&] {
              const std::size_t s = need(run ? find_run(owner) : find_assembly(owner));
              const std::string acc = run ? d::run_accession(s) : d::assembly_accession(s);
              for (std::size_t k = 0; k < kExtraAnnotations; ++k) {
                if (alias == extra_annotation_alias(acc, k)) return extra_annotation_text(acc, k);
              }
              not_found();
            },
            "application/octet-stream");
      });
  // One handler for every GET under the prefix: routing by segments lets the
  // mock answer unrouted paths with Django's HTML 404, like the real service.
  server.server().Get(prefix + "(/.*)?",
                      [cache](const httplib::Request& req, httplib::Response& res) {
                        handle_get(req, res, *cache);
                      });
}

}  // namespace mgnify::mock
