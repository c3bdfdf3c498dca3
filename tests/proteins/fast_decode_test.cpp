// The simdjson path and the nlohmann path decode protein records into the
// same structs (every fixture, mock records, and edge cases that must fall
// back), and the fast path keeps raw lazy and shared.

#include "mgnify/proteins/fast_decode.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/fast_decode_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/proteins.hpp"
#include "mock/proteins/protein_data.hpp"
#include "skip.hpp"
#include "support/protein_rig.hpp"

namespace fs = std::filesystem;
using mgnify::proteins::Protein;

TEST_CASE("proteins fast decode: every fixture decodes the same both ways", "[proteins][fast]") {
  const std::string dir = MGNIFY_FIXTURES_DIR;
  if (dir.empty()) MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: protein fixtures not checked");
  int files = 0;
  int fast = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "proteins")) {
    if (entry.path().filename() == "SOURCES.md") continue;
    const auto outcome =
        mgnify::test::fast_decode::both_ways<Protein>(mgnify::test::fast_decode::read_file(entry.path()), entry.path().filename());
    ++files;
    fast += outcome.fast_taken ? 1 : 0;
    if (entry.path().filename().string().rfind("docs.protein_", 0) == 0) CHECK(outcome.fast_taken);
  }
  CHECK(files == 4);
  CHECK(fast == 1);  // the search answer and the error bodies are not records
}

TEST_CASE("proteins fast decode: mock records decode the same both ways",
          "[proteins][fast][integration]") {
  mgnify::test::ProteinRig rig;
  mgnify::http::Session session(mgnify::with_default_transport(rig.options()), "");
  std::vector<std::string> accessions = {"MGYP000261684433"};
  for (int i = 0; i < 40; ++i)
    accessions.push_back(
        mgnify::mock::proteins_data::accession(10 + 3 * static_cast<unsigned>(i) * 37));
  for (const auto& acc : accessions) {
    const auto response = session.get(session.url("protein/" + acc));
    const auto outcome = mgnify::test::fast_decode::both_ways<Protein>(response.body, acc);
    CHECK(outcome.fast_taken);
  }
}

TEST_CASE("proteins fast decode: unusual shapes give the nlohmann result or its exact error",
          "[proteins][fast]") {
  struct Case {
    const char* body;
    bool fast;
  };
  const std::vector<Case> cases = {
      {R"({"mgyp":"MGYP1"})", true},
      {R"({"mgyp":"MGYP1","sequence":null,"full_length":null,"cluster_size":null,"biomes":null})",
       true},
      {R"({"mgyp":"MGYP1","biomes":[{"id":1,"name":null,"count":null,"extra":[1,{"a":null}]}]})",
       true},
      {R"({"mgyp":"MGYP1","study_assembly_contigs":[{"strand":1},{"strand":"-"},{"strand":"."},{"strand":null}]})",
       true},
      {R"({"m\u0067yp":"MGYP1","sequence":"A\nB\u00e9"})", true},
      {R"({"mgyp":"MGYP1","cluster_size":-0})", true},
      {R"({"mgyp":"MGYP1","unknown":-0})", true},
      {R"({"mgyp":"MGYP1","cluster_size":3.0})", false},
      {R"({"mgyp":"MGYP1","cluster_size":18446744073709551615})", false},
      {R"({"mgyp":"MGYP1","full_length":1})", false},
      {R"({"mgyp":"MGYP1","study_assembly_contigs":[{"strand":"sideways"}]})", true},
      {R"({"mgyp":"MGYP1","study_assembly_contigs":[{"strand":[1]}]})", false},
      {R"({"mgyp":"MGYP1","biomes":{}})", false},
      {R"({"mgyp":"MGYP1","biomes":[{"name":"no id"}]})", false},
      {R"({"mgyp":null})", false},
      {R"({"sequence":"MA"})", false},
      {R"({"mgyp":7})", false},
      {R"([{"mgyp":"MGYP1"}])", false},
      {R"({"mgyp":"MGYP1"} {"mgyp":"MGYP2"})", false},
      {R"({"mgyp":"MGYP1",})", false},
      {R"({"mgyp":"MGYP1"   )", false},
      {"", false},
      {R"({"mgyp":"MGYP1","mgyp":"MGYP2"})", true},
      // Malformed values in fields the decoder skips: the whole body is validated first.
      {R"({"mgyp":"MGYP1","unknown":tru})", false},
      {R"({"mgyp":"MGYP1","unknown":[01]})", false},
      {"{\"mgyp\":\"MGYP1\",\"unknown\":\"a\x01b\"}", false},
      {R"({"mgyp":"MGYP1","unknown":"\ud800"})", false},
  };
  for (const auto& c : cases) {
    const auto outcome = mgnify::test::fast_decode::both_ways<Protein>(c.body, c.body);
    INFO(c.body);
    CHECK(outcome.fast_taken == c.fast);
  }
}

