// Conformance: every captured Protein service response in
// <MGNIFY_FIXTURES_DIR>/proteins decodes with the SDK's models, and the error
// bodies reach callers as the documented ValidationError shapes.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/proteins.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mgnify/testing/fake_transport.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
namespace proteins = mgnify::proteins;

namespace {

std::string fixtures_root() { return MGNIFY_FIXTURES_DIR; }

std::vector<fs::path> fixture_files() {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(fixtures_root()) / "proteins";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md") continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

bool has_fixtures() {
  if (fixtures_root().empty()) {
    WARN(MGNIFY_SKIPPED_MARKER
         "MGNIFY_FIXTURES_DIR is not set; Protein fixture conformance was not checked");
    return false;
  }
  return true;
}

// A client whose transport answers every request with the fixture's body.
proteins::ProteinClient client_answering(int status, const std::string& body) {
  auto transport = std::make_shared<mgnify::testing::FakeTransport>();
  transport->fallback([status, body](const mgnify::http::Request&) {
    mgnify::http::Response r;
    r.status = status;
    r.body = body;
    return r;
  });
  mgnify::ClientOptions options;
  options.transport = transport;
  options.clock = std::make_shared<mgnify::testing::FakeClock>();
  options.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  return proteins::ProteinClient(options);
}

}  // namespace

TEST_CASE("every Protein fixture decodes", "[proteins][conformance]") {
  if (!has_fixtures()) return;
  const auto files = fixture_files();
  REQUIRE_FALSE(files.empty());
  std::size_t decoded = 0;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    INFO("fixture " << name);
    const std::string body = read_text(path);
    const json doc = json::parse(body);
    if (name.find(".protein_") != std::string::npos) {
      const auto p = doc.get<proteins::Protein>();
      CHECK(proteins::Accession::is_valid(p.mgyp));
      CHECK(proteins::Accession(p.mgyp).str() == p.mgyp);
      CHECK_FALSE(p.sequence.empty());
      CHECK(p.full_length.has_value());
      CHECK(p.cluster_size.has_value());
      // Round trip: every documented field comes back unchanged.
      CHECK(json(p) == doc);
      // And through the client, as a response body.
      const auto via_client = client_answering(200, body).protein(p.mgyp);
      CHECK(json(via_client) == doc);
      ++decoded;
    } else if (name.find(".search_") != std::string::npos) {
      REQUIRE(doc.is_array());
      const auto hits = doc.get<std::vector<proteins::SearchHit>>();
      CHECK(hits.size() == doc.size());
      for (std::size_t i = 0; i < hits.size(); ++i) {
        CHECK(proteins::Accession::is_valid(hits[i].mgyp));
        CHECK(json(hits[i]) == doc.at(i));
      }
      const auto via_client = client_answering(200, body).search(
          proteins::SearchQuery::by_lineage("root:Engineered:Wastewater"));
      CHECK(via_client.size() == hits.size());
      ++decoded;
    } else if (name.find(".error_") != std::string::npos) {
      const auto parsed = mgnify::parse_error_body(body);
      CHECK((parsed.shape == mgnify::ErrorBody::Shape::detail_string ||
             parsed.shape == mgnify::ErrorBody::Shape::detail_list));
      CHECK_FALSE(parsed.message.empty());
      try {
        (void)client_answering(422, body).search(proteins::SearchQuery::by_biome_id(1));
        FAIL("expected ValidationError");
      } catch (const mgnify::ValidationError& e) {
        CHECK(e.status() == 422);
        CHECK(e.message() == parsed.message);
        if (parsed.shape == mgnify::ErrorBody::Shape::detail_list) {
          REQUIRE(e.issues().size() == doc.at("detail").size());
          for (std::size_t i = 0; i < e.issues().size(); ++i) {
            CHECK(e.issues()[i].msg == doc.at("detail").at(i).at("msg").get<std::string>());
            CHECK(e.issues()[i].type == doc.at("detail").at(i).at("type").get<std::string>());
          }
        } else {
          CHECK(e.message() == doc.at("detail").get<std::string>());
        }
      }
      ++decoded;
    } else {
      FAIL("fixture " << name << " has no known kind (protein_, search_, error_)");
    }
  }
  CHECK(decoded == files.size());
}

TEST_CASE("the documented protein example decodes to the documented values",
          "[proteins][conformance]") {
  if (!has_fixtures()) return;
  const fs::path path =
      fs::path(fixtures_root()) / "proteins" / "docs.protein_MGYP000261684433.json";
  REQUIRE(fs::exists(path));
  const auto p = json::parse(read_text(path)).get<proteins::Protein>();
  CHECK(p.mgyp == "MGYP000261684433");
  CHECK(p.full_length == false);
  CHECK(p.cluster_size == 1);
  REQUIRE(p.biomes.size() == 1);
  CHECK(p.biomes[0].id == 132);
  CHECK(p.biomes[0].name == "root:Environmental:Aquatic:Marine");
  REQUIRE(p.pfam_annotations.size() == 1);
  CHECK(p.pfam_annotations[0].accession == "PF04659");
  CHECK_FALSE(p.pfam_annotations[0].clan.has_value());
  CHECK(p.pfam_annotations[0].evalue == 1.1301790139316117e-22);
  REQUIRE(p.study_assembly_contigs.size() == 1);
  CHECK(p.study_assembly_contigs[0].strand == proteins::Strand::reverse);
  CHECK(p.study_assembly_contigs[0].start == 931);
  CHECK(p.study_assembly_contigs[0].end == 2196);
}
