// The mock of MGnify's sequence-search service (the HMMER web server's phmmer
// API, as mg-toolkit's sequence_search calls it):
//   POST {kSequenceSearchPrefix}/search/phmmer, a form (seq, seqdb, the
//   cut-offs incE incdomE E domE or incT incdomT T domT)
//     -> 303 See Other to {kSequenceSearchPrefix}/results/{uuid}/score
//   GET that URL with Accept: application/json -> {"results": {...}}
//     (without it: the HTML page a browser gets).
// Bad parameters answer 400 {"detail": "..."}. Hits are made from the mock's
// protein data and the sequence, so the same search gives the same hits, and
// one hit in each answer names an accession the Protein service does not hold
// (MGnify's search database and the lookup service are not the same release).
// Numbers are written the way HMMER writes them: some as JSON numbers, some as text.

#include <httplib.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/open_number.hpp"
#include "mock_server.hpp"
#include "protein_data.hpp"

namespace mgnify::mock {

// Named, not anonymous: the mock is built as unity sources, where routes.cpp's
// anonymous namespace (with its own `search`) is the same namespace as this file's.
namespace phmmer_mock {

namespace data = proteins_data;
using ojson = nlohmann::ordered_json;

constexpr std::size_t kHitsPerSearch = 6;
// Accession numbers 10 + 3*i are representatives; 11 is between two of them.
constexpr std::uint64_t kUnknownAccession = 11;

std::mutex& jobs_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, ojson>& jobs() {
  static std::map<std::string, ojson> j;
  return j;
}

void send_detail(httplib::Response& res, int status, const std::string& detail) {
  res.status = status;
  res.set_content(ojson{{"detail", detail}}.dump(), "application/json");
}

/// A form value as a number, read as the SDK reads HMMER's numbers.
std::optional<double> parse_number(const std::string& text) {
  return mgnify::OpenNumber::from_sent(text).value();
}

std::string evalue_text(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", value);
  return buf;
}

/// The residues of `seq` (plain or one FASTA record), or why they are refused.
std::optional<std::string> residues_of(const std::string& seq, std::string& why) {
  std::string residues;
  std::istringstream lines(seq);
  std::string line;
  int headers = 0;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '>') {
      if (++headers > 1) {
        why = "Only one sequence may be searched at a time";
        return std::nullopt;
      }
      continue;
    }
    for (char c : line) {
      if (c == ' ' || c == '\t') continue;
      const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
      if (!letter && c != '*') {
        why = std::string("Sequence contains an invalid character: '") + c + "'";
        return std::nullopt;
      }
      residues.push_back(c);
    }
  }
  if (residues.empty()) {
    why = "No sequence given";
    return std::nullopt;
  }
  return residues;
}

/// The thresholds of one search: a hit is reported (sent) within E/T and
/// included (significant) within incE/incT, its domains likewise with
/// domE/domT and incdomE/incdomT. A threshold the form leaves out keeps
/// HMMER's default.
struct Thresholds {
  bool by_bits = false;
  double incE = 0.01, incdomE = 0.03, E = 10, domE = 10;
  double incT = 25, incdomT = 22, T = 7, domT = 5;

  bool reported(double evalue, double bits) const { return by_bits ? bits >= T : evalue <= E; }
  bool included(double evalue, double bits) const {
    return by_bits ? bits >= incT : evalue <= incE;
  }
  bool domain_reported(double evalue, double bits) const {
    return by_bits ? bits >= domT : evalue <= domE;
  }
  bool domain_included(double evalue, double bits) const {
    return by_bits ? bits >= incdomT : evalue <= incdomE;
  }
};

ojson domain(const std::string& accession, std::size_t length, double bits, double evalue,
             bool included) {
  ojson d;
  d["alisqname"] = accession;
  d["ienv"] = 1;
  d["jenv"] = std::to_string(length);  // text, as HMMER sometimes sends it
  d["iali"] = 1;
  d["jali"] = length;
  d["alihmmfrom"] = 1;
  d["alihmmto"] = length;
  d["alisqfrom"] = "1";
  d["alisqto"] = length;
  d["bitscore"] = bits - 0.4;
  d["ievalue"] = evalue_text(evalue * 1.1);
  d["cevalue"] = evalue_text(evalue / 1000);
  d["is_included"] = included ? 1 : 0;
  d["is_reported"] = "1";
  d["aliM"] = length;
  d["aliN"] = length;
  return d;
}

