// The smaller v1 endpoints (token verify, sample metadata, recent studies,
// top-10 biomes, pipeline tools, the genome catalogues' vocabularies, extra
// annotations, Europe PMC annotations) and the text bodies (contig FASTA and
// GFF, QC TSVs, lists as CSV), read whole and streamed, through libcurl
// against the mock.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "mgnify/http/text.hpp"
#include "support/v1_rig.hpp"
#include "v1/data.hpp"

using mgnify::v1::Query;
namespace d = mgnify::mock::v1data;

namespace {

/// The one request the mock saw since the last clear, as "METHOD path".
std::string only_request(const mgnify::test::V1Rig& rig) {
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 1);
  return requests[0].method + " " + requests[0].path;
}

/// Bases of a FASTA record: every line but the header, newlines dropped.
std::size_t fasta_bases(const std::string& fasta) {
  std::size_t bases = 0;
  std::size_t line_start = fasta.find('\n');
  REQUIRE(line_start != std::string::npos);
  for (std::size_t i = line_start + 1; i < fasta.size(); ++i) {
    if (fasta[i] != '\n') ++bases;
  }
  return bases;
}

/// A client that requests nothing ahead, so each call's requests are exactly its own.
mgnify::v1::LegacyClient exact_client(const mgnify::test::V1Rig& rig) {
  auto options = rig.options();
  options.read_ahead = false;
  return mgnify::v1::LegacyClient(options);
}

// The contigs of the mock's big analysis MGYA00000001: contig n is
// "ERR3000000.1-contig-n", 500 + ((n - 1) * 7919) % 40000 bases long.
constexpr const char* kAnalysis = "MGYA00000001";
constexpr const char* kLongContig = "ERR3000000.1-contig-6";  // 40,095 bases

}  // namespace

TEST_CASE("v1: verify accepts the session's token and rejects a bad one",
          "[v1][integration][auth]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  CHECK_THROWS_AS(client.verify(), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());

  client.login(d::kTestUser, d::kTestPassword);
  rig.server.clear_requests();
  CHECK(client.verify());
  CHECK(only_request(rig) == "POST " + rig.path("utils/token/verify"));
  const auto sent = nlohmann::json::parse(rig.server.requests()[0].body);
  CHECK(sent == nlohmann::json{{"token", d::kTestToken}});

  client.session().set_token(std::string("not.a.token"));
  CHECK_FALSE(client.verify());
}

TEST_CASE("v1: sample metadata, recent studies and the top-10 biomes are typed",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);

  auto metadata = client.sample_metadata(d::sample_accession(4)).collect();
  const auto sample = client.sample(d::sample_accession(4));
  REQUIRE(metadata.size() == sample.sample_metadata.size());
  for (std::size_t i = 0; i < metadata.size(); ++i) {
    CHECK(metadata[i].type() == "sample-anns");
    CHECK(metadata[i].key == sample.sample_metadata[i].key);
    CHECK(metadata[i].value == sample.sample_metadata[i].value);
    CHECK(metadata[i].unit == sample.sample_metadata[i].unit);
    const auto* owner = metadata[i].relationship("sample");
    REQUIRE(owner != nullptr);
    CHECK(owner->one()->id == d::sample_accession(4));
  }
  CHECK_THROWS_AS(client.sample_metadata("ERS0000001").collect(), mgnify::NotFoundError);

  auto recent = client.recent_studies().collect();
  CHECK(recent.size() == 25);
  CHECK(recent.front().accession == d::study_accession(d::kStudies - 1));

  rig.server.clear_requests();
  const auto top = client.top10_biomes();
  CHECK(only_request(rig) == "GET " + rig.path("biomes/top10"));
  REQUIRE(top.size() == 10);
  for (std::size_t i = 1; i < top.size(); ++i) {
    REQUIRE(top[i - 1].samples_count);
    CHECK(*top[i - 1].samples_count >= *top[i].samples_count);
  }
  CHECK(std::none_of(top.begin(), top.end(), [](const auto& b) { return b.lineage == "root"; }));
}

TEST_CASE("v1: pipeline tools list, get by name and version, and per release",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  const auto tools = client.pipeline_tools().collect();
  REQUIRE(tools.size() >= 3);
  for (const auto& tool : tools) {
    CHECK_FALSE(tool.tool_name.empty());
    REQUIRE(tool.version);
    rig.server.clear_requests();
    const auto one = client.pipeline_tool(tool.tool_name, *tool.version);
    CHECK(only_request(rig) ==
          "GET " + rig.path("pipeline-tools/" + tool.tool_name + "/" + *tool.version));
    CHECK(one.tool_name == tool.tool_name);
    CHECK(one.description == tool.description);
  }
  CHECK_THROWS_AS(client.pipeline_tool("InterProScan", "0.0"), mgnify::NotFoundError);
  CHECK_THROWS_AS(client.pipeline_tool("", "1"), mgnify::InvalidArgument);

  const auto v5 = client.pipeline_release_tools("5.0").collect();
  CHECK_FALSE(v5.empty());
  CHECK(v5.size() < tools.size());
  CHECK_THROWS_AS(client.pipeline_release_tools("9.9").collect(), mgnify::NotFoundError);
}

