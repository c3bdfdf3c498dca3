// The simdjson path and the nlohmann path decode v1 list pages into the same
// structs: every fixture, every list page type the mock serves (the root's
// categories and the related lists of their first items), as bare Resources,
// as the matching typed model and as mismatched models.

#include "mgnify/v1/fast_decode.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/fast_decode_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/v1.hpp"
#include "skip.hpp"
#include "support/v1_rig.hpp"

namespace fs = std::filesystem;
using namespace mgnify::v1;

namespace {

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<Model>) for the typed model of a resource type; false when none.
template <class F>
bool with_model(const std::string& type, F&& f) {
  if (type == "studies") return f(Tag<Study>{}), true;
  if (type == "samples") return f(Tag<Sample>{}), true;
  if (type == "runs") return f(Tag<Run>{}), true;
  if (type == "assemblies") return f(Tag<Assembly>{}), true;
  if (type == "analysis-jobs") return f(Tag<Analysis>{}), true;
  if (type == "analysis-job-contigs") return f(Tag<AnalysisContig>{}), true;
  if (type == "biomes") return f(Tag<Biome>{}), true;
  if (type == "publications") return f(Tag<Publication>{}), true;
  if (type == "super-studies") return f(Tag<SuperStudy>{}), true;
  if (type == "experiment-types") return f(Tag<ExperimentType>{}), true;
  if (type == "pipelines") return f(Tag<Pipeline>{}), true;
  if (type == "genomes") return f(Tag<Genome>{}), true;
  if (type == "genome-catalogues") return f(Tag<GenomeCatalogue>{}), true;
  if (type == "organisms") return f(Tag<Organism>{}), true;
  if (type.find("downloads") != std::string::npos ||
      type.find("extra-annotations") != std::string::npos)
    return f(Tag<Download>{}), true;
  if (type == "pipeline-tools") return f(Tag<PipelineTool>{}), true;
  if (type == "genome-sets") return f(Tag<GenomeSet>{}), true;
  if (type == "sample-anns") return f(Tag<SampleAnnotation>{}), true;
  if (type == "cog-cats" || type == "genome-cog-counts") return f(Tag<CogCategory>{}), true;
  if (type == "kegg-classes" || type == "genome-kegg-class-counts")
    return f(Tag<KeggClass>{}), true;
  if (type == "kegg-modules" || type == "genome-kegg-module-counts")
    return f(Tag<GenomeKeggModule>{}), true;
  if (type == "antismash-geneclusters" || type == "genome-antismash-gene-cluster-counts")
    return f(Tag<GenomeAntismashCluster>{}), true;
  return f(Tag<InterproIdentifier>{}), true;
}

struct Tally {
  int documents = 0;
  int fast = 0;
  int pages = 0;  // documents nlohmann accepts as a list page
  std::set<std::string> types;
};

// Decodes one list body as ListPage<Resource>, as its typed model, and as
// Study and Sample pages (mismatched on purpose: v1 attributes are lenient).
void check_page(const std::string& body, const std::string& label, Tally& tally) {
  const auto generic = mgnify::test::fast_decode::both_ways<ListPage<Resource>>(body, label);
  ++tally.documents;
  tally.fast += generic.fast_taken ? 1 : 0;
  tally.pages += generic.slow_ok ? 1 : 0;
  mgnify::test::fast_decode::both_ways<ListPage<Study>>(body, label + " as studies");
  mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, label + " as samples");
  if (!generic.slow_ok) return;
  const auto page = mgnify::detail::decode_body<ListPage<Resource>>(body, label);
  if (page.data.empty()) return;
  tally.types.insert(page.data.front().type);
  with_model(page.data.front().type, [&](auto tag) {
    using M = typename decltype(tag)::type;
    const auto typed = mgnify::test::fast_decode::both_ways<ListPage<M>>(body, label + " typed");
    CHECK(typed.fast_taken == generic.fast_taken);
  });
}

}  // namespace

