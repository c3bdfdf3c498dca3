// Schema-driven conformance of the protein models (issue 14, part 4). The
// Protein service publishes no JSON Schema here, so the shapes of
// shared/spec/proteins-api-v1.md are written below as one, in the subset the
// generator of tests/core/schema_instances.hpp reads; the captured responses
// must validate against it, and every document generated from it must decode
// through json.get<T>() and decode_body<T>() to the same model and encode
// back to itself.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/schema_instances.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/proteins/fast_decode.hpp"
#include "skip.hpp"

namespace protein_schema_test {

using json = nlohmann::json;
namespace si = mgnify::test::schema_instances;
namespace proteins = mgnify::proteins;

// The service document gives types but neither nullability nor required
// members. Required here: only the identities the SDK cannot do without
// (a record's mgyp, a biome's id, a domain's accession). Nullable: every other
// scalar, which is the SDK's contract (models.hpp: "every nested scalar may be
// missing or null"); clan is documented as string-or-null. The strand's value
// set is "not shown": the spellings the SDK names plus, through the
// generator's value outside each enum, any other.
const json& schema_document() {
  static const json doc = json::parse(R"json({"components": {"schemas": {
    "ProteinRecord": {
      "type": "object",
      "required": ["mgyp"],
      "properties": {
        "mgyp": {"type": "string"},
        "sequence": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "full_length": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
        "cluster_size": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "biomes": {"type": "array", "items": {"$ref": "#/components/schemas/BiomeEntry"}},
        "pfam_annotations": {
          "type": "array", "items": {"$ref": "#/components/schemas/DomainAnnotation"}
        },
        "study_assembly_contigs": {
          "type": "array", "items": {"$ref": "#/components/schemas/ContigEntry"}
        }
      }
    },
    "BiomeEntry": {
      "type": "object",
      "required": ["id"],
      "properties": {
        "id": {"type": "integer"},
        "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
      }
    },
    "DomainAnnotation": {
      "type": "object",
      "required": ["accession"],
      "properties": {
        "accession": {"type": "string"},
        "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "clan": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "evalue": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "bit_score": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "hmm_start": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "hmm_end": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "env_start": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "env_end": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
      }
    },
    "ContigEntry": {
      "type": "object",
      "properties": {
        "study_accession": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "assembly_accession": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "contig_accession": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "contig_name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "start": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "end": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "strand": {"anyOf": [
          {"type": "string", "enum": ["-", "+", "-1", "+1", "1", "", "."]},
          {"type": "integer", "enum": [-1, 1]},
          {"type": "null"}
        ]}
      }
    },
    "SearchHit": {
      "type": "object",
      "required": ["mgyp"],
      "properties": {
        "mgyp": {"type": "string"},
        "full_length": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
        "cluster_size": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
      }
    },
    "SearchResults": {"type": "array", "items": {"$ref": "#/components/schemas/SearchHit"}}
  }}})json");
  return doc;
}

/// Schema name -> SDK model; every schema above must have an entry.
const std::map<std::string, si::Checker>& model_table() {
  static const std::map<std::string, si::Checker> table = {
      {"ProteinRecord", &si::check_model<proteins::Protein>},
      {"BiomeEntry", &si::check_model<proteins::BiomeEntry>},
      {"DomainAnnotation", &si::check_model<proteins::PfamAnnotation>},
      {"ContigEntry", &si::check_model<proteins::ContigEntry>},
      {"SearchHit", &si::check_model<proteins::SearchHit>},
      {"SearchResults", &si::check_model<std::vector<proteins::SearchHit>>},
  };
  return table;
}

/// Failures in code this test may not change (proteins/, detail/). None today;
/// a new entry needs a [!mayfail] test case calling report_known_failures (see
/// tests/core/schema_instances.hpp).
const std::vector<si::KnownFailure>& known_failures() {
  static const std::vector<si::KnownFailure> known = {};
  return known;
}

si::Report run_all() {
  return si::run_schemas("proteins", schema_document(), model_table(), known_failures(),
                         [](const std::string&) { return true; });
}

json read_json(const std::filesystem::path& path) { return si::read_json_file(path.string()); }

}  // namespace protein_schema_test

TEST_CASE("the hand-written protein schema accepts the captured Protein service responses",
          "[proteins][schema]") {
  namespace t = protein_schema_test;
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: the schema is not held against captures");
  const auto dir = std::filesystem::path(fixtures) / "proteins";
  const std::map<std::string, std::string> captures = {
      {"docs.protein_MGYP000261684433.json", "ProteinRecord"},
      {"docs.search_biome_lineage_root-Engineered-Wastewater_limit3.json", "SearchResults"},
  };
  const auto& schemas = t::schema_document().at("components").at("schemas");
  for (const auto& [file, schema] : captures) {
    std::vector<std::string> errors;
    mgnify::test::schema_instances::validate(t::schema_document(), schemas.at(schema), t::read_json(dir / file),
                               "", errors);
    std::string listed;
    for (const auto& e : errors) listed += "\n  " + e;
    INFO(file << " against " << schema << listed);
    CHECK(errors.empty());
  }
}

TEST_CASE("documents generated from the protein schema decode both ways alike and round-trip",
          "[proteins][schema]") {
  namespace t = protein_schema_test;
  const auto report = t::run_all();
  WARN(mgnify::test::schema_instances::summary("protein schemas (written from shared/spec/proteins-api-v1.md)",
                                 report));
  mgnify::test::schema_instances::expect_no_unexpected_failures(report, t::known_failures());
  CHECK(report.per_schema.size() == t::model_table().size());
  REQUIRE(report.documents >= 80);  // 6 schemas with 12 to 35 distinct variants each
}
