// The mock Protein service: GET /protein/search and GET /protein/{mgyp}, with
// the real service's status codes and both 422 body shapes, and beside it the
// sequence-search service (sequence_search.cpp). Data comes from
// protein_data.cpp.

#include <httplib.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "mock_server.hpp"
#include "protein_data.hpp"

namespace mgnify::mock {

namespace {

namespace data = proteins_data;
using ojson = nlohmann::ordered_json;

constexpr const char* kExactlyOne =
    "Provide exactly one of biome_id or pfam_accession or biome_lineage";

void send_json(httplib::Response& res, int status, const ojson& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// The validation shape: what FastAPI's parameter checks produce.
ojson issue(const std::string& type, ojson loc, const std::string& msg) {
  ojson item;
  item["type"] = type;
  item["loc"] = std::move(loc);
  item["msg"] = msg;
  return item;
}

// "PF00005", "pf00005" and "5" are all the same family.
std::optional<std::string> canonical_pfam(const std::string& text) {
  std::string digits = text;
  if (digits.size() >= 2 && (digits[0] == 'P' || digits[0] == 'p') &&
      (digits[1] == 'F' || digits[1] == 'f')) {
    digits = digits.substr(2);
  }
  if (digits.empty() || digits.size() > 5) return std::nullopt;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::string out = "PF" + std::string(5 - digits.size(), '0') + digits;
  return out;
}

void search(const httplib::Request& req, httplib::Response& res) {
  ojson issues = ojson::array();
  int limit = data::kDefaultLimit;
  std::optional<long long> biome_id;
  std::optional<std::string> pfam;

  if (req.has_param("biome_id")) {
    biome_id = parse_int(req.get_param_value("biome_id"));
    if (!biome_id) {
      auto item = issue("int_parsing", ojson::array({"query", "biome_id"}),
                        "Input should be a valid integer, unable to parse string as an integer");
      item["input"] = req.get_param_value("biome_id");
      issues.push_back(std::move(item));
    }
  }
  if (req.has_param("pfam_accession")) {
    pfam = canonical_pfam(req.get_param_value("pfam_accession"));
    if (!pfam) {
      auto item = issue("value_error", ojson::array({"query", "pfam_accession"}),
                        "Value error, pfam_accession must look like PF00005 or 5");
      item["input"] = req.get_param_value("pfam_accession");
      issues.push_back(std::move(item));
    }
  }
  if (req.has_param("limit")) {
    const std::string raw = req.get_param_value("limit");
    const auto value = parse_int(raw);
    if (!value) {
      auto item = issue("int_parsing", ojson::array({"query", "limit"}),
                        "Input should be a valid integer, unable to parse string as an integer");
      item["input"] = raw;
      issues.push_back(std::move(item));
    } else if (*value < 1) {
      auto item = issue("greater_than_equal", ojson::array({"query", "limit"}),
                        "Input should be greater than or equal to 1");
      item["input"] = raw;
      item["ctx"] = {{"ge", 1}};
      issues.push_back(std::move(item));
    } else if (*value > data::kMaxLimit) {
      auto item = issue("less_than_equal", ojson::array({"query", "limit"}),
                        "Input should be less than or equal to 1000");
      item["input"] = raw;
      item["ctx"] = {{"le", data::kMaxLimit}};
      issues.push_back(std::move(item));
    } else {
      limit = static_cast<int>(*value);
    }
  }
  if (!issues.empty()) return send_json(res, 422, {{"detail", issues}});

  const int filters = static_cast<int>(req.has_param("biome_id")) +
                      static_cast<int>(req.has_param("pfam_accession")) +
                      static_cast<int>(req.has_param("biome_lineage"));
  if (filters != 1) {
    // Exactly the documented body: a model-level check, so loc is just ["query"].
    return send_json(
        res, 422,
        {{"detail", ojson::array({issue("value_error", ojson::array({"query"}), kExactlyOne)})}});
  }

  std::vector<std::uint64_t> matches;
  if (biome_id) {
    matches = data::with_biome_id(static_cast<int>(*biome_id));
  } else if (pfam) {
    matches = data::with_pfam(*pfam);
  } else {
    const std::string lineage = req.get_param_value("biome_lineage");
    if (!data::lineage_known(lineage)) {
      return send_json(
          res, 422,
          {{"detail", "No biome matches lineage '" + lineage +
                          "'. Provide a full lineage such as 'root:Engineered:Wastewater'."}});
    }
    matches = data::with_lineage(lineage);
  }
  ojson hits = ojson::array();
  const std::size_t n = std::min(matches.size(), static_cast<std::size_t>(limit));
  for (std::size_t k = 0; k < n; ++k) hits.push_back(data::search_hit(matches[k]));
  send_json(res, 200, hits);
}

void protein(const httplib::Request& req, httplib::Response& res) {
  const std::string requested = req.matches[1];
  const auto number = data::parse_accession(requested);
  if (number) {
    for (const auto& s : data::superseded()) {
      if (s.from != *number) continue;
      const std::string target = data::accession(s.to);
      const std::string path = std::string(kProteinsPrefix) + "/protein/" + target;
      std::string location;
      switch (s.form) {
        case data::LocationForm::absolute_url:
          location = "http://" + req.get_header_value("Host") + path;
          break;
        case data::LocationForm::relative_path:
          location = path;
          break;
        case data::LocationForm::bare_accession:
          location = target;
          break;
        case data::LocationForm::bare_digits:
          location = std::to_string(s.to);
          break;
      }
      res.status = 302;
      res.set_header("Location", location);
      return;
    }
    if (data::is_representative(*number)) return send_json(res, 200, data::protein_record(*number));
  }
  send_json(res, 404, {{"detail", "Not Found"}});
}

}  // namespace

void register_proteins_routes(MockServer& server) {
  const std::string prefix = kProteinsPrefix;
  // Registered first: httplib tries patterns in order and "search" would
  // otherwise be taken for an accession.
  server.server().Get(prefix + "/protein/search", search);
  server.server().Get(prefix + R"(/protein/([^/]+))", protein);
  register_sequence_search_routes(server);
}

}  // namespace mgnify::mock
