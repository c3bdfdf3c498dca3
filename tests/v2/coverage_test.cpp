// Every operation (GET and POST) of the service's OpenAPI documents must have a
// client method or be named, with the reason, in the exclusion list. The
// tables below map each operation to the method that serves it; each method is
// called against the mock and must request exactly that method and path shape
// (trailing slash included).

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "genome_search_calls.hpp"
#include "route_check.hpp"
#include "skip.hpp"
#include "support/v2_rig.hpp"

using namespace mgnify::v2;

namespace {

struct Entry {
  const char* method;
  std::function<void(V2Client&)> call;
};

const std::map<std::string, Entry>& coverage_table() {
  static const std::map<std::string, Entry> table = {
      {"studies/", {"studies", [](V2Client& c) { c.studies().total(); }}},
      {"studies/{accession}", {"study", [](V2Client& c) { c.study("MGYS00000001"); }}},
      {"studies/insdc/{accession}", {"study_by_insdc_accession", [](V2Client& c) { c.study_by_insdc_accession("ERP100001"); }}},
      {"studies/{accession}/analyses/", {"study_analyses", [](V2Client& c) { c.study_analyses("MGYS00000001").total(); }}},
      {"studies/{accession}/samples/", {"study_samples", [](V2Client& c) { c.study_samples("MGYS00000001").total(); }}},
      {"studies/{accession}/publications/",
       {"study_publications", [](V2Client& c) { c.study_publications("MGYS00000001").total(); }}},
      {"my-data/studies/", {"my_studies", [](V2Client& c) { c.my_studies().total(); }}},
      {"samples/", {"samples", [](V2Client& c) { c.samples().total(); }}},
      {"samples/{accession}", {"sample", [](V2Client& c) { c.sample("SAMEA1000001"); }}},
      {"samples/{accession}/runs/", {"sample_runs", [](V2Client& c) { c.sample_runs("SAMEA1000001").total(); }}},
      {"samples/{accession}/assemblies/",
       {"sample_assemblies", [](V2Client& c) { c.sample_assemblies("SAMEA1000003").total(); }}},
      {"runs/", {"runs", [](V2Client& c) { c.runs().total(); }}},
      {"runs/{accession}", {"run", [](V2Client& c) { c.run("ERR3000001"); }}},
      {"runs/{accession}/analyses/", {"run_analyses", [](V2Client& c) { c.run_analyses("ERR3000001").total(); }}},
      {"runs/{accession}/assemblies/", {"run_assemblies", [](V2Client& c) { c.run_assemblies("ERR3000003").total(); }}},
      {"assemblies/", {"assemblies", [](V2Client& c) { c.assemblies().total(); }}},
      {"assemblies/{accession}", {"assembly", [](V2Client& c) { c.assembly("ERZ4000000"); }}},
      {"assemblies/{accession}/analyses",
       {"assembly_analyses", [](V2Client& c) { c.assembly_analyses("ERZ4000000").total(); }}},
      {"assemblies/{accession}/genome-links",
       {"assembly_genome_links", [](V2Client& c) { c.assembly_genome_links("ERZ4000000").total(); }}},
      {"assemblies/{accession}/additional-contained-genomes",
       {"assembly_additional_contained_genomes",
        [](V2Client& c) { c.assembly_additional_contained_genomes("ERZ4000000").total(); }}},
      {"analyses/", {"analyses", [](V2Client& c) { c.analyses().total(); }}},
      {"analyses/{accession}", {"analysis", [](V2Client& c) { c.analysis("MGYA00000001"); }}},
      {"analyses/{accession}/annotations",
       {"analysis_annotations", [](V2Client& c) { c.analysis_annotations("MGYA00000001"); }}},
      {"analyses/{accession}/annotations/{annotation_type}",
       {"analysis_annotations_of_type",
        [](V2Client& c) { c.analysis_annotations_of_type("MGYA00000001", AnnotationType::taxonomies_ssu).total(); }}},
      {"biomes/", {"biomes", [](V2Client& c) { c.biomes().total(); }}},
      {"publications/", {"publications", [](V2Client& c) { c.publications().total(); }}},
      {"publications/{pubmed_id}", {"publication", [](V2Client& c) { c.publication(30000001); }}},
      {"publications/{pubmed_id}/annotations",
       {"publication_annotations", [](V2Client& c) { c.publication_annotations(30000001); }}},
      {"super-studies/", {"super_studies", [](V2Client& c) { c.super_studies().total(); }}},
      {"super-studies/{slug}", {"super_study", [](V2Client& c) { c.super_study("human-gut-atlas"); }}},
      {"genomes/", {"genomes", [](V2Client& c) { c.genomes().total(); }}},
      {"genomes/{accession}", {"genome", [](V2Client& c) { c.genome("MGYG000000001"); }}},
      {"genomes/{accession}/annotations", {"genome_annotations", [](V2Client& c) { c.genome_annotations("MGYG000000001"); }}},
      {"genomes/catalogues/", {"genome_catalogues", [](V2Client& c) { c.genome_catalogues().total(); }}},
      {"genomes/catalogues/{catalogue_id}", {"genome_catalogue", [](V2Client& c) { c.genome_catalogue("marine-v1-0"); }}},
      {"genomes/catalogues/{catalogue_id}/genomes/",
       {"catalogue_genomes", [](V2Client& c) { c.catalogue_genomes("marine-v1-0").total(); }}},
  };
  return table;
}

// POST operations, keyed by path like the GET table.
const std::map<std::string, Entry>& post_coverage_table() {
  static const std::map<std::string, Entry> table = {
      {"auth/sliding",
       {"login",
        [](V2Client& c) {
          c.login(mgnify::mock::v2data::kUser, mgnify::mock::v2data::kPassword);
        }}},
      {"auth/sliding/refresh", {"refresh", [](V2Client& c) { c.refresh(); }}},
      {"auth/verify", {"verify", [](V2Client& c) { c.verify(); }}},
  };
  return table;
}

// Operations the service's documentation names beyond the OpenAPI documents'
// paths (api-v2.md: "A machine-readable OpenAPI description is served by GET
// /openapi.json"), checked the same way.
const std::map<std::string, Entry>& described_elsewhere_table() {
  static const std::map<std::string, Entry> table = {
      {"openapi.json", {"openapi", [](V2Client& c) { c.openapi(); }}},
  };
  return table;
}

// Operations without a V2Client method here, each with the reason. Keyed by
// "METHOD path"; the coverage check accepts an operation named here instead of
// a table entry. Empty: every operation of both documents has a method.
const std::map<std::string, std::string>& excluded_operations() {
  static const std::map<std::string, std::string> excluded = {};
  return excluded;
}

// The genome-search operations, which the reference notes name
// (proteins-v2-api.md B11) and the OpenAPI copies predate. The gather routes
// need a job first, so each call's last request is the one checked.
const std::map<std::string, std::pair<std::string, Entry>>& genome_search_table() {
  static const std::map<std::string, std::pair<std::string, Entry>> table = {
      {"genome-search/",
       {"POST", {"genome_search", [](V2Client& c) { c.genome_search(mgnify::test::genome_search_calls::cobs_query()); }}}},
      {"genomes-search/gather/",
       {"POST", {"submit_gather", [](V2Client& c) { mgnify::test::genome_search_calls::submit(c, "human-gut-v2-0"); }}}},
      {"genomes-search/status/{job_id}/",
       {"GET", {"gather_status", [](V2Client& c) { mgnify::test::genome_search_calls::status(c, "human-gut-v2-0"); }}}},
      {"genomes-search/results/{job_id}/",
       {"GET", {"gather_results", [](V2Client& c) { mgnify::test::genome_search_calls::results(c, "human-gut-v2-0"); }}}},
  };
  return table;
}

std::set<std::string> openapi_get_paths(const std::filesystem::path& file) {
  std::ifstream in(file);
  const auto doc = nlohmann::json::parse(in);
  const std::string prefix = std::string(mgnify::mock::kV2Prefix) + "/";
  std::set<std::string> paths;
  for (const auto& [path, item] : doc.at("paths").items()) {
    if (!item.contains("get")) continue;
    paths.insert(path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path);
  }
  return paths;
}

/// Every operation of a document as "METHOD path" (path relative to the v2 root).
std::set<std::string> openapi_operations(const std::filesystem::path& file) {
  std::ifstream in(file);
  const auto doc = nlohmann::json::parse(in);
  const std::string prefix = std::string(mgnify::mock::kV2Prefix) + "/";
  std::set<std::string> operations;
  for (const auto& [path, item] : doc.at("paths").items()) {
    const std::string relative = path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
    for (const auto& [verb, operation] : item.items()) {
      static const std::set<std::string> verbs = {"get", "post", "put", "patch", "delete"};
      if (!verbs.count(verb)) continue;
      std::string upper = verb;
      for (auto& ch : upper) ch = static_cast<char>(ch - 'a' + 'A');
      operations.insert(upper + " " + relative);
    }
  }
  return operations;
}

bool covered(const std::string& operation) {
  const auto space = operation.find(' ');
  const std::string verb = operation.substr(0, space);
  const std::string path = operation.substr(space + 1);
  if (verb == "GET")
    return coverage_table().count(path) + described_elsewhere_table().count(path) == 1;
  if (verb == "POST") return post_coverage_table().count(path) == 1;
  return false;
}

void check_requests(mgnify::test::V2Rig& rig, V2Client& client, const std::string& verb,
                    const std::map<std::string, Entry>& table) {
  for (const auto& [path, entry] : table) {
    INFO(verb << " " << path << " -> V2Client::" << entry.method);
    mgnify::test::route_check::expect_route(
        rig.server, mgnify::mock::kV2Prefix, verb, path,
        [&call = entry.call, &client] { call(client); }, true);
  }
}

}  // namespace

