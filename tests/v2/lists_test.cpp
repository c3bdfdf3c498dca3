#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "support/v2_rig.hpp"

using namespace mgnify::v2;
using mgnify::mock::v2data::kPublicAnalyses;

namespace {

template <class T, class Key>
void check_walk(mgnify::Paged<T> paged, Key key, std::size_t expected, const std::string& prefix) {
  std::set<std::string> ids;
  std::size_t seen = 0;
  for (const auto& item : paged) {
    const std::string id = key(item);
    CHECK(id.rfind(prefix, 0) == 0);
    ids.insert(id);
    ++seen;
    REQUIRE(seen <= expected + 1);
  }
  CHECK(seen == expected);
  CHECK(ids.size() == expected);  // each id exactly once
  REQUIRE(paged.total());
  CHECK(*paged.total() == static_cast<std::int64_t>(expected));
}

}  // namespace

TEST_CASE("every top-level v2 list walks all pages, each id exactly once",
          "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions by50;
  by50.page_size = 50;

  check_walk(
      client.studies({}, by50), [](const Study& s) { return s.accession; }, 120, "MGYS");
  CHECK(rig.hits("studies/") == 3);
  check_walk(
      client.samples(), [](const Sample& s) { return s.accession; }, 2000, "SAMEA");
  check_walk(
      client.runs(), [](const AnalysedRun& r) { return r.accession.value_or(""); }, 2000, "ERR");
  check_walk(
      client.assemblies(), [](const Assembly& a) { return a.accession.value_or(""); }, 800, "ERZ");
  check_walk(
      client.biomes(), [](const Biome& b) { return b.lineage.value_or(""); },
      client.biomes().collect().size(), "root");
  check_walk(
      client.publications(), [](const Publication& p) { return std::to_string(p.pubmed_id); }, 40,
      "300000");
  mgnify::ListOptions by3;
  by3.page_size = 3;
  check_walk(
      client.super_studies(by3), [](const SuperStudy& s) { return s.slug; }, 7, "");
  check_walk(
      client.genomes({}, by50), [](const Genome& g) { return g.accession; }, 250, "MGYG");
  check_walk(
      client.genome_catalogues(), [](const GenomeCatalogue& c) { return c.catalogue_id; }, 3, "");
}

// The full 10,000-analysis walk is the benchmark's job; in an unoptimised test
// build it would take many seconds, so the test walks 1,500 of them and the last page.
TEST_CASE("the analyses list holds 10,000 detail objects with downloads",
          "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions first;
  first.max_items = 1500;
  auto paged = client.analyses(first);
  std::set<std::string> ids;
  std::set<std::string> groups;
  std::size_t null_urls = 0;
  for (const auto& a : paged) {
    ids.insert(a.accession);
    CHECK_FALSE(a.downloads.empty());
    for (const auto& d : a.downloads) {
      null_urls += d.has_url() ? 0 : 1;
      groups.insert(d.download_group.value_or(""));
    }
  }
  CHECK(ids.size() == 1500);
  CHECK(*paged.total() == kPublicAnalyses);
  CHECK(paged.pages_fetched() == 15);
  CHECK(null_urls > 0);
  CHECK(groups.count("quality_control") == 1);
  CHECK(groups.count("taxonomies.closed_reference.ssu") == 1);
  CHECK(groups.count("functional_annotation.pfams") == 1);

  mgnify::ListOptions last;
  last.start_page = kPublicAnalyses / 100;
  auto tail = client.analyses(last);
  const auto items = tail.collect();
  REQUIRE(items.size() == 100);
  CHECK(items.back().accession == "MGYA00010000");
  CHECK(tail.pages_fetched() == 1);  // 100 * 100 == count: no request past the end
  CHECK(rig.hits("analyses/") == 16);
}

