#include "mgnify/accession.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/error.hpp"
#include "mgnify/testing/fake_transport.hpp"
#include "mgnify/v2/client.hpp"

using mgnify::canonical_accession;
using mgnify::checked_accession;
using mgnify::InvalidArgument;

using mgnify::AccessionKind;

namespace {

struct KindCase {
  AccessionKind kind;
  std::vector<std::pair<const char*, const char*>> accepted;  // typed, canonical
  std::vector<const char*> refused;
};

// One table per kind: what is accepted and how it is sent, and what is refused.
const std::vector<KindCase>& kind_cases() {
  static const std::vector<KindCase> cases = {
      {AccessionKind::study,
       {{"MGYS00000001", "MGYS00000001"},
        {" mgys00000001\n", "MGYS00000001"},
        {"MGYS1", "MGYS00000001"},
        {"mGyS12345678", "MGYS12345678"},
        {"ERP100001", "ERP100001"},
        {" erp100001 ", "ERP100001"},
        {"srp000001", "SRP000001"},
        {"DRP1", "DRP1"},
        {"prjeb10007", "PRJEB10007"},
        {"PRJNA5", "PRJNA5"},
        {"prjdb77", "PRJDB77"}},
       {"",
        " ",
        "1",
        "00000001",
        "MGYS",
        "MGYS0",
        "MGYS00000000",
        "MGYS123456789",
        "MGYS000000001",
        "MGYS 1",
        "MGYS1x",
        "MGYS-1",
        "MGYA00000001",
        "MGYS1/../x",
        "ERP",
        "ERP1 2",
        "PRJ1",
        "PRJXX1",
        "ERP1234567890123",
        "ERS1"}},
      {AccessionKind::sample,
       {{"ERS1000003", "ERS1000003"},
        {" samea1000003\t", "SAMEA1000003"},
        {"SRS000001", "SRS000001"},
        {"drs1", "DRS1"},
        {"SAMN12", "SAMN12"},
        {"samd9", "SAMD9"}},
       {"", "1000003", "ERS", "ERS1a", "SAME1", "SAMEA 1", "ERR1", "MGYS00000001", "..",
        "ERS1234567890123"}},
      {AccessionKind::run,
       {{"ERR3000003", "ERR3000003"}, {" srr1 ", "SRR1"}, {"drr000042", "DRR000042"}},
       {"", "3000003", "ERR", "ERR1/../studies", "ERS1", "ERR3000000.1"}},
      {AccessionKind::assembly,
       {{"ERZ4000003", "ERZ4000003"}, {"erz1", "ERZ1"}},
       {"", "4000003", "ERZ", "ERR1", "GCA_900217105.1", "ERZ1x"}},
      {AccessionKind::analysis,
       {{"MGYA00000004", "MGYA00000004"},
        {" mgya4 ", "MGYA00000004"},
        {"MGYA383254", "MGYA00383254"},
        // The number alone: deprecated, still accepted this release.
        {"383254", "MGYA00383254"},
        {" 00000004 ", "MGYA00000004"}},
       {"", "MGYA", "MGYA0", "0", "MGYA123456789", "123456789", "MGYA1x", "MGYS00000004", "ERZ1",
        "MGYA 4"}},
      {AccessionKind::genome,
       {{"MGYG000000001", "MGYG000000001"},
        {"mgyg1", "MGYG000000001"},
        {"MGYG00000001", "MGYG000000001"}},
       {"", "1", "000000001", "MGYG", "MGYG0", "MGYG0000000001", "MGYGx", "MGYS000000001"}},
      {AccessionKind::protein,
       {{"MGYP000261684433", "MGYP000261684433"},
        {"mgyp261684433", "MGYP000261684433"},
        {"  MGYP000261684433\n", "MGYP000261684433"},
        // The number alone: deprecated, still accepted this release.
        {"261684433", "MGYP000261684433"},
        {"000261684433", "MGYP000261684433"}},
       {"", "MGYP", "MGYP0", "0", "MGYP0000002616844330", "MGYPX00261684433", "MGYC000564781877",
        "PF00005", "-5", "12a", "MGYP 261684433", "261684433/../x"}},
  };
  return cases;
}

}  // namespace

TEST_CASE("each kind has one rule: what it accepts, how it is sent, what it refuses",
          "[accession]") {
  for (const KindCase& c : kind_cases()) {
    for (const auto& [typed, canonical] : c.accepted) {
      CAPTURE(static_cast<int>(c.kind), typed);
      CHECK(canonical_accession(typed, c.kind) == std::optional<std::string>(canonical));
      CHECK(checked_accession(typed, c.kind) == canonical);
      // The canonical spelling is a fixed point of the rule.
      CHECK(checked_accession(canonical, c.kind) == canonical);
    }
    for (const char* bad : c.refused) {
      CAPTURE(static_cast<int>(c.kind), bad);
      CHECK_FALSE(canonical_accession(bad, c.kind));
      CHECK_THROWS_AS(checked_accession(bad, c.kind), InvalidArgument);
    }
  }
}