TEST_CASE("v1 fast decode: every fixture decodes the same both ways", "[v1][fast]") {
  const std::string dir = MGNIFY_FIXTURES_DIR;
  if (dir.empty()) MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: v1 fixtures not checked");
  Tally tally;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "v1")) {
    if (entry.path().filename() == "SOURCES.md") continue;
    std::string body = mgnify::test::fast_decode::read_file(entry.path());
    const auto doc = nlohmann::json::parse(body);
    // A bare array of resources (a captured `data`) is checked as the page it came from.
    if (doc.is_array())
      body = R"({"links":{"next":null},"data":)" + body + R"(,"meta":{"pagination":{"count":)" +
             std::to_string(doc.size()) + "}}}";
    check_page(body, entry.path().filename().string(), tally);
  }
  CHECK(tally.documents == 10);
  // Every complete list page (and the bare array) takes the fast path; detail
  // documents, errors and the elided contigs page (an item is "...") do not.
  CHECK(tally.fast == 4);
  CHECK(tally.types.count("studies") == 1);
  CHECK(tally.types.count("samples") == 1);
}

TEST_CASE("v1 fast decode: every list page type of the mock decodes the same both ways",
          "[v1][fast][integration]") {
  mgnify::test::V1Rig rig;
  mgnify::http::Session session(mgnify::with_default_transport(rig.options()), "");
  const auto root = LegacyClient(rig.options()).root();
  REQUIRE(root.size() >= 10);
  Tally tally;
  std::set<std::string> visited;
  auto visit = [&](const std::string& url) {
    if (!visited.insert(url).second) return std::optional<ListPage<Resource>>();
    INFO(url);
    mgnify::http::Response response;
    try {
      response = session.get(url);
    } catch (const mgnify::ApiError&) {
      // Categories the root names but the mock does not serve (404), or
      // that need a login (mydata: 401).
      return std::optional<ListPage<Resource>>();
    }
    check_page(response.body, url, tally);
    try {
      return std::optional<ListPage<Resource>>(
          mgnify::detail::decode_body<ListPage<Resource>>(response.body, url));
    } catch (const mgnify::DecodeError&) {
      return std::optional<ListPage<Resource>>();
    }
  };
  for (const auto& [name, url] : root) {
    (void)name;
    const auto page = visit(url + "?page_size=10");
    if (!page || page->data.empty()) continue;
    // The related lists of the first item: sub-lists of every kind.
    for (const auto& [rel_name, rel] : page->data.front().relationships) {
      (void)rel_name;
      if (rel.related && visited.size() < 200) visit(*rel.related);
    }
  }
  INFO("types seen: " << tally.types.size());
  CHECK(tally.documents >= 20);
  // Related links of to-one relationships lead to detail documents, which are no list pages.
  CHECK(tally.pages >= 50);
  CHECK(tally.fast == tally.pages);
  CHECK(tally.types.count("studies") == 1);
  CHECK(tally.types.count("samples") == 1);
  CHECK(tally.types.count("analysis-jobs") == 1);
}