TEST_CASE("v1: genome sets, COGs, KEGG classes and modules, antiSMASH clusters",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);

  const auto sets = client.genome_sets().collect();
  REQUIRE(sets.size() == 4);
  CHECK(client.genome_set(sets[1].name).name == sets[1].name);
  auto genomes = client.genome_set_genomes(sets[1].name);
  CHECK(genomes.total() == static_cast<std::int64_t>(d::kGenomes / sets.size()));
  CHECK_THROWS_AS(client.genome_set("nobody"), mgnify::NotFoundError);

  const auto cogs = client.cogs().collect();
  REQUIRE_FALSE(cogs.empty());
  CHECK(cogs[0].description);
  CHECK_FALSE(cogs[0].genome_count);  // only a genome's list counts

  const auto classes = client.kegg_classes().collect();
  REQUIRE_FALSE(classes.empty());
  CHECK_FALSE(classes[0].parent);  // a top class
  CHECK(std::any_of(classes.begin(), classes.end(), [](const auto& c) { return c.parent; }));

  CHECK_FALSE(client.genome_kegg_modules().collect().empty());
  CHECK_FALSE(client.genome_antismash_clusters().collect().empty());

  const std::string genome = d::genome_accession(7);
  const auto counted = client.genome_cog_counts(genome).collect();
  REQUIRE(counted.size() == cogs.size());
  CHECK(counted[0].genome_count);
  CHECK(counted[0].pangenome_count);
  CHECK(client.genome_kegg_class_counts(genome).collect().size() == classes.size());
  CHECK(client.genome_kegg_module_counts(genome).collect().front().genome_count);
  CHECK(client.genome_antismash_cluster_counts(genome).collect().front().genome_count);
  CHECK_THROWS_AS(client.genome_cog_counts("MGYG999999999").collect(), mgnify::NotFoundError);
}

TEST_CASE("v1: extra annotations of runs and assemblies list files that can be read",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  const std::string run = d::run_accession(3);
  const auto files = client.run_extra_annotations(run).collect();
  REQUIRE(files.size() == 2);
  CHECK(files[0].type() == "run-extra-annotations");
  REQUIRE(files[0].self_link());
  const auto gff = client.read_text(*files[0].self_link());
  CHECK(gff.text.rfind("##gff-version 3\n", 0) == 0);
  CHECK(gff.text.find(run) != std::string::npos);

  const auto assembly_files = client.assembly_extra_annotations(d::assembly_accession(3)).collect();
  REQUIRE(assembly_files.size() == 2);
  CHECK(assembly_files[1].type() == "assembly-extra-annotations");
  CHECK(assembly_files[1].file_format->name == "FASTA");
  CHECK_THROWS_AS(client.assembly_extra_annotations(d::assembly_accession(4)).collect(),
                  mgnify::NotFoundError);  // sample 4 has no assembly
}

TEST_CASE("v1: Europe PMC annotations of a publication", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  rig.server.clear_requests();
  const auto annotations = client.publication_europe_pmc_annotations(25000000);
  CHECK(only_request(rig) == "GET " + rig.path("publications/25000000/europe_pmc_annotations"));
  REQUIRE(annotations.sample_processing.size() == 1);
  REQUIRE(annotations.other.size() == 1);
  const auto& mention = annotations.sample_processing[0].annotations.at(0).mentions.at(0);
  CHECK(mention.exact == "RNA-seq");
  CHECK(mention.tags.at(0).uri.find("EFO_0002770") != std::string::npos);
  CHECK_THROWS_AS(client.publication_europe_pmc_annotations(1), mgnify::NotFoundError);
}

