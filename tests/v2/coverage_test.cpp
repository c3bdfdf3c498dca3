// Every GET path of the service's OpenAPI documents must have a client method.
// The table below maps each path to the method that serves it; each method is
// called against the mock and must request exactly that path shape (trailing
// slash included).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "v2/v2_support.hpp"
#include "skip.hpp"

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

std::regex template_regex(const std::string& prefix, const std::string& path) {
  static const std::regex param(R"(\{[^}]+\})");
  return std::regex(prefix + "/" + std::regex_replace(path, param, "[^/]+"));
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
  v2test::Rig rig;
  auto client = rig.client();
  client.set_token(std::string(v2test::data::kValidToken));  // my-data/studies/ needs one
  for (const auto& [path, entry] : coverage_table()) {
    INFO("GET " << path << " -> V2Client::" << entry.method);
    rig.server.clear_requests();
    REQUIRE_NOTHROW(entry.call(client));
    const auto requests = rig.server.requests();
    std::string seen;
    for (const auto& r : requests) seen += r.method + " " + r.target + "; ";
    INFO("requests: " << seen);
    REQUIRE(requests.size() == 1);
    CHECK(std::regex_match(requests[0].path, template_regex(mgnify::mock::kV2Prefix, path)));
  }
}