TEST_CASE("v1 fast decode: unusual shapes give the nlohmann result or its exact error",
          "[v1][fast]") {
  const std::vector<std::pair<const char*, bool>> cases = {
      {R"({"data":[]})", true},
      {R"({"data":[],"links":"x","meta":{"pagination":null}})", true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":null,"relationships":null}]})", true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"accession":null,"latitude":2,"sample-metadata":[{"key":"k","value":{"a":[1,2.5]}},{"key":"n","value":null}]}}]})",
       true},
      {R"({"data":[{"type":"samples","id":"S1","relationships":{"biome":{"data":null},"runs":{"data":[]},"x":{"links":null,"meta":{"count":3}}}}]})",
       true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"latitude":true}}]})", false},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"host-tax-id":"9606"}}]})", true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"host-tax-id":"human"}}]})", true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"host-tax-id":[]}}]})", false},
      {R"({"data":[{"type":"samples","id":"S1","attributes":[]}]})", false},
      {R"({"data":[{"type":"samples","attributes":{}}]})", false},
      {R"({"data":[{"type":"samples","id":"S1","relationships":{"biome":{"data":"root"}}}]})",
       false},
      {R"({"data":{"type":"samples","id":"S1"}})", false},
      {R"({"links":{}})", false},
      {R"({"data":[]}x)", false},
      // Numbers simdjson reads differently from nlohmann, or not at all: "-0" (a signed
      // integer to nlohmann) and integers past 64 bits (doubles) stay on the fast path,
      // so that the page keeps its text; past a double's range nlohmann refuses them.
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"n":-0,"latitude":-0,"sample-metadata":[{"key":"k","value":-0}]}}]})",
       true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"n":123456789012345678901234567890,"m":-98765432109876543210,"sample-metadata":[{"key":"k","value":18446744073709551616}]}}]})",
       true},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"n":1e400}}]})", false},
      {R"({"data":[{"type":"samples","id":"S1","attributes":{"n":-}}]})", false},
  };
  for (const auto& [body, fast] : cases) {
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, body).fast_taken == fast);
  }
}

// A fuzz finding: simdjson's token of a number followed by a NUL byte holds the NUL, and
// nlohmann, reading that token alone, stops at it; the document is still not JSON.
TEST_CASE("v1 fast decode: a number cut by a NUL byte is refused both ways", "[v1][fast]") {
  for (const std::string number : {"49", "123456789012345678901234567890", "-0"}) {
    const std::string body = R"({"data":[{"type":"samples","id":"S1","attributes":{"n":)" + number +
                             std::string(3, '\0') + "}}]}";
    INFO(number);
    const auto outcome = mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, number);
    CHECK_FALSE(outcome.fast_taken);
    CHECK_FALSE(outcome.slow_ok);
  }
}

TEST_CASE("v1 fast decode: attributes stay text until read", "[v1][fast]") {
  const auto page = mgnify::detail::decode_body<ListPage<Study>>(
      R"({"data":[{"type":"studies","id":"MGYS1","attributes":{"accession":"MGYS1","brand-new":[1,2]}}]})",
      "u");
  REQUIRE(page.data.size() == 1);
  CHECK(page.data[0].accession == "MGYS1");
  CHECK(page.data[0].resource.attributes.is_lazy());
  CHECK(page.data[0].resource.attributes.at("brand-new") == nlohmann::json::array({1, 2}));
  CHECK(nlohmann::json(page.data[0])["attributes"]["brand-new"] == nlohmann::json::array({1, 2}));
}