double hit_bits(std::size_t rank) { return 320.0 - 45.0 * static_cast<double>(rank); }
double hit_evalue(std::size_t rank) {
  return std::pow(10.0, -90.0 + 16.0 * static_cast<double>(rank));
}

/// A hit as HMMER reports it: `flags` is p7_IS_INCLUDED (1) | p7_IS_REPORTED (2),
/// also spelt out as is_included and is_reported; only the domains within the
/// domain reporting threshold are listed.
ojson hit(std::uint64_t number, std::size_t rank, std::size_t length, const Thresholds& limits) {
  const std::string acc = data::accession(number);
  const double bits = hit_bits(rank);
  const double evalue = hit_evalue(rank);
  const bool included = limits.included(evalue, bits);
  // The domain's own scores, as domain() writes them.
  const double domain_bits = bits - 0.4;
  const double domain_evalue = evalue * 1.1;
  ojson domains = ojson::array();
  std::size_t domains_included = 0;
  if (limits.domain_reported(domain_evalue, domain_bits)) {
    const bool in = limits.domain_included(domain_evalue, domain_bits);
    domains_included += in ? 1 : 0;
    domains.push_back(domain(acc, length, bits, evalue, in));
  }
  char score[32];
  std::snprintf(score, sizeof score, "%.1f", bits);
  ojson h;
  h["name"] = acc;
  h["acc"] = acc;
  h["desc"] = "mock peptide " + std::to_string(rank + 1);
  h["score"] = score;
  h["bias"] = "0.1";
  h["evalue"] = evalue_text(evalue);
  h["pvalue"] = std::log(evalue) - 20.0;
  h["ndom"] = 1;
  h["nincluded"] = std::to_string(domains_included);
  h["nreported"] = domains.size();
  h["nregions"] = 1;
  h["flags"] = included ? "3" : "2";
  h["is_included"] = included ? 1 : 0;
  h["is_reported"] = 1;
  h["domains"] = std::move(domains);
  h["mgnify"] = {
      {"samples", ojson::array({ojson::array({"ERS" + std::to_string(100000 + number)})})},
      {"runs", ojson::array({ojson::array({"ERR" + std::to_string(200000 + number)})})}};
  h["uniprot_link"] = ojson::array();
  return h;
}

/// The form's value of `key` as a threshold, or the 400 it deserves.
bool read_threshold(const httplib::Request& req, const char* key, bool evalue,
                    std::optional<double>& out, httplib::Response& res) {
  if (!req.has_param(key)) return true;
  const auto value = parse_number(req.get_param_value(key));
  if (!value || *value <= 0 || (evalue && *value > 10)) {
    send_detail(res, 400,
                std::string("Invalid value for ") + key + ": '" + req.get_param_value(key) +
                    "' (accepted: " + (evalue ? "0 < x <= 10" : "x > 0") + ")");
    return false;
  }
  out = value;
  return true;
}