TEST_CASE("nested v2 lists walk every child of their parent", "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions small;
  small.page_size = 7;

  // Study 1 (index 0) has samples 0, 120, 240, ... and analyses over their runs.
  check_walk(
      client.study_samples("MGYS00000001", small),
      [](const SampleWithMetadata& s) { return s.accession; }, 17, "SAMEA");
  auto samples = client.study_samples("MGYS00000001", small).collect();
  REQUIRE(!samples.empty());
  CHECK(samples.front().metadata.contains("temperature"));
  check_walk(
      client.study_analyses("MGYS00000001", small), [](const Analysis& a) { return a.accession; },
      85, "MGYA");
  check_walk(
      client.study_publications("MGYS00000001"),
      [](const Publication& p) { return std::to_string(p.pubmed_id); }, 1, "30000001");
  check_walk(
      client.sample_runs("SAMEA1000003"),
      [](const AnalysedRun& r) { return r.accession.value_or(""); }, 1, "ERR3000003");
  check_walk(
      client.sample_assemblies("SAMEA1000003"),
      [](const AssemblyDetail& a) { return a.accession.value_or(""); }, 1, "ERZ");
  check_walk(
      client.run_analyses("ERR3000003", small), [](const Analysis& a) { return a.accession; }, 5,
      "MGYA");
  check_walk(
      client.run_assemblies("ERR3000004"),
      [](const AssemblyDetail& a) { return a.accession.value_or(""); }, 1, "ERZ");
  check_walk(
      client.assembly_analyses("ERZ4000000"), [](const Analysis& a) { return a.accession; }, 5,
      "MGYA");
  check_walk(
      client.assembly_genome_links("ERZ4000000"),
      [](const GenomeAssemblyLinkSchema& l) { return l.genome.accession; }, 3, "MGYG");
  check_walk(
      client.assembly_additional_contained_genomes("ERZ4000000"),
      [](const AdditionalContainedGenomeSchema& c) { return c.genome.accession; }, 2, "MGYG");
  check_walk(
      client.analysis_annotations_of_type("MGYA00000001", AnnotationType::pfams, small),
      [](const AnalysisTypedAnnotation& t) {
        return t.description.value_or("") + "#" + std::to_string(*t.count);
      },
      static_cast<std::size_t>(mgnify::mock::v2data::kTypedAnnotationRows), "PF");
  check_walk(
      client.catalogue_genomes("marine-v1-0", {}, small),
      [](const Genome& g) { return g.accession; }, 83, "MGYG");
}

TEST_CASE("v2 pages follow count: page numbers, page_size, no extra request at an exact end",
          "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions by40;
  by40.page_size = 40;
  auto paged = client.studies({}, by40);  // 120 studies: exactly 3 pages
  CHECK(paged.collect().size() == 120);
  CHECK(paged.pages_fetched() == 3);
  std::vector<std::string> targets;
  for (const auto& r : rig.server.requests()) targets.push_back(r.target);
  REQUIRE(targets.size() == 3);
  CHECK(targets[0].find("page=1&page_size=40") != std::string::npos);
  CHECK(targets[2].find("page=3&page_size=40") != std::string::npos);
}

TEST_CASE("a v2 walk resumes from a page and honours max_items", "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions opts;
  opts.page_size = 25;
  opts.start_page = 3;
  auto rest = client.studies({}, opts).collect();
  REQUIRE(rest.size() == 70);
  CHECK(rest.front().accession == "MGYS00000051");

  mgnify::ListOptions limited;
  limited.page_size = 10;
  limited.max_items = 15;
  auto some = client.samples({}, limited);
  CHECK(some.collect().size() == 15);
  CHECK(some.pages_fetched() == 2);
}

TEST_CASE("a v2 page past the end is empty and stops the walk", "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions opts;
  opts.page_size = 100;
  opts.start_page = 50;
  auto paged = client.studies({}, opts);
  CHECK(paged.collect().empty());
  CHECK(paged.pages_fetched() == 1);
  CHECK(*paged.total() == 120);
}

TEST_CASE("page_size outside 1..100 is refused before any request", "[v2][lists]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::ListOptions zero;
  zero.page_size = 0;
  mgnify::ListOptions big;
  big.page_size = 101;
  mgnify::ListOptions bad_start;
  bad_start.start_page = 0;
  CHECK_THROWS_AS(client.studies({}, zero), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.analyses(big), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.samples({}, bad_start), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("the mock clamps page_size at 100 like the service", "[v2][integration][mock]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto response =
      client.session().get(rig.server.v2_url() + "/samples/?page=1&page_size=500");
  const auto doc = nlohmann::json::parse(response.body);
  CHECK(doc["count"] == 2000);
  CHECK(doc["items"].size() == 100);
  const auto super_default =
      nlohmann::json::parse(client.session().get(rig.server.v2_url() + "/super-studies/").body);
  CHECK(super_default["items"].size() == 7);
}

TEST_CASE("a counted v2 walk with pages in flight yields every item once, in order",
          "[v2][integration][lists]") {
  mgnify::test::V2Rig rig;
  auto options = rig.options();
  options.read_ahead = true;
  options.parallel_pages = 4;
  V2Client client(options);
  mgnify::ListOptions opts;
  opts.page_size = 30;
  std::vector<std::string> order;
  for (const auto& s : client.samples({}, opts)) order.push_back(s.accession);
  REQUIRE(order.size() == 2000);
  for (std::size_t i = 0; i < order.size(); ++i) {
    char expected[16];
    std::snprintf(expected, sizeof expected, "SAMEA%07d", static_cast<int>(1000000 + i));
    REQUIRE(order[i] == expected);
  }
  CHECK(rig.hits("samples/") == 67);  // ceil(2000 / 30): never a page past the end
}
