// Decodes every captured real response in <fixtures>/v1 with the typed models.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "mgnify/v1.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace mgnify::v1;

namespace {

nlohmann::json load(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

// Decodes one fixture by what it answers; returns a short description of what was checked.
void check_fixture(const std::string& name, const nlohmann::json& doc) {
  INFO("fixture " << name);
  if (name == "prod_study_downloads_list_MGYS00001392.json") {
    const auto page = doc.get<ListPage<Download>>();
    REQUIRE(page.data.size() == 7);
    CHECK(page.pagination.count == 7);
    CHECK(page.pagination.pages == 1);
    CHECK_FALSE(page.links.next);
    CHECK(page.links.first ==
          std::optional<std::string>(
              "https://www.ebi.ac.uk/metagenomics/api/v1/studies/MGYS00001392/downloads?page=1"));
    for (const auto& d : page.data) {
      CHECK(d.type() == "study-downloads");
      CHECK(d.alias == d.id());
      REQUIRE(d.file_checksum);
      CHECK(d.file_checksum->checksum.empty());
      CHECK(d.pipeline_version() == std::optional<std::string>("3.0"));
      CHECK(d.self_link()->find("/pipelines/3.0/file/") != std::string::npos);
    }
    CHECK(page.data[0].file_format->name == "TSV");
    CHECK(page.data[0].file_format->compression == std::optional<bool>(false));
    CHECK(page.data[0].description->label == "GO slim annotation");
    CHECK(page.data[0].group_type == std::optional<std::string>("Functional analysis"));
    CHECK(page.data[6].file_format->extension == std::optional<std::string>("svg"));
  } else if (name == "prod_studies_data_items_biome_wastewater.json") {
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() == 184);
    std::set<std::string> ids;
    for (const auto& item : doc) {
      const auto s = item.get<Study>();
      CHECK(s.type() == "studies");
      CHECK(s.accession == s.id());
      CHECK(s.id().rfind("MGYS", 0) == 0);
      CHECK(s.samples_count.has_value());
      CHECK(s.is_private == std::optional<bool>(false));
      REQUIRE(s.last_update);
      CHECK(s.last_update->time.has_value());
      CHECK_FALSE(s.biome_lineages().empty());
      CHECK(s.relationship("samples")->related.has_value());
      ids.insert(s.id());
      // Round trip keeps every attribute.
      CHECK(nlohmann::json(s)["attributes"] == item["attributes"]);
    }
    CHECK(ids.size() == 184);
    const auto first = doc[0].get<Study>();
    CHECK(first.id() == "MGYS00005985");
    CHECK(first.bioproject == std::optional<std::string>("PRJEB45225"));
    CHECK(first.public_release_date == std::nullopt);
    CHECK(first.last_update->text == "2022-03-11T21:49:39");
  } else if (name == "dev_sample_detail_ERS434640.json") {
    const auto d = doc.get<Document<Sample>>();
    const Sample& s = d.data;
    CHECK(s.id() == "ERS434640");
    CHECK(s.sample_metadata.size() == 16);
    REQUIRE(s.metadata("depth"));
    CHECK(s.metadata("depth")->value == "0.25");
    CHECK(s.metadata("depth")->unit == std::optional<std::string>("m"));
    CHECK(s.metadata("investigation type")->unit == std::nullopt);
    CHECK(s.longitude == Approx(139.2748));
    CHECK(s.latitude == Approx(-35.1059));
    CHECK_FALSE(s.host_tax_id.has_value());
    CHECK(s.host_tax_id.known());
    CHECK(s.species == std::nullopt);
    CHECK(s.collection_date->text == "2013-02-01");
    CHECK(s.collection_date->time.has_value());
    CHECK(s.biome_lineage() ==
          std::optional<std::string>("root:Environmental:Terrestrial:Soil:Grasslands"));
    CHECK(s.relationship("studies")->data.size() == 2);
    CHECK(s.relationship("runs")->data_kind == Relationship::DataKind::absent);
    CHECK(d.included.empty());
  } else if (name == "dev_samples_list_lineage_root.json") {
    const auto page = doc.get<ListPage<Sample>>();
    REQUIRE(page.data.size() == 1);
    CHECK(page.data[0].accession == "ERS434640");
    CHECK(page.links.first->find("lineage=root&ordering=&page=1&page_size=25") !=
          std::string::npos);
    CHECK(page.pagination.page == 1);
    CHECK(page.pagination.count == 1);
    CHECK_FALSE(page.pagination.is_cursor());
  } else if (name == "dev_analysis_interpro_identifiers_page1_MGYA00141547.json") {
    const auto page = doc.get<ListPage<InterproIdentifier>>();
    CHECK(page.data.size() == 25);
    CHECK(page.pagination.count == 50);
    CHECK(page.links.next.has_value());
    CHECK(page.data[0].accession == "IPR012347");
    CHECK(page.data[0].count == 337346);
    CHECK(page.data[0].description == std::optional<std::string>("Ferritin-related"));
    CHECK(page.data[0].relationship("analyses")->related.has_value());
  } else if (name == "dev_assembly_detail_ERZ477708_EDITED.json") {
    const auto a = doc.get<Document<Assembly>>().data;
    CHECK(a.accession == "ERZ477708");
    CHECK(a.wgs_accession == std::optional<std::string>("OBJK01"));
    CHECK(a.legacy_accession == std::optional<std::string>("GCA_900217105"));
    CHECK(a.relationship("samples")->count == 1);  // the old relationship meta.count
    CHECK(a.relationship("samples")->data.size() == 2);
    CHECK(a.relationship("runs")->data_kind == Relationship::DataKind::many);
    CHECK(a.relationship("runs")->data.empty());
    CHECK(a.relationship("pipelines")->data.at(0).id == "4.0");
  } else if (name == "dev_sample_studies_publications_annotations_existence_ERS434640.json") {
    // A non-resource view: a plain dict under data, not a resource object.
    CHECK_THROWS_AS(doc.get<Document<Resource>>(), mgnify::DecodeError);
    CHECK(doc.at("data").at("study_has_annotations").at("MGYS00002011") == true);
  } else if (name == "docs_contigs_cursor_page_MGYA00585528_ELIDED.json") {
    // The documentation elided 24 items as a "..." string: the page as a whole
    // must fail with a path naming that element, the real item must decode.
    try {
      (void)doc.get<ListPage<AnalysisContig>>();
      FAIL("expected DecodeError");
    } catch (const mgnify::DecodeError& e) {
      CHECK(e.json_path() == "/data/1");
    }
    const auto c = doc.at("data").at(0).get<AnalysisContig>();
    CHECK(c.contig_id == "ERZ2310312.1-contig-1");
    CHECK(c.length == 20832);
    CHECK(c.job_id == 585528);
    CHECK(c.has_antismash == std::optional<bool>(false));
    auto envelope = doc;
    envelope["data"].erase(1);
    const auto page = envelope.get<ListPage<AnalysisContig>>();
    CHECK(page.pagination.is_cursor());
    CHECK(page.pagination.count == 105);
    CHECK(page.links.next->find("cursor=") != std::string::npos);
    CHECK_FALSE(page.links.prev);
  } else if (name == "test_error_400_token_obtain_bad_credentials_RECONSTRUCTED.json") {
    const auto body = mgnify::parse_error_body(doc.dump());
    CHECK(body.shape == mgnify::ErrorBody::Shape::field_errors);
    CHECK(body.message == "Unable to log in with provided credentials.");
  } else if (name == "test_error_401_invalid_jwt_RECONSTRUCTED.json") {
    const auto body = mgnify::parse_error_body(doc.dump());
    CHECK(body.shape == mgnify::ErrorBody::Shape::jsonapi_errors);
    CHECK(body.code == "authentication_failed");
    CHECK(body.api_errors.at(0).source_pointer == "/data");
  } else {
    FAIL("no conformance check written for fixture " << name);
  }
}

}  // namespace

TEST_CASE("v1 conformance: every captured response decodes", "[v1][conformance]") {
  const std::string dir = MGNIFY_FIXTURES_DIR;
  if (dir.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: v1 conformance fixtures not checked");
  const fs::path folder = fs::path(dir) / "v1";
  REQUIRE(fs::is_directory(folder));
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name == "SOURCES.md" || entry.path().extension() != ".json") continue;
    check_fixture(name, load(entry.path()));
    ++checked;
  }
  CHECK(checked == 10);
}