TEST_CASE("v1: a contig's FASTA and GFF are read as text", "[v1][integration][text]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  auto contigs = client.analysis_contigs(kAnalysis, {}, mgnify::test::pages(10));
  const auto first = *contigs.begin();

  rig.server.clear_requests();
  const std::string fasta = client.analysis_contig_fasta(kAnalysis, first.contig_id);
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].path == rig.path("analyses/MGYA00000001/contigs/" + first.contig_id));
  CHECK(requests[0].headers.find("accept")->second.rfind("text/x-fasta", 0) == 0);
  CHECK(fasta.rfind(">" + first.contig_id + "\n", 0) == 0);
  REQUIRE(first.length);
  CHECK(fasta_bases(fasta) == static_cast<std::size_t>(*first.length));

  const std::string gff = client.analysis_contig_gff(kAnalysis, first.contig_id);
  CHECK(gff.rfind("##gff-version 3\n", 0) == 0);
  CHECK(gff.find("\tProdigal\tCDS\t") != std::string::npos);

  rig.server.clear_requests();
  const std::string antismash =
      client.analysis_contig_gff(kAnalysis, first.contig_id, mgnify::v1::ContigGff::antismash);
  CHECK(antismash.find("\tantiSMASH\t") != std::string::npos);
  CHECK(rig.server.requests().at(0).target.find("antismash=True") != std::string::npos);

  try {
    client.analysis_contig_fasta(kAnalysis, "ERR3000000.1-contig-999999");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.status() == 404);
    CHECK(e.message() == "Not found.");
    CHECK(e.url().find("/contigs/ERR3000000.1-contig-999999") != std::string::npos);
  }
  CHECK_THROWS_AS(client.analysis_contig_gff("MGYA99999999", first.contig_id),
                  mgnify::NotFoundError);
  CHECK_THROWS_AS(client.analysis_contig_fasta(kAnalysis, ""), mgnify::InvalidArgument);
}

TEST_CASE("v1: QC chart data is read as TSV", "[v1][integration][text]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  using mgnify::v1::QcChart;
  for (const auto chart : {QcChart::gc_distribution, QcChart::nucleotide_distribution,
                           QcChart::seq_length, QcChart::summary}) {
    INFO(mgnify::v1::qc_chart_path(chart));
    rig.server.clear_requests();
    const std::string tsv = client.analysis_qc_chart("MGYA00000002", chart);
    CHECK(only_request(rig) == "GET " + rig.path(std::string("analyses/MGYA00000002/") +
                                                 mgnify::v1::qc_chart_path(chart)));
    REQUIRE_FALSE(tsv.empty());
    CHECK(tsv.back() == '\n');
    CHECK(tsv.find('\t') < tsv.find('\n'));
  }
  CHECK_THROWS_AS(client.analysis_qc_chart("MGYA99999999", QcChart::summary),
                  mgnify::NotFoundError);
}

TEST_CASE("v1: lists are read as CSV with format=csv, and long ones are refused",
          "[v1][integration][text]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  rig.server.clear_requests();
  const std::string csv = client.list_csv("biomes", Query().ordering("lineage"));
  const auto request = rig.server.requests().at(0);
  CHECK(request.path == rig.path("biomes"));
  CHECK(request.target.find("format=csv") != std::string::npos);
  CHECK(request.target.find("ordering=lineage") != std::string::npos);
  const auto all_biomes = client.biomes().collect();
  // A header and one CRLF-terminated row per biome, every row at once.
  CHECK(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')) ==
        all_biomes.size() + 1);
  CHECK(csv.rfind("samples_count,biome_name,lineage\r\n", 0) == 0);

  // Segments are encoded one by one: a lineage with a space stays one segment.
  const std::string forest =
      client.list_csv("biomes/root:Environmental:Terrestrial:Soil:Forest soil/children");
  CHECK(forest.find(",Forest soil,root:Environmental:Terrestrial:Soil:Forest soil\r\n") !=
        std::string::npos);
  CHECK(rig.server.requests().back().path ==
        rig.path("biomes/root:Environmental:Terrestrial:Soil:Forest soil/children"));

  try {
    client.list_csv("studies");  // 20,000 rows
    FAIL("expected ApiError");
  } catch (const mgnify::ApiError& e) {
    CHECK(e.status() == 413);
    CHECK(e.api_errors().at(0).code == "payload_too_large");
    CHECK(e.message().find("too long") != std::string::npos);
  }
}

