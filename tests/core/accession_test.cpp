#include "mgnify/accession.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "core/test_support.hpp"
#include "mgnify/error.hpp"
#include "mgnify/testing/fake_transport.hpp"
#include "mgnify/v2/client.hpp"

using mgnify::canonical_accession;
using mgnify::checked_accession;
using mgnify::InvalidArgument;

TEST_CASE("checked_accession takes only the whole accession, in any case", "[accession]") {
  CHECK(checked_accession("MGYS00000001", mgnify::kStudyAccession) == "MGYS00000001");
  CHECK(checked_accession(" mgya00000042\n", mgnify::kAnalysisAccession) == "MGYA00000042");
  CHECK(checked_accession("MGYG000000001", mgnify::kGenomeAccession) == "MGYG000000001");
  // No digit is guessed: a short, long or foreign accession is refused with its expected form.
  CHECK_THROWS_AS(checked_accession("MGYS1", mgnify::kStudyAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("MGYS000000001", mgnify::kStudyAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("MGYG00000001", mgnify::kGenomeAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("MGYA00000001", mgnify::kStudyAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("00000001", mgnify::kStudyAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("MGYS 0000001", mgnify::kStudyAccession), InvalidArgument);
  CHECK_THROWS_AS(checked_accession("", mgnify::kAnalysisAccession), InvalidArgument);
  CHECK_THROWS_WITH(checked_accession("MGYS1", mgnify::kStudyAccession),
                    Catch::Contains("MGYS + 8 digits") && Catch::Contains("'MGYS1'"));
  CHECK_THROWS_WITH(checked_accession("x", mgnify::kGenomeAccession),
                    Catch::Contains("MGYG + 9 digits"));
}

TEST_CASE("canonical_accession pads what people type and refuses what it cannot place",
          "[accession]") {
  CHECK(canonical_accession("mgys1", mgnify::kStudyAccession) ==
        std::optional<std::string>("MGYS00000001"));
  CHECK(canonical_accession(" MGYP261684433 ", mgnify::kProteinAccession) ==
        std::optional<std::string>("MGYP000261684433"));
  CHECK(canonical_accession("MGYG1", mgnify::kGenomeAccession) ==
        std::optional<std::string>("MGYG000000001"));
  CHECK_FALSE(canonical_accession("1", mgnify::kStudyAccession));  // bare digits: any kind
  CHECK_FALSE(canonical_accession("MGYS0", mgnify::kStudyAccession));
  CHECK_FALSE(canonical_accession("MGYS123456789", mgnify::kStudyAccession));
  CHECK_FALSE(canonical_accession("MGYS12a", mgnify::kStudyAccession));
  CHECK_FALSE(canonical_accession("ERP100001", mgnify::kStudyAccession));
}

TEST_CASE("an INSDC study accession is checked whole: prefix, then digits only", "[accession]") {
  CHECK(mgnify::canonical_insdc_study_accession(" erp100007\n") == std::string("ERP100007"));
  CHECK(mgnify::canonical_insdc_study_accession("prjeb10007") == std::string("PRJEB10007"));
  CHECK(mgnify::checked_insdc_study_accession("SRP000001") == "SRP000001");
  for (const char* bad : {"ERP", "ERP1;touch p", "ERP1$(id)", "ERP1'", "PRJ123", "PRJXX1", "ERP1 2",
                          "ERP1234567890123", "ERR100001", "MGYS00000001", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(mgnify::canonical_insdc_study_accession(bad));
    CHECK_THROWS_WITH(mgnify::checked_insdc_study_accession(bad),
                      Catch::Contains("not an INSDC study accession"));
  }
}

TEST_CASE("study_by_insdc_accession refuses a malformed accession before any request",
          "[accession]") {
  mgnify::test::FakeRig rig;
  const mgnify::v2::V2Client client(rig.options());
  for (const char* bad : {"ERP1;touch p", "ERP1/../studies", "PRJEB", "MGYS00000001"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(client.study_by_insdc_accession(bad), InvalidArgument);
  }
  CHECK(rig.transport->requests().empty());
  // A good one is sent in the services' spelling.
  rig.transport->fallback([](const mgnify::http::Request&) {
    mgnify::http::Response r;
    r.status = 200;
    r.body = R"({"accession": "MGYS00000007", "ena_accessions": ["ERP100007"]})";
    return r;
  });
  client.study_by_insdc_accession(" erp100007");
  REQUIRE(rig.transport->requests().size() == 1);
  const std::string url = rig.transport->requests()[0].url;
  CHECK(url.find("/studies/insdc/ERP100007") != std::string::npos);
}

TEST_CASE("INSDC study accessions and PubMed ids", "[accession]") {
  for (const char* insdc : {"ERP100001", "srp000001", " DRP000001", "PRJEB1234", "prjna5"}) {
    CAPTURE(insdc);
    CHECK(mgnify::is_insdc_study_accession(insdc));
  }
  for (const char* other : {"MGYS00000001", "ERR100001", "SAMEA1", ""}) {
    CAPTURE(other);
    CHECK_FALSE(mgnify::is_insdc_study_accession(other));
  }
  CHECK(mgnify::detail::parse_positive_integer("25000000") ==
        std::optional<std::int64_t>(25000000));
  CHECK_FALSE(mgnify::detail::parse_positive_integer("0"));
  CHECK_FALSE(mgnify::detail::parse_positive_integer("-1"));
  CHECK_FALSE(mgnify::detail::parse_positive_integer("12a"));
  CHECK_FALSE(mgnify::detail::parse_positive_integer(""));
  CHECK_FALSE(mgnify::detail::parse_positive_integer("1234567890123456789"));
  CHECK(mgnify::checked_pubmed_id(25000000) == "25000000");
  CHECK_THROWS_AS(mgnify::checked_pubmed_id(0), InvalidArgument);
  CHECK_THROWS_WITH(mgnify::checked_pubmed_id(-7), Catch::Contains("-7"));
}
