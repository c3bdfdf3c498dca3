#include "mgnify/proteins/accession.hpp"

#include <catch2/catch.hpp>

#include "mgnify/proteins/search_query.hpp"

using mgnify::InvalidArgument;
using mgnify::proteins::Accession;
using mgnify::proteins::PfamAccession;
using mgnify::proteins::SearchQuery;

TEST_CASE("every tolerated accession form normalises to MGYP plus 12 digits",
          "[proteins][accession]") {
  for (const char* form : {"MGYP000261684433", "mgyp000261684433", "261684433", "MgYp261684433",
                           "000261684433", "  MGYP000261684433\n"}) {
    INFO(form);
    const Accession a(form);
    CHECK(a.str() == "MGYP000261684433");
    CHECK(a.number() == 261684433u);
  }
  CHECK(Accession(std::uint64_t{7}).str() == "MGYP000000000007");
  CHECK(Accession("1").str() == "MGYP000000000001");
  CHECK(Accession("MGYP999999999999").number() == 999999999999u);
}

TEST_CASE("malformed protein accessions are InvalidArgument", "[proteins][accession]") {
  for (const char* bad :
       {"", "   ", "MGYP", "MGYP0000002616844330", "MGYPX00261684433", "MGYC000564781877",
        "PF00005", "-5", "12a", "MGYP000000000000", "0", "MGYP 261684433", "261684433/../x"}) {
    INFO("input: '" << bad << "'");
    CHECK_THROWS_AS(Accession(bad), InvalidArgument);
    CHECK_FALSE(Accession::is_valid(bad));
  }
  CHECK_THROWS_AS(Accession(std::uint64_t{0}), InvalidArgument);
  CHECK_THROWS_AS(Accession(std::uint64_t{1'000'000'000'000ULL}), InvalidArgument);
  CHECK_THROWS_WITH(Accession("MGYPabc"), Catch::Contains("MGYPabc"));
}

TEST_CASE("accessions compare by number whatever form they were written in",
          "[proteins][accession]") {
  CHECK(Accession("mgyp000000000012") == Accession("12"));
  CHECK(Accession("11") < Accession("MGYP000000000012"));
  CHECK(Accession("13") != Accession("12"));
}

TEST_CASE("Pfam accessions accept PF00005, pf00005 and 5", "[proteins][accession]") {
  for (const char* form : {"PF00005", "pf00005", "5", "00005", " PF00005\n"}) {
    INFO(form);
    CHECK(PfamAccession(form).str() == "PF00005");
    CHECK(PfamAccession(form).number() == 5);
  }
  CHECK(PfamAccession(4659).str() == "PF04659");
  // With its prefix an accession has all five digits: PF0005 lost one, and
  // which one is a guess (PF00005? PF00050?), so it is refused, not padded.
  for (const char* bad : {"", "PF", "PF000050", "PFXXXXX", "CL0023", "PF0000A", "0", "PF00000",
                          "PF0005", "Pf5", "pf5", "PF05", "000005"}) {
    INFO("input: '" << bad << "'");
    CHECK_THROWS_AS(PfamAccession(bad), InvalidArgument);
    CHECK_FALSE(PfamAccession::is_valid(bad));
  }
  CHECK_THROWS_AS(PfamAccession(0), InvalidArgument);
  CHECK_THROWS_AS(PfamAccession(100000), InvalidArgument);
}

TEST_CASE("a search query holds exactly one filter and sends it", "[proteins][query]") {
  const auto by_biome = SearchQuery::by_biome_id(132);
  CHECK(by_biome.filter() == SearchQuery::Filter::biome_id);
  CHECK(by_biome.to_query().encoded() == "biome_id=132");

  CHECK(SearchQuery::by_pfam("pf00005").to_query().encoded() == "pfam_accession=PF00005");
  CHECK(SearchQuery::by_pfam(5).to_query().encoded() == "pfam_accession=PF00005");
  CHECK(SearchQuery::by_pfam(std::string("PF00005")).value() == "PF00005");
  CHECK(SearchQuery::by_pfam(PfamAccession("PF04659")).value() == "PF04659");

  const auto by_lineage =
      SearchQuery::by_lineage("root:Engineered:Wastewater:Industrial wastewater");
  CHECK(by_lineage.filter() == SearchQuery::Filter::biome_lineage);
  // Colons stay readable; the space is percent-encoded, never '+'.
  CHECK(by_lineage.to_query().encoded() ==
        "biome_lineage=root:Engineered:Wastewater:Industrial%20wastewater");
  CHECK_FALSE(by_lineage.limit().has_value());
}

TEST_CASE("search limit must be within 1..1000 before any request", "[proteins][query]") {
  CHECK(SearchQuery::by_biome_id(1).limit(1).limit() == 1);
  CHECK(SearchQuery::by_biome_id(1).limit(1000).to_query().encoded() == "biome_id=1&limit=1000");
  for (int bad : {0, -1, 1001, 1'000'000}) {
    INFO(bad);
    CHECK_THROWS_AS(SearchQuery::by_biome_id(1).limit(bad), InvalidArgument);
  }
  auto q = SearchQuery::by_pfam("PF00005");
  q.limit(10);
  CHECK(q.describe() == "pfam_accession=PF00005 limit=10");
}

TEST_CASE("bad filter values are InvalidArgument", "[proteins][query]") {
  CHECK_THROWS_AS(SearchQuery::by_biome_id(0), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_biome_id(-3), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_lineage(""), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_lineage("  "), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_lineage("root:Engineered\nWastewater"), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_pfam("PFabc"), InvalidArgument);
  CHECK_THROWS_AS(SearchQuery::by_pfam(0), InvalidArgument);
}