TEST_CASE("v1: text bodies stream chunk by chunk, bounded and cancellable",
          "[v1][integration][text][stream]") {
  mgnify::test::V1Rig rig;
  auto client = exact_client(rig);
  const std::string whole = client.analysis_contig_fasta(kAnalysis, kLongContig);
  REQUIRE(whole.size() > 40000);

  SECTION("the chunks add up to the body read whole") {
    std::string streamed;
    std::size_t chunks = 0;
    const auto result = client.stream_analysis_contig_fasta(
        kAnalysis, kLongContig,
        [&](const mgnify::http::Response& head, const char* data, std::size_t n) {
          CHECK(head.status == 200);
          streamed.append(data, n);
          ++chunks;
          return chunks < 10000;
        });
    CHECK(streamed == whole);
    CHECK(result.bytes == whole.size());
    CHECK(result.content_type.rfind("text/x-fasta", 0) == 0);
    CHECK(chunks > 1);
  }
  SECTION("a body over the cap fails with body_too_large") {
    mgnify::http::StreamOptions options;
    options.max_bytes = 1000;
    std::size_t delivered = 0;
    try {
      client.stream_analysis_contig_fasta(
          kAnalysis, kLongContig,
          [&](const mgnify::http::Response&, const char*, std::size_t n) {
            delivered += n;
            return true;
          },
          options);
      FAIL("expected TransportError");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == mgnify::TransportError::Kind::body_too_large);
      CHECK(e.detail().find("1000 bytes") != std::string::npos);
    }
    CHECK(delivered <= 1000);
  }
  SECTION("cancelling from the sink stops the stream before the next chunk") {
    mgnify::CancelToken cancel;
    std::size_t chunks = 0;
    CHECK_THROWS_AS(client.stream_analysis_contig_fasta(
                        kAnalysis, kLongContig,
                        [&](const mgnify::http::Response&, const char*, std::size_t) {
                          ++chunks;
                          cancel.cancel();
                          return true;
                        },
                        {}, cancel),
                    mgnify::CancelledError);
    CHECK(chunks == 1);
  }
  SECTION("a token cancelled before the call sends nothing") {
    mgnify::CancelToken cancel;
    cancel.cancel();
    rig.server.clear_requests();
    bool called = false;
    CHECK_THROWS_AS(client.stream_analysis_qc_chart(
                        kAnalysis, mgnify::v1::QcChart::summary,
                        [&](const mgnify::http::Response&, const char*, std::size_t) {
                          called = true;
                          return true;
                        },
                        {}, cancel),
                    mgnify::CancelledError);
    CHECK_FALSE(called);
    CHECK(rig.server.requests().empty());
  }
  SECTION("an error status never reaches the sink and keeps the server's detail") {
    bool called = false;
    auto sink = [&](const mgnify::http::Response&, const char*, std::size_t) {
      called = true;
      return true;
    };
    CHECK_THROWS_AS(client.stream_analysis_contig_gff(kAnalysis, "ERR3000000.1-contig-0", sink),
                    mgnify::NotFoundError);
    try {
      client.stream_list_csv("studies", sink);
      FAIL("expected ApiError");
    } catch (const mgnify::ApiError& e) {
      CHECK(e.status() == 413);
    }
    CHECK_FALSE(called);
  }
  SECTION("CSV and QC data stream too") {
    std::string csv;
    client.stream_list_csv("pipeline-tools",
                           [&](const mgnify::http::Response&, const char* data, std::size_t n) {
                             csv.append(data, n);
                             return true;
                           });
    CHECK(csv == client.list_csv("pipeline-tools"));
    std::string gff;
    client.stream_analysis_contig_gff(
        kAnalysis, kLongContig,
        [&](const mgnify::http::Response&, const char* data, std::size_t n) {
          gff.append(data, n);
          return true;
        });
    CHECK(gff == client.analysis_contig_gff(kAnalysis, kLongContig));
  }
  SECTION("a stream takes the read call's arguments in the read call's order") {
    auto collect_into = [](std::string& out) {
      return [&out](const mgnify::http::Response&, const char* data, std::size_t n) {
        out.append(data, n);
        return true;
      };
    };
    const Query by_lineage = Query().ordering("lineage");
    std::string csv;
    rig.server.clear_requests();
    client.stream_list_csv("biomes", by_lineage, collect_into(csv));
    const auto sent = rig.server.requests();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].target.find("ordering=lineage") != std::string::npos);
    CHECK(sent[0].target.find("format=csv") != std::string::npos);
    CHECK(csv == client.list_csv("biomes", by_lineage));
    std::string antismash;
    client.stream_analysis_contig_gff(kAnalysis, kLongContig, mgnify::v1::ContigGff::antismash,
                                      collect_into(antismash));
    CHECK(antismash.find("\tantiSMASH\t") != std::string::npos);
    CHECK(antismash ==
          client.analysis_contig_gff(kAnalysis, kLongContig, mgnify::v1::ContigGff::antismash));
  }
}

TEST_CASE("v1: a text body over max_body_bytes fails like a JSON one", "[v1][integration][text]") {
  mgnify::test::V1Rig rig;
  auto options = rig.options();
  options.max_body_bytes = 4096;
  mgnify::v1::LegacyClient client(options);
  try {
    client.analysis_contig_fasta(kAnalysis, kLongContig);
    FAIL("expected TransportError");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == mgnify::TransportError::Kind::body_too_large);
  }
  // The default stream cap is the same limit.
  CHECK_THROWS_AS(client.stream_analysis_contig_fasta(
                      kAnalysis, kLongContig,
                      [](const mgnify::http::Response&, const char*, std::size_t) { return true; }),
                  mgnify::TransportError);
  // A short body still fits.
  CHECK(client.analysis_contig_fasta(kAnalysis, "ERR3000000.1-contig-1").size() < 4096);
}