TEST_CASE("a refusal names the kind, its forms and the text", "[accession]") {
  CHECK_THROWS_WITH(checked_accession("MGYS1x", AccessionKind::study),
                    "not a study accession (MGYS + up to 8 digits, e.g. MGYS00000001; or ERP, "
                    "SRP, DRP, PRJEB, PRJNA, PRJDB + up to 12 digits): 'MGYS1x'");
  CHECK_THROWS_WITH(checked_accession("x", AccessionKind::analysis),
                    "not an analysis accession (MGYA + up to 8 digits, e.g. MGYA00000001): 'x'");
  CHECK_THROWS_WITH(checked_accession("x", AccessionKind::run),
                    "not a run accession (ERR, SRR, DRR + up to 12 digits): 'x'");
  CHECK_THROWS_WITH(checked_accession("MGYG0", mgnify::kGenomeAccession),
                    "not an MGYG accession (MGYG + up to 9 digits, e.g. MGYG000000001): 'MGYG0'");
}

TEST_CASE("the MGnify formats apply the same rule as their kinds, without INSDC forms",
          "[accession]") {
  const std::pair<mgnify::AccessionFormat, AccessionKind> pairs[] = {
      {mgnify::kStudyAccession, AccessionKind::study},
      {mgnify::kAnalysisAccession, AccessionKind::analysis},
      {mgnify::kGenomeAccession, AccessionKind::genome},
      {mgnify::kProteinAccession, AccessionKind::protein}};
  for (const auto& [format, kind] : pairs) {
    for (const KindCase& c : kind_cases()) {
      if (c.kind != kind) continue;
      for (const auto& [typed, canonical] : c.accepted) {
        CAPTURE(format.prefix, typed);
        if (mgnify::is_insdc_study_accession(typed)) {
          CHECK_FALSE(canonical_accession(typed, format));
        } else {
          CHECK(checked_accession(typed, format) == canonical);
        }
      }
      for (const char* bad : c.refused) {
        CAPTURE(format.prefix, bad);
        CHECK_FALSE(canonical_accession(bad, format));
      }
    }
  }
}

TEST_CASE("the number alone is deprecated for MGYA and MGYP, refused for MGYS and MGYG",
          "[accession]") {
  CHECK(mgnify::is_deprecated_accession_spelling("383254", mgnify::kAnalysisAccession));
  CHECK(mgnify::is_deprecated_accession_spelling(" 261684433 ", mgnify::kProteinAccession));
  CHECK_FALSE(mgnify::is_deprecated_accession_spelling("MGYA383254", mgnify::kAnalysisAccession));
  CHECK_FALSE(mgnify::is_deprecated_accession_spelling("1234567890123", mgnify::kProteinAccession));
  CHECK_FALSE(mgnify::is_deprecated_accession_spelling("0", mgnify::kAnalysisAccession));
  CHECK_FALSE(mgnify::is_deprecated_accession_spelling("1", mgnify::kStudyAccession));
  CHECK_FALSE(mgnify::is_deprecated_accession_spelling("1", mgnify::kGenomeAccession));
  CHECK_FALSE(canonical_accession("1", mgnify::kStudyAccession));
  CHECK_FALSE(canonical_accession("1", mgnify::kGenomeAccession));
}

TEST_CASE("a prefix names the kind; a bare number names none", "[accession]") {
  const std::pair<const char*, AccessionKind> named[] = {
      {"mgys1", AccessionKind::study},   {"PRJEB1", AccessionKind::study},
      {" erp1", AccessionKind::study},   {"SAMEA1", AccessionKind::sample},
      {"srs1", AccessionKind::sample},   {"ERR1", AccessionKind::run},
      {"ERZ1", AccessionKind::assembly}, {"MGYA1", AccessionKind::analysis},
      {"MGYG1x", AccessionKind::genome}, {"mgyp1", AccessionKind::protein}};
  for (const auto& [text, kind] : named) {
    CAPTURE(text);
    CHECK(mgnify::accession_kind(text) == std::optional<AccessionKind>(kind));
  }
  for (const char* none : {"1", "383254", "", "root:Engineered", "PF00005", "GCA_1"}) {
    CAPTURE(none);
    CHECK_FALSE(mgnify::accession_kind(none));
    CHECK_FALSE(canonical_accession(none));
  }
  CHECK(canonical_accession(" mgya4 ") == std::optional<std::string>("MGYA00000004"));
  CHECK(canonical_accession("samea1") == std::optional<std::string>("SAMEA1"));
  CHECK_FALSE(canonical_accession("MGYS123456789"));
}

TEST_CASE("a typed accession exists only in its canonical spelling", "[accession]") {
  const mgnify::StudyAccession study(" mgys1 ");
  CHECK(study.str() == "MGYS00000001");
  const std::string& as_text = study;
  CHECK(as_text == "MGYS00000001");
  CHECK(mgnify::StudyAccession("MGYS00000001") == study);
  CHECK(mgnify::StudyAccession("ERP1") != study);
  CHECK(mgnify::AnalysisAccession("383254").str() == "MGYA00383254");
  CHECK(mgnify::SampleAccession("samea1").str() == "SAMEA1");
  CHECK_THROWS_AS(mgnify::GenomeAccession("MGYS1"), InvalidArgument);
  CHECK_FALSE(mgnify::RunAccession::parse("ERS1"));
  CHECK(mgnify::AssemblyAccession::parse("erz7").value().str() == "ERZ7");
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