void search(const httplib::Request& req, httplib::Response& res) {
  const std::string seqdb = req.has_param("seqdb") ? req.get_param_value("seqdb") : "full";
  if (seqdb != "full" && seqdb != "all" && seqdb != "partial") {
    return send_detail(res, 400,
                       "Unknown sequence database '" + seqdb + "' (choose full, all or partial)");
  }
  std::string why;
  const auto residues = residues_of(req.get_param_value("seq"), why);
  if (!residues) return send_detail(res, 400, why);

  std::optional<double> incE, incdomE, E, domE, incT, incdomT, T, domT;
  if (!read_threshold(req, "incE", true, incE, res) ||
      !read_threshold(req, "incdomE", true, incdomE, res) ||
      !read_threshold(req, "E", true, E, res) || !read_threshold(req, "domE", true, domE, res) ||
      !read_threshold(req, "incT", false, incT, res) ||
      !read_threshold(req, "incdomT", false, incdomT, res) ||
      !read_threshold(req, "T", false, T, res) || !read_threshold(req, "domT", false, domT, res)) {
    return;
  }
  const bool by_evalue = incE || incdomE || E || domE;
  const bool by_bits = incT || incdomT || T || domT;
  if (by_evalue && by_bits) {
    return send_detail(res, 400, "Give E-value or bit score thresholds, not both");
  }

  // Which representatives hit depends on the sequence, so different queries
  // get different answers; the unknown accession ranks third.
  const auto& numbers = data::representative_numbers();
  const std::size_t start = std::hash<std::string>{}(*residues) % (numbers.size() - kHitsPerSearch);
  std::vector<std::uint64_t> targets;
  for (std::size_t k = 0; targets.size() < kHitsPerSearch; ++k) {
    targets.push_back(targets.size() == 2 ? kUnknownAccession : numbers[start + k]);
  }
  Thresholds limits;
  limits.by_bits = by_bits;
  using Given = std::pair<const std::optional<double>*, double*>;
  for (const auto& [given, value] : std::initializer_list<Given>{{&incE, &limits.incE},
                                                                 {&incdomE, &limits.incdomE},
                                                                 {&E, &limits.E},
                                                                 {&domE, &limits.domE},
                                                                 {&incT, &limits.incT},
                                                                 {&incdomT, &limits.incdomT},
                                                                 {&T, &limits.T},
                                                                 {&domT, &limits.domT}}) {
    if (*given) *value = **given;
  }
  ojson hits = ojson::array();
  std::size_t included = 0;
  for (std::size_t rank = 0; rank < targets.size(); ++rank) {
    // The reporting thresholds decide which hits are sent at all.
    if (!limits.reported(hit_evalue(rank), hit_bits(rank))) continue;
    included += limits.included(hit_evalue(rank), hit_bits(rank)) ? 1 : 0;
    hits.push_back(hit(targets[rank], rank, residues->size(), limits));
  }

  std::string uuid;
  {
    std::ostringstream id;
    id << std::hex << std::hash<std::string>{}(req.body);
    uuid = "mock-" + id.str();
  }
  ojson stats;
  stats["nhits"] = hits.size();
  stats["nincluded"] = std::to_string(included);
  stats["nreported"] = hits.size();
  stats["Z"] = 623796864;
  stats["domZ"] = std::to_string(hits.size());
  stats["elapsed"] = "0.42";
  ojson results;
  results["algo"] = "phmmer";
  results["uuid"] = uuid;
  results["stats"] = std::move(stats);
  results["hits"] = std::move(hits);
  results["_internal"] = {{"lowbit", "19.0"}, {"highbit", "320.0"}};
  {
    std::lock_guard<std::mutex> lock(jobs_mutex());
    jobs()[uuid] = ojson{{"results", std::move(results)}};
  }
  res.status = 303;
  res.set_header("Location", std::string(kSequenceSearchPrefix) + "/results/" + uuid + "/score");
}

void results(const httplib::Request& req, httplib::Response& res) {
  const std::string uuid = req.matches[1];
  ojson body;
  {
    std::lock_guard<std::mutex> lock(jobs_mutex());
    const auto it = jobs().find(uuid);
    if (it == jobs().end()) return send_detail(res, 404, "No results for job " + uuid);
    body = it->second;
  }
  if (req.get_header_value("Accept").find("json") == std::string::npos) {
    res.status = 200;
    res.set_content("<!DOCTYPE html><html><body>HMMER results " + uuid + "</body></html>",
                    "text/html");
    return;
  }
  res.status = 200;
  res.set_content(body.dump(), "application/json");
}

}  // namespace phmmer_mock

void register_sequence_search_routes(MockServer& server) {
  const std::string prefix = kSequenceSearchPrefix;
  server.server().Post(prefix + "/search/phmmer", phmmer_mock::search);
  server.server().Get(prefix + R"(/results/([^/]+)/score)", phmmer_mock::results);
}

}  // namespace mgnify::mock
