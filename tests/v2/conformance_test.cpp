// Decodes every captured v2 response in <fixtures>/v2 with the SDK's models.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "mgnify/error_body.hpp"
#include "mgnify/v2.hpp"
#include "skip.hpp"

using namespace mgnify::v2;
using nlohmann::json;

namespace {

json load(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return mgnify::detail::parse_body(ss.str(), p.string());
}

bool has(const std::string& name, const char* part) { return name.find(part) != std::string::npos; }

// Decodes one fixture by what its name says it is; returns false for unknown files.
bool decode_fixture(const std::string& name, const json& doc) {
  using mgnify::detail::decode;
  if (has(name, "openapi_v2")) {
    CHECK(doc.at("paths").size() >= 28);
    CHECK(doc.at("components").at("schemas").contains("MGnifyAnalysisDetail"));
    return true;
  }
  if (has(name, "test-suite.auth_")) {
    const auto body = mgnify::parse_error_body(doc.dump());
    CHECK_FALSE(body.message.empty());
    return true;
  }
  if (has(name, "analysis_MGYA")) {
    const auto a = decode<AnalysisDetail>(doc, name);
    CHECK(a.accession.rfind("MGYA", 0) == 0);
    CHECK(a.experiment_type == ExperimentType::assembly);
    REQUIRE(a.read_run);  // a single object in this stale mock, read as a list of one
    CHECK_FALSE(a.downloads.empty());
    CHECK_FALSE(a.downloads_in_group("taxonomies.").empty());
    for (const auto& d : a.downloads) {
      if (d.index_files) {
        for (const auto& i : *d.index_files) CHECK(i.index_type.known());
      }
    }
    REQUIRE(a.sample);
    CHECK_FALSE(a.sample->sample_title);
    return true;
  }
  if (has(name, "biomes_list")) {
    const auto page = decode<CountedPage<Biome>>(doc, name);
    CHECK(page.count >= static_cast<std::int64_t>(page.items.size()));
    for (const auto& b : page.items) CHECK(b.lineage);
    return true;
  }
  if (has(name, "empty_list")) {
    const auto page = decode<CountedPage<Study>>(doc, name);
    CHECK(page.count == 0);
    CHECK(page.items.empty());
    return true;
  }
  if (has(name, "publication_1_annotations")) {
    const auto p = decode<PublicationAnnotations>(doc, name);
    CHECK_FALSE(p.other.empty());
    CHECK_FALSE(p.sample_processing.empty());
    CHECK(p.sample_processing[0].annotations[0].mentions[0].icase_text);
    return true;
  }
  if (has(name, "publication_1")) {
    const auto p = decode<PublicationDetail>(doc, name);
    CHECK(p.pubmed_id == 1);
    CHECK(p.published_year == 1859);
    CHECK(p.studies.size() == 1);
    return true;
  }
  if (has(name, "samples_list")) {
    const auto page = decode<CountedPage<Sample>>(doc, name);
    CHECK(page.count == static_cast<std::int64_t>(page.items.size()));
    return true;
  }
  if (has(name, "super_studies_list")) {
    const auto page = decode<CountedPage<SuperStudy>>(doc, name);
    REQUIRE(page.items.size() == 1);
    CHECK(page.items[0].logo_url);
    return true;
  }
  if (has(name, "studies_list")) {
    const auto page = decode<CountedPage<Study>>(doc, name);
    REQUIRE(page.items.size() == 1);
    CHECK(page.items[0].updated_at);
    return true;
  }
  if (has(name, "analyses_page")) {
    const auto page = decode<CountedPage<Analysis>>(doc, name);
    REQUIRE_FALSE(page.items.empty());
    CHECK(page.items[0].pipeline_version);
    return true;
  }
  if (has(name, "_publications")) {
    const auto page = decode<CountedPage<Publication>>(doc, name);
    CHECK(page.items.size() == 1);
    return true;
  }
  if (has(name, "study_MGYS")) {
    const auto s = decode<StudyDetail>(doc, name);
    CHECK(s.first_accession);
    REQUIRE(s.downloads.size() == 1);
    CHECK_FALSE(s.downloads[0].index_files);  // the older `index_file: null`
    CHECK(s.metadata.contains("study_title"));
    return true;
  }
  if (has(name, "super_study_")) {
    const auto s = decode<SuperStudyDetail>(doc, name);
    CHECK_FALSE(s.flagship_studies.empty());
    REQUIRE(s.flagship_studies[0].biome);
    CHECK_FALSE(s.flagship_studies[0].biome->lineage);  // null lineage in this mock
    REQUIRE_FALSE(s.genome_catalogues.empty());
    CHECK(s.genome_catalogues[0].catalogue_type == CatalogueType::prokaryotes);
    return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every v2 fixture decodes with the SDK's models", "[v2][conformance]") {
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty()) MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: v2 conformance fixtures not checked");
  std::size_t decoded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(fixtures) / "v2")) {
    const std::string name = entry.path().filename().string();
    if (name == "SOURCES.md") continue;
    INFO("fixture " << name);
    const json doc = load(entry.path());
    CHECK(decode_fixture(name, doc));
    ++decoded;
  }
  CHECK(decoded >= 18);
}
