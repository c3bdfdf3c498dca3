// The simdjson path and the nlohmann path decode v2 pages into the same
// structs: every fixture (pages as they are, single objects wrapped in a page
// of one) as every list model, and every list route of the mock.

#include "mgnify/v2/fast_decode.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/fast_decode_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/v2.hpp"
#include "skip.hpp"
#include "support/v2_rig.hpp"

namespace fs = std::filesystem;
using namespace mgnify::v2;

namespace {

// Every model a v2 page is decoded into by the client's counted walks.
void all_models(const std::string& body, const std::string& label, int& fast) {
  const auto count = [&fast](const mgnify::test::fast_decode::Outcome& o) {
    fast += o.fast_taken ? 1 : 0;
  };
  count(mgnify::test::fast_decode::both_ways<CountedPage<Analysis>>(body, label + " as Analysis"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<AnalysisDetail>>(
      body, label + " as AnalysisDetail"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<Study>>(body, label + " as Study"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<Sample>>(body, label + " as Sample"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<SampleWithMetadata>>(
      body, label + " as SampleWithMetadata"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<AnalysedRun>>(body,
                                                                       label + " as AnalysedRun"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<Assembly>>(body, label + " as Assembly"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<Biome>>(body, label + " as Biome"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<Publication>>(body,
                                                                       label + " as Publication"));
  count(mgnify::test::fast_decode::both_ways<CountedPage<SuperStudy>>(body,
                                                                      label + " as SuperStudy"));
}

}  // namespace

TEST_CASE("v2 fast decode: every fixture decodes the same both ways", "[v2][fast]") {
  const std::string dir = MGNIFY_FIXTURES_DIR;
  if (dir.empty()) MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: v2 fixtures not checked");
  int files = 0;
  int fast = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "v2")) {
    if (entry.path().filename() == "SOURCES.md") continue;
    const std::string name = entry.path().filename().string();
    const std::string body = mgnify::test::fast_decode::read_file(entry.path());
    ++files;
    all_models(body, name, fast);
    // Single objects (details, errors, the OpenAPI document) as the only item of a page.
    const auto doc = nlohmann::json::parse(body);
    if (doc.is_object() && !doc.contains("items")) {
      all_models(R"({"count": 1, "items": [)" + body + "]}", name + " wrapped", fast);
    }
  }
  CHECK(files == 18);
  // Pages and wrapped objects whose items carry what the model requires.
  CHECK(fast >= 20);
}

TEST_CASE("v2 fast decode: every list route of the mock decodes the same both ways",
          "[v2][fast][integration]") {
  mgnify::test::V2Rig rig;
  mgnify::http::Session session(mgnify::with_default_transport(rig.options()), "");
  const auto first = [&](const std::string& list) {
    const auto page = nlohmann::json::parse(
        session.get(session.url(list, mgnify::http::Query().set("page_size", "1"))).body);
    return page.at("items").at(0).at("accession").get<std::string>();
  };
  const std::string study = first("studies/");
  const std::string sample = first("samples/");
  const std::string run = first("runs/");
  const std::string assembly = first("assemblies/");
  int pages = 0;
  int fast = 0;
  auto check = [&](const std::string& path, auto tag) {
    using T = typename decltype(tag)::type;
    const auto response =
        session.get(session.url(path, mgnify::http::Query().set("page_size", "25")));
    INFO(path);
    REQUIRE(response.status == 200);
    const auto outcome = mgnify::test::fast_decode::both_ways<CountedPage<T>>(response.body, path);
    CHECK(outcome.slow_ok);
    ++pages;
    fast += outcome.fast_taken ? 1 : 0;
  };
  struct AnalysisDetailTag {
    using type = AnalysisDetail;
  };
  struct AnalysisTag {
    using type = Analysis;
  };
  struct StudyTag {
    using type = Study;
  };
  struct SampleTag {
    using type = Sample;
  };
  struct SampleMetaTag {
    using type = SampleWithMetadata;
  };
  struct RunTag {
    using type = AnalysedRun;
  };
  struct AssemblyTag {
    using type = Assembly;
  };
  struct AssemblyDetailTag {
    using type = AssemblyDetail;
  };
  struct BiomeTag {
    using type = Biome;
  };
  struct PublicationTag {
    using type = Publication;
  };
  struct SuperStudyTag {
    using type = SuperStudy;
  };
  struct GenomeTag {
    using type = Genome;
  };
  struct CatalogueTag {
    using type = GenomeCatalogue;
  };
  check("analyses/", AnalysisDetailTag{});
  check("analyses/", AnalysisTag{});
  check("studies/", StudyTag{});
  check("studies/" + study + "/analyses/", AnalysisTag{});
  check("studies/" + study + "/samples/", SampleMetaTag{});
  check("studies/" + study + "/publications/", PublicationTag{});
  check("samples/", SampleTag{});
  check("samples/" + sample + "/runs/", RunTag{});
  check("samples/" + sample + "/assemblies/", AssemblyDetailTag{});
  check("runs/", RunTag{});
  check("runs/" + run + "/analyses/", AnalysisTag{});
  check("runs/" + run + "/assemblies/", AssemblyDetailTag{});
  check("assemblies/", AssemblyTag{});
  check("assemblies/" + assembly + "/analyses", AnalysisTag{});
  check("biomes/", BiomeTag{});
  check("publications/", PublicationTag{});
  check("super-studies/", SuperStudyTag{});
  check("genomes/", GenomeTag{});
  check("genomes/catalogues/", CatalogueTag{});
  CHECK(pages == 19);
  CHECK(fast == pages);
}

TEST_CASE("v2 fast decode: unusual shapes give the nlohmann result or its exact error",
          "[v2][fast]") {
  const std::vector<std::pair<const char*, bool>> cases = {
      {R"({"count":0,"items":[]})", true},
      // The one-object read_run of older servers is left to the nlohmann path.
      {R"({"count":1,"items":[{"accession":"MGYA1","read_run":{"accession":"ERR1"},"metadata":null,"quality_control_summary":{"a":-1.5e3}}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","read_run":[{"accession":"ERR1"}],"metadata":null,"quality_control_summary":{"a":-1.5e3}}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_file":{"index_type":"fai","relative_url":"x"}}]}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":null,"index_file":null}]}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","experiment_type":"Not a known type","pipeline_version":"V9"}]})",
       true},
      // Enums have a fast reader of their own (fast::Value); downloads and index files
      // read the names older servers used through their field tables (renamed).
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","download_type":"Statistics","file_type":"a new type"}]}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","download_type":7}]}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","file_type":["tsv"]}]}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","url":"u","relative_url":"r"}]}]}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"gzi","url":null,"relative_url":"r"},{"index_type":null},{"x":1}]}]}]})",
       true},
      // relative_url is read only where url holds no value, on both paths, so a
      // relative_url of the wrong type beside a url is no reason to leave the fast path.
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","url":"u","relative_url":5}]}]}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","url":null,"relative_url":5}]}]}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","url":5}]}]}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":1}]}]}]})",
       false},
      {R"({"count":1,"items":[{"accession":"MGYA1","sample":{"accession":"S","updated_at":"2025-07-29T11:32:54Z"}}]})",
       true},
      // A date-time that does not parse is kept as text on both paths.
      {R"({"count":1,"items":[{"accession":"MGYA1","sample":{"accession":"S","updated_at":"yesterday"}}]})",
       true},
      {R"({"count":1,"items":[{"accession":"MGYA1","sample":{"accession":"S","updated_at":7}}]})",
       false},
      // "-0" is a signed integer to nlohmann, and an integer past 64 bits a double: the
      // fast path reads both as nlohmann does, so that the page keeps its text.
      {R"({"count":1,"items":[{"accession":"MGYA1","metadata":{"n":-0}}]})", true},
      {R"({"count":1,"items":[{"accession":"MGYA1","metadata":{"n":-123456789012345678901}}]})",
       true},
      {R"({"count":1,"items":[{"study_accession":"MGYS1"}]})", false},
      {R"({"count":"1","items":[]})", false},
      {R"({"count":1})", false},
      {R"({"count":1,"items":[1]})", false},
  };
  for (const auto& [body, fast] : cases) {
    INFO(body);
    CHECK(
        mgnify::test::fast_decode::both_ways<CountedPage<AnalysisDetail>>(body, body).fast_taken ==
        fast);
  }
}

