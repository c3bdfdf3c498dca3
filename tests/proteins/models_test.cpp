#include "mgnify/proteins/models.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mgnify/proteins/export.hpp"

using mgnify::DecodeError;
using nlohmann::json;
namespace proteins = mgnify::proteins;

namespace {

json sample_protein() {
  return json::parse(R"({
    "mgyp": "MGYP000000000013",
    "sequence": "MKTAYIAKQRQISFVKSHFSRQ",
    "full_length": true,
    "cluster_size": 7,
    "biomes": [{"count": 2, "id": 46, "name": "root:Engineered:Wastewater"}],
    "pfam_annotations": [
      {"accession": "PF00005", "name": "ABC transporter", "clan": "CL0023",
       "evalue": 1.1301790139316117e-22, "bit_score": 87.55205535888672,
       "hmm_start": 2, "hmm_end": 95, "env_start": 3, "env_end": 20},
      {"accession": "PF04659", "name": "Archaeal\tflagella protein", "clan": null,
       "evalue": 0.0, "bit_score": 12.5, "hmm_start": 1, "hmm_end": 9, "env_start": 1, "env_end": 9}
    ],
    "study_assembly_contigs": [
      {"study_accession": "ERP108403", "assembly_accession": "ERZ534239",
       "contig_accession": "MGYC000564781877", "contig_name": "NODE-1", "start": 931, "end": 2196,
       "strand": "-"}
    ],
    "structure_model": {"plddt": 91.5}
  })");
}

}  // namespace

TEST_CASE("a protein record decodes every documented field", "[proteins][models]") {
  const auto p = sample_protein().get<proteins::Protein>();
  CHECK(p.mgyp == "MGYP000000000013");
  CHECK(p.sequence == "MKTAYIAKQRQISFVKSHFSRQ");
  CHECK(p.full_length == true);
  CHECK(p.cluster_size == 7);
  REQUIRE(p.biomes.size() == 1);
  CHECK(p.biomes[0].id == 46);
  CHECK(p.biomes[0].name == "root:Engineered:Wastewater");
  CHECK(p.biomes[0].count == 2);
  REQUIRE(p.pfam_annotations.size() == 2);
  CHECK(p.pfam_annotations[0].accession == "PF00005");
  CHECK(p.pfam_annotations[0].clan == std::optional<std::string>("CL0023"));
  CHECK(p.pfam_annotations[0].evalue == 1.1301790139316117e-22);
  CHECK(p.pfam_annotations[0].bit_score == 87.55205535888672);
  CHECK(p.pfam_annotations[0].hmm_start == 2);
  CHECK(p.pfam_annotations[0].hmm_end == 95);
  CHECK(p.pfam_annotations[0].env_start == 3);
  CHECK(p.pfam_annotations[0].env_end == 20);
  CHECK_FALSE(p.pfam_annotations[1].clan.has_value());
  REQUIRE(p.study_assembly_contigs.size() == 1);
  const auto& c = p.study_assembly_contigs[0];
  CHECK(c.study_accession == "ERP108403");
  CHECK(c.assembly_accession == "ERZ534239");
  CHECK(c.contig_accession == "MGYC000564781877");
  CHECK(c.contig_name == "NODE-1");
  CHECK(c.start == 931);
  CHECK(c.end == 2196);
  CHECK(c.strand == proteins::Strand::reverse);
  CHECK_FALSE(p.superseded());
  // Unknown fields are ignored by the model but stay reachable.
  CHECK(p.raw.at("structure_model").at("plddt") == 91.5);
}

TEST_CASE("a protein round trip keeps every field, unknown ones included", "[proteins][models]") {
  const json original = sample_protein();
  const json again = json(original.get<proteins::Protein>());
  CHECK(again == original);
  // Edits to the typed fields win over the raw copy.
  auto p = original.get<proteins::Protein>();
  p.cluster_size = 8;
  p.pfam_annotations[1].clan = "CL0192";
  const json edited = p;
  CHECK(edited.at("cluster_size") == 8);
  CHECK(edited.at("pfam_annotations").at(1).at("clan") == "CL0192");
  CHECK(edited.at("structure_model").at("plddt") == 91.5);
}