// nlohmann keeps only the last of duplicate names; the fast path once merged
// them instead (a repeated "relationships" kept the earlier entries), which
// the fuzzer found. Every case must take the fast path and still agree.
TEST_CASE("v1 fast decode: a repeated name replaces the earlier value whole", "[v1][fast]") {
  const char* const item = R"("type":"samples","id":"S1")";
  const std::vector<std::string> items = {
      // relationships: the second object replaces the first, null clears it.
      R"("relationships":{"runs":{"data":[]},"biome":{"data":null}},"relationships":{"studies":{"data":[]}})",
      R"("relationships":{"runs":{"data":[]}},"relationships":null)",
      // attributes: members the second object does not name go back to their defaults.
      R"("attributes":{"accession":"A","latitude":1.5,"sample-metadata":[{"key":"k"}]},"attributes":{"sample-name":"n"})",
      R"("attributes":{"accession":"A","species":"s"},"attributes":null)",
      R"("attributes":{"accession":"A","accession":null,"species":"s","species":null})",
      // links.self of the resource and of a related identifier.
      R"("links":{"self":"a"},"links":{})",
      R"("links":{"self":"a"},"links":"x")",
      R"("links":{"self":"a","self":null})",
      R"("relationships":{"studies":{"data":[{"type":"studies","id":"T","links":{"self":"a"},"links":{}}]}})",
      // A relationship's own links, meta and data.
      R"("relationships":{"r":{"links":{"related":"a"},"links":{"self":"b"}}})",
      R"("relationships":{"r":{"links":{"related":"a"},"links":null}})",
      R"("relationships":{"r":{"meta":{"count":3},"meta":{}}})",
      R"("relationships":{"r":{"meta":{"count":3},"meta":[1]}})",
      R"("relationships":{"r":{"data":[{"type":"t","id":"1"}],"data":null}})",
      R"("relationships":{"r":{"data":{"type":"t","id":"1"},"data":[]}})",
      // A repeated relationship name inside one relationships object.
      R"("relationships":{"r":{"links":{"related":"a"},"meta":{"count":1}},"r":{"data":[]}})",
      // A name written with an escape is the same name once unescaped.
      R"("relationships":{"runs":{"data":[]}},"relationship\u0073":{"studies":{"data":[]}})",
      R"("attributes":{"accession":"A"},"\u0061ttributes":{"species":"s"})",
      // Repeated keys inside a metadata entry.
      R"("attributes":{"sample-metadata":[{"key":"k","value":"1","unit":"m","value":2,"unit":null}]})",
  };
  for (const auto& fields : items) {
    const std::string body = std::string(R"({"data":[{)") + item + "," + fields + "}]}";
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, body).fast_taken);
    CHECK(mgnify::test::fast_decode::both_ways<ListPage<Resource>>(body, body).fast_taken);
  }

  // The envelope: links, meta, meta.pagination, included and data.
  const std::vector<const char*> pages = {
      R"({"data":[],"links":{"first":"a","next":"b"},"links":{"prev":"c"}})",
      R"({"data":[],"links":{"first":"a"},"links":7})",
      R"({"data":[],"meta":{"pagination":{"page":1,"pages":2}},"meta":{"pagination":{"count":3}}})",
      R"({"data":[],"meta":{"pagination":{"page":1}},"meta":null})",
      R"({"data":[],"meta":{"pagination":{"page":1,"count":5},"pagination":{"pages":2}}})",
      R"({"data":[],"meta":{"pagination":{"page":1},"pagination":"x"}})",
      R"({"data":[],"included":[{"type":"t","id":"1"}],"included":{}})",
      R"({"data":[],"included":[{"type":"t","id":"1"}],"included":[]})",
      R"({"data":[{"type":"samples","id":"S1"}],"data":[]})",
  };
  for (const char* body : pages) {
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, body).fast_taken);
  }
}

// The inputs of the CI fuzz run that found the divergence (both have repeated
// "relationships" objects after the fuzzer spliced two items together). Every
// file of the folder is checked, so new findings kept there are covered too.
TEST_CASE("v1 fast decode: the fuzzers' divergence inputs decode the same both ways",
          "[v1][fast]") {
  const fs::path dir = MGNIFY_FUZZ_DIVERGENCES_DIR;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string body = mgnify::test::fast_decode::read_file(entry.path());
    const std::string label = entry.path().filename().string();
    ++files;
    mgnify::test::fast_decode::both_ways<ListPage<Resource>>(body, label + " as resources");
    mgnify::test::fast_decode::both_ways<ListPage<Study>>(body, label + " as studies");
    mgnify::test::fast_decode::both_ways<ListPage<Sample>>(body, label + " as samples");
  }
  CHECK(files >= 2);
  // The two inputs of the report, as the pages their fuzz targets decode them to.
  const auto samples = mgnify::test::fast_decode::both_ways<ListPage<Sample>>(
      mgnify::test::fast_decode::read_file(dir / "v1_samples_page.json"), "v1_samples_page.json");
  CHECK(samples.fast_taken);
  CHECK(samples.slow_ok);
  const auto studies = mgnify::test::fast_decode::both_ways<ListPage<Study>>(
      mgnify::test::fast_decode::read_file(dir / "v1_studies_page.json"), "v1_studies_page.json");
  CHECK(studies.fast_taken);
  CHECK(studies.slow_ok);
}