TEST_CASE("every GET path of the OpenAPI documents has a V2Client method", "[v2][coverage]") {
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty()) MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: OpenAPI coverage not checked");
  std::size_t documents = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(fixtures) / "v2")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("openapi_v2", 0) != 0) continue;
    ++documents;
    const auto paths = openapi_get_paths(entry.path());
    CHECK(paths.size() >= 28);
    for (const auto& path : paths) {
      INFO(name << ": GET " << path);
      CHECK(coverage_table().count(path) == 1);
    }
  }
  CHECK(documents >= 1);
}

TEST_CASE("each method of the coverage table requests exactly its path", "[v2][coverage][integration]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(mgnify::mock::v2data::kValidToken));  // my-data/studies/ needs one
  check_requests(rig, client, "GET", coverage_table());
}

TEST_CASE("every operation of the OpenAPI documents is covered or excluded", "[v2][coverage]") {
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: OpenAPI coverage not checked");
  std::size_t documents = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(fixtures) / "v2")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("openapi_v2", 0) != 0) continue;
    ++documents;
    const auto operations = openapi_operations(entry.path());
    CHECK(operations.size() >= 31);
    std::size_t posts = 0;
    for (const auto& operation : operations) {
      INFO(name << ": " << operation);
      posts += operation.rfind("POST ", 0) == 0 ? 1 : 0;
      // Exactly one of: a table entry, an exclusion.
      CHECK(static_cast<int>(covered(operation)) +
                static_cast<int>(excluded_operations().count(operation)) ==
            1);
    }
    CHECK(posts >= 3);
  }
  CHECK(documents >= 1);
  // An exclusion is never also covered, so the list cannot go stale silently.
  for (const auto& [operation, reason] : excluded_operations()) {
    INFO(operation << ": " << reason);
    CHECK_FALSE(reason.empty());
    CHECK_FALSE(covered(operation));
  }
}

TEST_CASE("each POST and documented-elsewhere method requests exactly its path",
          "[v2][coverage][integration]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  check_requests(rig, client, "GET", described_elsewhere_table());
  // Refresh and verify need a token; login (an entry of its own) sets one.
  client.set_token(std::string(mgnify::mock::v2data::kValidToken));
  check_requests(rig, client, "POST", post_coverage_table());
}

TEST_CASE("each genome-search method requests the route the reference names",
          "[v2][coverage][integration]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  for (const auto& [path, verb_and_entry] : genome_search_table()) {
    const auto& [verb, entry] = verb_and_entry;
    INFO(verb << " " << path << " -> V2Client::" << entry.method);
    mgnify::test::route_check::expect_route(
        rig.server, mgnify::mock::kV2Prefix, verb, path, [&call = entry.call, &client] { call(client); },
        false);
  }
}
