#include <catch2/catch.hpp>
#include <string>

#include "support/v2_rig.hpp"

using namespace mgnify::v2;

TEST_CASE("each v2 detail endpoint decodes into its typed model", "[v2][integration][details]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();

  const auto study = client.study("mgys00000003");  // case is normalised
  CHECK(study.accession == "MGYS00000003");
  CHECK(study.title == "Ocean water metagenome 003");
  REQUIRE(study.biome);
  CHECK(study.biome->lineage == std::string("root:Environmental:Aquatic:Marine"));
  CHECK(study.first_accession == std::string("ERP100003"));
  REQUIRE(study.downloads.size() == 2);
  CHECK_FALSE(study.downloads[0].has_url());  // legacy v5 study: no URL
  CHECK(study.metadata["center_name"] == "Mock Sequencing Centre");
  REQUIRE(study.updated_at);

  CHECK(client.study_by_insdc_accession("ERP100007").accession == "MGYS00000007");
  CHECK(client.study_by_insdc_accession("PRJEB10007").accession == "MGYS00000007");

  const auto sample = client.sample("ERS2000005");  // any of its accessions
  CHECK(sample.accession == "SAMEA1000005");
  REQUIRE(sample.studies.size() == 1);
  CHECK(sample.studies[0].accession == "MGYS00000006");
  CHECK(sample.metadata.contains("lat"));

  const auto run = client.run("ERR3000001");
  CHECK(run.experiment_type == ExperimentType::amplicon);
  CHECK(run.experiment_type.text == "Amplicon");
  REQUIRE(run.sample);
  CHECK(run.sample->accession == "SAMEA1000001");
  REQUIRE(run.study);
  CHECK(run.study->accession == "MGYS00000002");

  const auto assembly = client.assembly("ERZ4000001");
  CHECK(assembly.run_accession == std::string("ERR3000004"));
  CHECK(assembly.assembler_name == std::string("flye"));
  CHECK(assembly.status["assembly_completed"] == true);

  const auto analysis = client.analysis("MGYA00000002");
  CHECK(analysis.study_accession == "MGYS00000002");
  REQUIRE(analysis.pipeline_version);
  CHECK(*analysis.pipeline_version == PipelineVersion::v6);
  REQUIRE(analysis.read_run);
  CHECK(analysis.read_run->size() == 1);
  CHECK(analysis.results_dir);
  const auto taxonomy = analysis.downloads_in_group("taxonomies.");
  CHECK(taxonomy.size() == 4);  // SSU table, LSU table, Krona, DADA2 ASVs (an amplicon run)
  CHECK(analysis.downloads_by_group().count("functional_annotation.pfams") == 1);
  CHECK(analysis.downloads_of_type(FileType::html).size() == 2);
  for (const auto& d : taxonomy) CHECK(d.has_url());

  const auto annotated = client.analysis_annotations("MGYA00000002");
  CHECK(annotated.accession == "MGYA00000002");
  CHECK(annotated.annotation_rows({"pfams"}).size() == 5);
  CHECK(annotated.annotation_rows({"taxonomies", "lsu"}).size() == 2);
  CHECK(annotated.annotation_rows({"taxonomies", "its"}).empty());

  const auto publication = client.publication(30000002);
  CHECK(publication.title.find("Tomato") != std::string::npos);
  REQUIRE(publication.studies.size() == 2);
  CHECK(publication.studies[0].accession == "MGYS00000002");
  const auto epmc = client.publication_annotations(30000002);
  REQUIRE(epmc.sample_processing.size() == 1);
  CHECK(epmc.sample_processing[0].annotations[0].mentions[0].tags[0].name == "RNA-seq");

  const auto super_study = client.super_study("human-gut-atlas");
  CHECK(super_study.flagship_studies.size() == 3);
  CHECK(super_study.related_studies.size() == 2);
  REQUIRE(super_study.genome_catalogues.size() == 1);

  const auto catalogue = client.genome_catalogue("human-gut-v2-0");
  CHECK(catalogue.catalogue_type == CatalogueType::prokaryotes);
  CHECK(catalogue.genome_count == 84);

  const auto genome = client.genome("MGYG000000002");
  CHECK(genome.type == GenomeType::mag);
  CHECK(genome.downloads.size() == 4);
  REQUIRE(genome.catalogue);
  CHECK(genome.catalogue->catalogue_id == "marine-v1-0");
  CHECK_FALSE(genome.rna_18s);
  CHECK(client.genome("MGYG000000002", GenomeLookup{"marine-v1-0"}).accession == "MGYG000000002");
  CHECK_THROWS_AS(client.genome("MGYG000000002", GenomeLookup{"human-gut-v2-0"}),
                  mgnify::NotFoundError);
  const auto genome_annotations = client.genome_annotations("MGYG000000001");
  CHECK(genome_annotations.annotations.contains("pfams"));
}