TEST_CASE("nullable and missing fields become empty optionals", "[proteins][models]") {
  const auto p = json::parse(R"({"mgyp": "MGYP000000000010", "full_length": null,
                                  "cluster_size": null, "biomes": null})")
                     .get<proteins::Protein>();
  CHECK_FALSE(p.full_length.has_value());
  CHECK_FALSE(p.cluster_size.has_value());
  CHECK(p.sequence.empty());
  CHECK(p.biomes.empty());
  CHECK(p.pfam_annotations.empty());
  CHECK(p.study_assembly_contigs.empty());
  const json out = p;
  CHECK(out.at("full_length").is_null());
  CHECK(out.at("cluster_size").is_null());

  const auto d = json::parse(R"({"accession": "PF00005"})").get<proteins::PfamAnnotation>();
  CHECK_FALSE(d.clan.has_value());
  CHECK_FALSE(d.evalue.has_value());
  CHECK_FALSE(d.env_end.has_value());
}

TEST_CASE("strand is tolerant of every observed spelling", "[proteins][models]") {
  auto strand_of = [](const json& value) {
    json c = {{"contig_accession", "MGYC000000000001"}, {"strand", value}};
    return c.get<proteins::ContigEntry>().strand;
  };
  CHECK(strand_of("+") == proteins::Strand::forward);
  CHECK(strand_of("-") == proteins::Strand::reverse);
  CHECK(strand_of(1) == proteins::Strand::forward);
  CHECK(strand_of(-1) == proteins::Strand::reverse);
  CHECK(strand_of("1") == proteins::Strand::forward);
  CHECK(strand_of("-1") == proteins::Strand::reverse);
  CHECK_FALSE(strand_of(nullptr).has_value());
  CHECK_FALSE(strand_of("").has_value());
  CHECK_FALSE(json{{"contig_accession", "MGYC1"}}.get<proteins::ContigEntry>().strand.has_value());
  CHECK(strand_of("+").known());
  CHECK(strand_of(".").known());
  // Every value is written back exactly as it was sent.
  for (const json& sent : {json(-1), json("-1"), json("+"), json("."), json("")}) {
    json c = {{"strand", sent}};
    CHECK(json(c.get<proteins::ContigEntry>()).at("strand") == sent);
  }
}

TEST_CASE("a strand outside the known spellings is kept, not a lost record", "[proteins][models]") {
  json doc = {{"mgyp", "MGYP000000000001"},
              {"study_assembly_contigs",
               json::array({{{"contig_accession", "MGYC1"}, {"strand", "sideways"}},
                            {{"contig_accession", "MGYC2"}, {"strand", 2}}})}};
  const auto p = doc.get<proteins::Protein>();
  REQUIRE(p.study_assembly_contigs.size() == 2);
  for (const auto& contig : p.study_assembly_contigs) {
    CHECK_FALSE(contig.strand.known());
    CHECK_FALSE(contig.strand.has_value());
  }
  CHECK(p.study_assembly_contigs[0].strand.sent() == "sideways");
  CHECK(json(p) == doc);
  // Only a value that cannot be a strand at all is a structural error.
  doc["study_assembly_contigs"][0]["strand"] = json::array({1});
  CHECK_THROWS_AS(doc.get<proteins::Protein>(), DecodeError);
}

