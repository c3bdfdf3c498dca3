#include <catch2/catch.hpp>
#include <string>

#include "support/v2_rig.hpp"

using namespace mgnify::v2;

namespace {
std::string last_target(const mgnify::test::V2Rig& rig) {
  const auto requests = rig.server.requests();
  return requests.empty() ? std::string() : requests.back().target;
}
}  // namespace

TEST_CASE("studies search sends spaces as '+' and matches titles", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  auto hits = client.studies(StudyQuery().search("human gut")).collect();
  CHECK(last_target(rig).find("search=human+gut") != std::string::npos);
  REQUIRE(hits.size() == 12);
  for (const auto& s : hits) CHECK(s.title.rfind("Human gut", 0) == 0);
  CHECK(client.studies(StudyQuery().search("MGYS00000042")).collect().size() == 1);
  CHECK(client.studies(StudyQuery().search("PRJEB10042")).collect().at(0).accession ==
        "MGYS00000042");
}

TEST_CASE("studies filter by biome lineage, pipeline and order", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  // Marine includes its descendant "Oceanic"; matching ignores case.
  auto marine =
      client.studies(StudyQuery().biome_lineage("root:environmental:aquatic:MARINE")).collect();
  CHECK(marine.size() == 24);
  for (const auto& s : marine)
    CHECK(s.biome->lineage->rfind("root:Environmental:Aquatic:Marine", 0) == 0);

  const auto v5 =
      client.studies(StudyQuery().has_analyses_from_pipeline(PipelineVersion::v5)).collect();
  CHECK(last_target(rig).find("has_analyses_from_pipeline=V5") != std::string::npos);
  CHECK(v5.size() == 40);
  const auto v6 =
      client.studies(StudyQuery().has_analyses_from_pipeline(PipelineVersion::v6)).collect();
  CHECK(v6.size() == 80);

  const auto desc = client.studies(StudyQuery().order(StudyOrder::accession_desc)).collect();
  CHECK(last_target(rig).find("order=-accession") != std::string::npos);
  REQUIRE(desc.size() == 120);
  CHECK(desc.front().accession == "MGYS00000120");
  CHECK(desc.back().accession == "MGYS00000001");
  CHECK_THROWS_AS(StudyQuery().has_analyses_from_pipeline(PipelineVersion::unknown),
                  mgnify::InvalidArgument);
}

TEST_CASE("samples filter by search, lineage and order", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto space = client.samples(SampleQuery().search("space station")).collect();
  CHECK(last_target(rig).find("search=space+station") != std::string::npos);
  REQUIRE_FALSE(space.empty());
  for (const auto& s : space) CHECK(s.sample_title);
  const auto wastewater =
      client.samples(SampleQuery().biome_lineage("root:Engineered:Wastewater")).collect();
  CHECK(wastewater.size() == 200);
  const auto ordered =
      client.samples(SampleQuery().order(SampleOrder::updated_at), mgnify::ListOptions{100, 1, 300})
          .collect();
  CHECK(last_target(rig).find("order=updated_at") != std::string::npos);
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    CHECK(ordered[i - 1].updated_at->text <= ordered[i].updated_at->text);
  }
}

TEST_CASE("runs filter by experiment type code", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto amplicon =
      client.runs(RunQuery().has_experiment_type(ExperimentType::amplicon)).collect();
  CHECK(last_target(rig).find("has_experiment_type=AMPLI") != std::string::npos);
  REQUIRE(amplicon.size() == 400);
  for (const auto& r : amplicon) CHECK(r.experiment_type == ExperimentType::amplicon);
  CHECK(
      client.runs(RunQuery().has_experiment_type(ExperimentType::metabarcoding)).collect().empty());
}

TEST_CASE("biomes filter by lineage and max_depth", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto host =
      client.biomes(BiomeQuery().biome_lineage("root:Host-associated").max_depth(3)).collect();
  CHECK(last_target(rig).find("biome_lineage=root:Host-associated&max_depth=3") !=
        std::string::npos);
  REQUIRE(host.size() == 5);  // itself, Human, Plants, Mammals, Insecta
  for (const auto& b : host) CHECK(b.depth() <= 3);
  CHECK(client.biomes(BiomeQuery().max_depth(1)).collect().size() == 1);
  CHECK_THROWS_AS(BiomeQuery().max_depth(0), mgnify::InvalidArgument);
}

TEST_CASE("publications filter by years, title and order", "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto q = PublicationQuery().published_after(2000).published_before(2010).order(
      PublicationOrder::published_year);
  const auto hits = client.publications(q).collect();
  CHECK(last_target(rig).find("order=published_year&published_after=2000&published_before=2010") !=
        std::string::npos);
  REQUIRE_FALSE(hits.empty());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    REQUIRE(hits[i].published_year);
    CHECK(*hits[i].published_year >= 2000);
    CHECK(*hits[i].published_year <= 2010);
    if (i > 0) CHECK(*hits[i - 1].published_year <= *hits[i].published_year);
  }
  const auto soil = client.publications(PublicationQuery().title("soil")).collect();
  CHECK(soil.size() == 4);
  CHECK_THROWS_AS(
      client.publications(PublicationQuery().published_after(2010).published_before(2000)),
      mgnify::InvalidArgument);
}

TEST_CASE("genomes filter by search, lineage and order; lookups by catalogue",
          "[v2][integration][filters]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto coli = client.genomes(GenomeQuery().search("Escherichia coli")).collect();
  CHECK(last_target(rig).find("search=Escherichia+coli") != std::string::npos);
  CHECK(coli.size() == 50);
  const auto marine =
      client.genomes(GenomeQuery().biome_lineage("root:Environmental:Aquatic:Marine")).collect();
  CHECK(marine.size() == 83);
  const auto longest =
      client.catalogue_genomes("human-gut-v2-0", GenomeQuery().order(GenomeOrder::length_desc))
          .collect();
  REQUIRE(longest.size() == 84);
  CHECK(*longest.front().length > *longest.back().length);
}