TEST_CASE("proteins fast decode: errors name the JSON path and the URL", "[proteins][fast]") {
  try {
    mgnify::detail::decode_body<Protein>(R"({"mgyp":"MGYP1","biomes":[{"id":1},{"id":"two"}]})",
                                         "http://x/protein/MGYP1");
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/biomes/1/id");
    CHECK(e.url() == "http://x/protein/MGYP1");
  }
}

TEST_CASE("proteins fast decode: raw stays text until read, entries share the record's text",
          "[proteins][fast][raw-threads]") {
  const std::string body =
      R"({"mgyp":"MGYP1","sequence":"MA","structure_model":{"plddt":91.5},)"
      R"("biomes":[{"id":1,"name":"root","count":2,"new":true}],"pfam_annotations":[{"accession":"PF1"}]})";
  const Protein p = mgnify::detail::decode_body<Protein>(body, "u");
  REQUIRE(p.raw.is_lazy());
  REQUIRE(p.biomes.size() == 1);
  CHECK(p.biomes[0].raw.is_lazy());
  // The entry's text is a range of the record's own copy, not a copy of its own.
  const auto whole = p.raw.text();
  const auto part = p.biomes[0].raw.text();
  CHECK(part.data() >= whole.data());
  CHECK(part.data() + part.size() <= whole.data() + whole.size());
  CHECK(part == R"({"id":1,"name":"root","count":2,"new":true})");

  // Copies made before the first read parse on their own; many threads
  // reading one model, or its copies, at once all see the same value.
  std::vector<Protein> copies(4, p);
  std::vector<double> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const Protein& reader = i % 2 == 0 ? p : copies[i / 2];
    threads.emplace_back([&seen, &reader, i] {
      seen[i] = reader.raw.at("structure_model").at("plddt").get<double>();
    });
  }
  for (auto& t : threads) t.join();
  for (double v : seen) CHECK(v == 91.5);
  CHECK_FALSE(p.raw.is_lazy());
  // A copy made after the read shares the parsed value instead of parsing again.
  const Protein later = p;
  CHECK_FALSE(later.raw.is_lazy());
  CHECK(&later.raw.json() == &p.raw.json());
  const Protein moved = Protein(later);
  CHECK(&moved.raw.json() == &p.raw.json());
  CHECK(p.biomes[0].raw.at("new") == true);
  CHECK(nlohmann::json(p)["structure_model"]["plddt"] == 91.5);
}

TEST_CASE("proteins nlohmann path: entries view the record's raw", "[proteins][fast]") {
  const auto j = nlohmann::json::parse(R"({"mgyp":"MGYP1","biomes":[{"id":1,"extra":"x"}]})");
  const auto p = j.get<Protein>();
  CHECK(p.biomes[0].raw.is_lazy());
  CHECK(p.biomes[0].raw.at("extra") == "x");
  CHECK(nlohmann::json(p) == nlohmann::json(mgnify::detail::decode_body<Protein>(j.dump(), "u")));
}

// nlohmann keeps only the last of duplicate names. The v1 list decoder once
// merged repeated objects instead (found by fuzzing); the record readers set
// each member from one value, and these cases keep it that way.
TEST_CASE("proteins fast decode: a repeated name replaces the earlier value whole",
          "[proteins][fast]") {
  const std::vector<const char*> cases = {
      R"({"mgyp":"MGYP1","sequence":"MA","sequence":null,"full_length":true,"full_length":null})",
      R"({"mgyp":"MGYP1","biomes":[{"id":1},{"id":2}],"biomes":[{"id":3}]})",
      R"({"mgyp":"MGYP1","biomes":[{"id":1}],"biomes":null,"pfam_annotations":[{"accession":"PF1"}],"pfam_annotations":[]})",
      R"({"mgyp":"MGYP1","biomes":[{"id":1,"id":2,"name":"a","name":null,"count":3,"count":null}]})",
      R"({"mgyp":"MGYP1","pfam_annotations":[{"accession":"PF1","clan":"CL1","clan":null,"evalue":1e-5,"evalue":null}]})",
      R"({"mgyp":"MGYP1","study_assembly_contigs":[{"strand":"+","strand":null,"start":1,"start":null,"contig_name":"c","contig_name":null}]})",
      R"({"mgyp":"MGYP1","study_assembly_contigs":[{"start":1}],"study_\u0061ssembly_contigs":[{"end":2}]})",
      R"({"mgyp":"MGYP1","cluster_size":2,"cluster_size":3,"structure_model":{"a":1},"structure_model":{"b":2}})",
  };
  for (const char* body : cases) {
    INFO(body);
    CHECK(mgnify::test::fast_decode::both_ways<Protein>(body, body).fast_taken);
  }
}