TEST_CASE("decode failures name the JSON path of the bad value", "[proteins][models]") {
  json doc = sample_protein();
  doc["study_assembly_contigs"][0]["strand"] = json::object();
  try {
    (void)doc.get<proteins::Protein>();
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/study_assembly_contigs/0/strand");
  }

  doc = sample_protein();
  doc["pfam_annotations"][1]["env_start"] = "three";
  try {
    (void)doc.get<proteins::Protein>();
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/pfam_annotations/1/env_start");
  }

  doc = sample_protein();
  doc["biomes"][0].erase("id");
  try {
    (void)doc.get<proteins::Protein>();
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/biomes/0/id");
  }

  doc = sample_protein();
  doc.erase("mgyp");
  CHECK_THROWS_AS(doc.get<proteins::Protein>(), DecodeError);
  CHECK_THROWS_AS(json::array().get<proteins::Protein>(), DecodeError);
  doc = sample_protein();
  doc["biomes"] = "marine";
  try {
    (void)doc.get<proteins::Protein>();
    FAIL("expected DecodeError");
  } catch (const DecodeError& e) {
    CHECK(e.json_path() == "/biomes");
  }
}

TEST_CASE("search hits decode with or without the optional fields", "[proteins][models]") {
  const auto full =
      json::parse(R"({"mgyp":"MGYP000000000012","full_length":true,"cluster_size":1,"x":1})")
          .get<proteins::SearchHit>();
  CHECK(full.mgyp == "MGYP000000000012");
  CHECK(full.full_length == true);
  CHECK(full.cluster_size == 1);
  CHECK(json(full) ==
        json::parse(R"({"mgyp":"MGYP000000000012","full_length":true,"cluster_size":1,"x":1})"));
  const auto bare = json::parse(R"({"mgyp":"MGYP000000000012"})").get<proteins::SearchHit>();
  CHECK_FALSE(bare.full_length.has_value());
  CHECK_FALSE(bare.cluster_size.has_value());
  CHECK_THROWS_AS(json::parse(R"({"full_length":true})").get<proteins::SearchHit>(), DecodeError);
}

TEST_CASE("FASTA export has the accession and cluster size in the header", "[proteins][export]") {
  auto p = sample_protein().get<proteins::Protein>();
  CHECK(proteins::to_fasta(p, 10) ==
        ">MGYP000000000013 cluster_size=7 full_length=true\nMKTAYIAKQR\nQISFVKSHFS\nRQ\n");
  CHECK(proteins::to_fasta(p, 0) ==
        ">MGYP000000000013 cluster_size=7 full_length=true\nMKTAYIAKQRQISFVKSHFSRQ\n");
  p.superseded_from = "MGYP000000900001";
  p.cluster_size.reset();
  p.full_length.reset();
  CHECK(proteins::to_fasta(p, 60) ==
        ">MGYP000000000013 superseded_from=MGYP000000900001\nMKTAYIAKQRQISFVKSHFSRQ\n");
  std::ostringstream os;
  proteins::write_fasta(os, {p, p}, 60);
  CHECK(os.str() == proteins::to_fasta(p) + proteins::to_fasta(p));
}

TEST_CASE("Pfam TSV export has one row per domain and keeps columns aligned",
          "[proteins][export]") {
  const auto p = sample_protein().get<proteins::Protein>();
  std::ostringstream os;
  proteins::write_pfam_tsv(os, {p});
  const std::string expected =
      "mgyp\tpfam_accession\tpfam_name\tclan\tevalue\tbit_score\thmm_start\thmm_end\tenv_"
      "start\tenv_end\n"
      "MGYP000000000013\tPF00005\tABC "
      "transporter\tCL0023\t1.1301790139316117e-22\t87.55205535888672\t2\t95\t3\t20\n"
      "MGYP000000000013\tPF04659\tArchaeal flagella protein\t\t0.0\t12.5\t1\t9\t1\t9\n";
  CHECK(os.str() == expected);
  CHECK(proteins::pfam_tsv_columns().size() == 10);
  proteins::Protein empty;
  empty.mgyp = "MGYP000000000016";
  CHECK(proteins::pfam_tsv_rows(empty).empty());
}