// nlohmann keeps only the last of duplicate names. The v1 list decoder once
// merged repeated objects instead (found by fuzzing); the v2 readers set each
// member from one value, and these cases keep it that way on the fast path.
TEST_CASE("v2 fast decode: a repeated name replaces the earlier value whole", "[v2][fast]") {
  const std::vector<const char*> analyses = {
      R"({"count":1,"count":2,"items":[{"accession":"MGYA1"}],"items":[]})",
      R"({"count":1,"items":[{"accession":"MGYA1","accession":"MGYA2"}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","run":{"accession":"R"},"run":null,"sample":null,"sample":{"accession":"S"}}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","read_run":[{"accession":"ERR1"}],"read_run":null}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","metadata":{"a":1,"b":2},"metadata":{"c":3}}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","quality_control_summary":{"a":1},"quality_control_summary":null}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a"}],"downloads":[{"alias":"b","alias":null}]}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","relative_url":"x"}],"index_files":null,"index_file":{"index_type":"gzi","relative_url":"y"}}]}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_file":{"index_type":"fai","relative_url":"x"},"index_file":null}]}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","experiment_type":"AMPLI","experiment_type":null}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","download_type":"Statistics","download_type":"Sequence data","file_type":null}]}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","downloads":[{"alias":"a","index_files":[{"index_type":"fai","url":"u","relative_url":"r","url":null,"index_type":"gzi"}]}]}]})",
      R"({"count":1,"items":[{"accession":"MGYA1","metadata":{"a":1},"met\u0061data":{"b":2}}]})",
  };
  for (const char* body : analyses) {
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<AnalysisDetail>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Analysis>>(body, body).fast_taken);
  }
  // A one-object read_run (older servers) goes to the nlohmann path; the result is the same.
  for (
      const char* body :
      {R"({"count":1,"items":[{"accession":"MGYA1","read_run":{"accession":"ERR1"},"read_run":null}]})",
       R"({"count":1,"items":[{"accession":"MGYA1","read_run":[{"accession":"ERR1"}],"read_run":{"accession":"ERR2"}}]})"}) {
    INFO(body);
    CHECK_FALSE(
        mgnify::test::fast_decode::both_ways<CountedPage<AnalysisDetail>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Analysis>>(body, body).fast_taken);
  }
  const std::vector<const char*> others = {
      R"({"count":1,"items":[{"accession":"S","title":"a","title":null,"biome":{"biome_name":"x","lineage":"r"},"biome":{"biome_name":"y"}}]})",
      R"({"count":1,"items":[{"accession":"S","ena_accessions":["E1"],"ena_accessions":[],"metadata":{"a":1},"metadata":null}]})",
      R"({"count":1,"items":[{"accession":"S","biome_name":"a","biome_name":"b","lineage":"x","lineage":null,"sample_title":"t","updated_at":null}]})",
  };
  for (const char* body : others) {
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Study>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Sample>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<SampleWithMetadata>>(body, body)
              .fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Biome>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<AnalysedRun>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<CountedPage<Assembly>>(body, body).fast_taken);
  }
}