TEST_CASE("get_many fetches details concurrently and keeps failures per item",
          "[v2][integration][details]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto results = client.get_studies({"MGYS00000001", "MGYS99999999", "MGYS00000010"});
  REQUIRE(results.size() == 3);
  REQUIRE(results[0].ok());
  CHECK(results[0]->accession == "MGYS00000001");
  CHECK_FALSE(results[1].ok());
  CHECK(results[1].error_as<mgnify::NotFoundError>() != nullptr);
  REQUIRE(results[2].ok());
  CHECK(results[2]->accession == "MGYS00000010");

  std::vector<std::string> accessions;
  for (int i = 1; i <= 40; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "MGYA%08d", i);
    accessions.push_back(buf);
  }
  const auto analyses = client.get_analyses(accessions);
  REQUIRE(analyses.size() == 40);
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    REQUIRE(analyses[i].ok());
    CHECK(analyses[i]->accession == accessions[i]);
  }
  CHECK(client.get_publications({30000001, 1}).at(1).error_as<mgnify::NotFoundError>() != nullptr);
}

TEST_CASE("v2 errors carry the service's exact texts", "[v2][integration][errors]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();

  try {
    client.study("MGYS99999999");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Study with accession = MGYS99999999  was not found");  // two spaces
    CHECK(e.hint().empty());  // no token, no private-object hint
  }
  try {
    client.analysis("MGYA99999999");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Analysis with accession = MGYA99999999  was not found");
  }
  try {
    client.sample("SAMEA0000000");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "No sample available for accession SAMEA0000000");
  }
  try {
    client.run("ERR0000000");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Analysed run with accession ERR0000000 not found.");
  }
  try {
    client.publication(12);
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Publication with pubmed_id = 12  was not found");
  }
  try {
    client.super_study("nope");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "SuperStudy with slug = nope  was not found");
  }
  CHECK_THROWS_AS(client.assembly("ERZ0"), mgnify::NotFoundError);
  CHECK_THROWS_AS(client.genome_catalogue("nope"), mgnify::NotFoundError);
  CHECK_THROWS_AS(client.publication_annotations(30000040),
                  mgnify::NotFoundError);  // Europe PMC failure
}

TEST_CASE("v2 validation errors surface the 422 list", "[v2][integration][errors]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  try {
    client.session().get(rig.server.v2_url() + "/studies/?page=0&order=title");
    FAIL("expected ValidationError");
  } catch (const mgnify::ValidationError& e) {
    CHECK(e.status() == 422);
    REQUIRE(e.issues().size() == 2);
    CHECK(e.issues()[0].loc == std::vector<std::string>{"query", "order"});
    CHECK(e.issues()[1].loc == std::vector<std::string>{"query", "page"});
    CHECK(e.issues()[1].msg == "Input should be greater than or equal to 1");
  }
}

TEST_CASE("a missing trailing slash is answered with a 301 that the session follows",
          "[v2][integration][mock]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto response = client.session().get(rig.server.v2_url() + "/studies?page=2&page_size=5");
  CHECK(response.status == 200);
  REQUIRE(response.redirects.size() == 1);
  CHECK(response.url == rig.server.v2_url() + "/studies/?page=2&page_size=5");
  CHECK(nlohmann::json::parse(response.body)["items"][0]["accession"] == "MGYS00000006");
  // The client sends the canonical form, so it never pays for the hop.
  client.studies().total();
  CHECK(rig.hits("studies") == 1);
}

TEST_CASE("unknown sample lists answer Django's HTML 500, unknown routes an HTML 404",
          "[v2][integration][errors]") {
  mgnify::test::V2Rig rig;
  mgnify::v2::V2Client client(rig.options());
  try {
    client.sample_runs("SAMEA0000000").collect();
    FAIL("expected ServerError");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 500);
    CHECK(e.body().find("<html") != std::string::npos);
  }
  CHECK_THROWS_AS(client.session().get(rig.server.v2_url() + "/no-such-route/"),
                  mgnify::NotFoundError);
}

TEST_CASE("bad v2 arguments fail before any request", "[v2][errors]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  CHECK_THROWS_AS(client.study("ERP100007"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.analysis("MGYA123456789"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.sample("ERR1"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.run("SAMEA1"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.assembly("ERZ"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.sample(".."), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.publication(0), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.analysis_annotations_of_type("MGYA00000001", AnnotationType::unknown),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.my_studies(), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.login("alice", "pw"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.refresh(), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("an accession cannot change the request path", "[v2][integration][details]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  // An accession the rule of its kind refuses is not sent at all...
  CHECK_THROWS_AS(client.run("ERR3000001/../../studies"), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());
  // ... and an id with no rule of its own stays inside its path segment.
  CHECK_THROWS_AS(client.super_study("x/../../studies"), mgnify::NotFoundError);
  REQUIRE(rig.server.requests().size() == 1);
  CHECK(rig.server.requests()[0].target.find("x%2F..%2F..%2Fstudies") != std::string::npos);
}
