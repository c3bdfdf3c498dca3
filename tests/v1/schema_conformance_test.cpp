// Schema-driven conformance of the legacy v1 models (issue 14, part 4). The v1
// service publishes no JSON Schema here, so the shapes of
// shared/spec/legacy-api-v1.md and shared/reference/v1-api.md are written below
// as one, in the subset the generator of tests/core/schema_instances.hpp reads.
// The captured responses must validate against it, and every document
// generated from it (list pages and single-resource documents of every typed
// model) must decode through json.get<T>() and decode_body<T>() to the same
// value and encode back to itself, unknown attributes and members included.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/schema_instances.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v1/fast_decode.hpp"
#include "skip.hpp"

namespace v1_schema_test {

using json = nlohmann::json;
namespace si = mgnify::test::schema_instances;
namespace v1 = mgnify::v1;

// The JSON:API pieces every resource shares, and the attributes of each
// resource type. No attribute is required: the documents list them without
// saying which are always sent, and older servers lack the newer ones
// (is-private, last-update, mgx-accession, ...). Nullable where the documents
// or the captures show null. Enumerations are the documented value sets; the
// generator also sends a value outside each, which must decode too.
const json& base_schemas() {
  static const json schemas = json::parse(R"json({
    "Text": {"type": "string"},
    "OptionalText": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "Count": {"type": "integer"},
    "Flag": {"type": "boolean"},
    "Timestamp": {"type": "string", "format": "date-time"},
    "Date": {"type": "string", "format": "date"},
    "Identifier": {
      "type": "object", "required": ["type", "id"],
      "properties": {"type": {"type": "string"}, "id": {"type": "string"}}
    },
    "LinkedIdentifier": {
      "type": "object", "required": ["type", "id"],
      "properties": {
        "type": {"type": "string"}, "id": {"type": "string"},
        "links": {"type": "object", "properties": {"self": {"type": "string"}}}
      }
    },
    "ToOne": {
      "type": "object", "required": ["data"],
      "properties": {
        "data": {"anyOf": [{"$ref": "#/components/schemas/Identifier"}, {"type": "null"}]},
        "links": {"type": "object", "properties": {"related": {"type": "string"}}}
      }
    },
    "ToMany": {
      "type": "object",
      "properties": {
        "links": {"type": "object", "properties": {"related": {"type": "string"}}},
        "data": {"type": "array", "items": {"$ref": "#/components/schemas/LinkedIdentifier"}},
        "meta": {"type": "object", "properties": {"count": {"type": "integer"}}}
      }
    },
    "AnyRelationship": {
      "anyOf": [{"$ref": "#/components/schemas/ToMany"}, {"$ref": "#/components/schemas/ToOne"}]
    },
    "ResourceLinks": {"type": "object", "properties": {"self": {"type": "string"}}},
    "AnyResource": {
      "type": "object", "required": ["type", "id"],
      "properties": {
        "type": {"type": "string"}, "id": {"type": "string"},
        "attributes": {"type": "object", "additionalProperties": true},
        "relationships": {
          "type": "object", "additionalProperties": {"$ref": "#/components/schemas/AnyRelationship"}
        },
        "links": {"$ref": "#/components/schemas/ResourceLinks"}
      }
    },
    "PageLinks": {
      "type": "object", "required": ["first", "last", "next", "prev"],
      "properties": {
        "first": {"type": "string"}, "last": {"type": "string"},
        "next": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "prev": {"anyOf": [{"type": "string"}, {"type": "null"}]}
      }
    },
    "PageMeta": {
      "type": "object", "required": ["pagination"],
      "properties": {"pagination": {
        "type": "object", "required": ["page", "pages", "count"],
        "properties": {
          "page": {"type": "integer"}, "pages": {"type": "integer"}, "count": {"type": "integer"}
        }
      }}
    },
    "CursorLinks": {
      "type": "object", "required": ["next", "prev"],
      "properties": {
        "next": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "prev": {"anyOf": [{"type": "string"}, {"type": "null"}]}
      }
    },
    "CursorMeta": {
      "type": "object", "required": ["pagination"],
      "properties": {"pagination": {
        "type": "object", "required": ["count"], "properties": {"count": {"type": "integer"}}
      }}
    },
    "KeyValue": {
      "type": "object", "required": ["key", "value"],
      "properties": {
        "key": {"type": "string"}, "value": {"anyOf": [{"type": "string"}, {"type": "number"}]}
      }
    },
    "SampleMetadata": {
      "type": "object", "required": ["key", "value", "unit"],
      "properties": {
        "key": {"type": "string"},
        "value": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        "unit": {"anyOf": [{"type": "string"}, {"type": "null"}]}
      }
    }
  })json");
  return schemas;
}

/// One resource type: its JSON:API type names, attributes and relationships.
struct ResourceShape {
  std::string name;                // schema name, e.g. "Study"
  std::vector<std::string> types;  // JSON:API `type` values
  json attributes;                 // name -> schema
  std::vector<std::string> to_one;
  std::vector<std::string> to_many;
};

json schema_ref(const std::string& name) { return {{"$ref", "#/components/schemas/" + name}}; }

const std::vector<ResourceShape>& shapes() {
  static const std::vector<ResourceShape> all = [] {
    const json text = schema_ref("Text");
    const json optional_text = schema_ref("OptionalText");
    const json count = schema_ref("Count");
    const json flag = schema_ref("Flag");
    const json timestamp = schema_ref("Timestamp");
    const json date = schema_ref("Date");
    const json number = {{"type", "number"}};
    const json optional_number = {{"anyOf", {{{"type", "number"}}, {{"type", "null"}}}}};
    const json experiment_type = {
        {"type", "string"},
        {"enum",
         {"metatranscriptomic", "metagenomic", "amplicon", "assembly", "metabarcoding", "unknown",
          "hybrid_assembly", "long_reads_assembly"}}};
    const json strings = {{"type", "array"}, {"items", text}};
    std::vector<ResourceShape> out;
    // spec: legacy-api-v1.md "Study"; reference 6.1 (is-private instead of is-public
    // today). Two of the 184 captured studies have a null bioproject.
    out.push_back({"Study",
                   {"studies"},
                   {{"bioproject", optional_text},
                    {"samples-count", count},
                    {"accession", text},
                    {"secondary-accession", text},
                    {"centre-name", text},
                    {"is-public", flag},
                    {"is-private", flag},
                    {"public-release-date", {{"anyOf", {date, {{"type", "null"}}}}}},
                    {"study-abstract", text},
                    {"study-name", text},
                    {"data-origination", text},
                    {"last-update", timestamp}},
                   {},
                   {"biomes", "studies", "samples", "geocoordinates", "publications", "analyses",
                    "downloads"}});
    out.push_back({"Biome",
                   {"biomes"},
                   {{"samples-count", count}, {"biome-name", text}, {"lineage", text}},
                   {},
                   {"samples", "children", "genomes", "studies"}});
    // spec "Sample"; host-tax-id is sent as a number or as a string (issue 14).
    out.push_back(
        {"Sample",
         {"samples"},
         {{"sample-metadata", {{"type", "array"}, {"items", schema_ref("SampleMetadata")}}},
          {"longitude", optional_number},
          {"latitude", optional_number},
          {"biosample", text},
          {"accession", text},
          {"analysis-completed", date},
          {"collection-date", {{"anyOf", {date, {{"type", "null"}}}}}},
          {"geo-loc-name", optional_text},
          {"sample-desc", text},
          {"environment-biome", text},
          {"environment-feature", text},
          {"environment-material", text},
          {"sample-name", text},
          {"sample-alias", text},
          {"host-tax-id",
           {{"anyOf", {{{"type", "integer"}}, {{"type", "string"}}, {{"type", "null"}}}}}},
          {"species", optional_text},
          {"last-update", timestamp}},
         {"biome"},
         {"runs", "studies"}});
    // reference 6.5
    out.push_back({"Run",
                   {"runs"},
                   {{"experiment-type", experiment_type},
                    {"accession", text},
                    {"secondary-accession", text},
                    {"instrument-platform", text},
                    {"instrument-model", text},
                    {"ena-study-accession", text},
                    {"is-private", flag}},
                   {"study", "sample"},
                   {"assemblies", "pipelines", "analyses", "extra-annotations"}});
    // reference 6.4
    out.push_back(
        {"Analysis",
         {"analysis-jobs"},
         {{"analysis-summary", {{"type", "array"}, {"items", schema_ref("KeyValue")}}},
          {"pipeline-version", text},
          {"analysis-status", {{"type", "string"}, {"enum", {"completed", "QC not passed"}}}},
          {"accession", text},
          {"experiment-type", experiment_type},
          {"complete-time", timestamp},
          {"instrument-platform", text},
          {"instrument-model", text},
          {"is-private", flag},
          {"last-update", timestamp},
          {"mgx-accession", optional_text}},
         {"sample", "study", "run", "assembly"},
         {"downloads", "taxonomy", "taxonomy-lsu", "taxonomy-ssu", "taxonomy-itsonedb",
          "taxonomy-itsunite", "go-terms", "go-slim", "interpro-identifiers",
          "antismash-gene-clusters", "genome-properties"}});
    // spec "Analysis contig"; no relationships
    out.push_back({"AnalysisContig",
                   {"analysis-job-contigs"},
                   {{"contig-id", text},
                    {"length", count},
                    {"coverage", number},
                    {"analysis-id", text},
                    {"accession", text},
                    {"pipeline-version", text},
                    {"job-id", count},
                    {"has-cog", flag},
                    {"has-kegg", flag},
                    {"has-go", flag},
                    {"has-pfam", flag},
                    {"has-interpro", flag},
                    {"has-antismash", flag},
                    {"has-kegg-module", flag}},
                   {},
                   {}});
    // reference 6.7
    out.push_back(
        {"Download",
         {"study-downloads", "analysis-job-downloads", "genome-downloads",
          "genome-catalogue-downloads", "run-extra-annotations", "assembly-extra-annotations"},
         {{"alias", text},
          {"file-format",
           {{"anyOf",
             {{{"type", "object"},
               {"properties", {{"name", text}, {"extension", text}, {"compression", flag}}}},
              {{"type", "null"}}}}}},
          {"description",
           {{"anyOf",
             {{{"type", "object"}, {"properties", {{"label", text}, {"description", text}}}},
              {{"type", "null"}}}}}},
          {"group-type", optional_text},
          {"file-checksum",
           {{"type", "object"},
            {"required", {"checksum", "checksum-algorithm"}},
            {"properties", {{"checksum", text}, {"checksum-algorithm", text}}}}}},
         {"pipeline"},
         {}});
    // reference 6.6
    out.push_back({"Assembly",
                   {"assemblies"},
                   {{"experiment-type", experiment_type},
                    {"accession", text},
                    {"wgs-accession", optional_text},
                    {"legacy-accession", optional_text},
                    {"coverage", optional_number},
                    {"min-gap-length", {{"anyOf", {count, {{"type", "null"}}}}}},
                    {"is-private", flag}},
                   {},
                   {"runs", "samples", "analyses", "pipelines", "extra-annotations"}});
    // reference 6.9
    json publication = json::object();
    for (const char* key :
         {"pubmed-central-id", "pub-title", "pub-abstract", "authors", "doi", "isbn", "pub-type",
          "issue", "volume", "raw-pages", "iso-journal", "medline-journal", "pub-url"}) {
      publication[key] = optional_text;
    }
    publication["pubmed-id"] = count;
    publication["published-year"] = {{"anyOf", {count, {{"type", "null"}}}}};
    publication["studies-count"] = count;
    publication["samples-count"] = count;
    out.push_back({"Publication", {"publications"}, publication, {}, {"studies", "samples"}});
    out.push_back(
        {"ExperimentType",
         {"experiment-types"},
         {{"experiment-type", experiment_type}, {"samples-count", count}, {"runs-count", count}},
         {},
         {"samples", "runs", "analyses"}});
    out.push_back({"Pipeline",
                   {"pipelines"},
                   {{"description", text},
                    {"changes", text},
                    {"release-version", text},
                    {"release-date", date},
                    {"samples-count", count},
                    {"analyses-count", count}},
                   {},
                   {"samples", "analyses", "tools"}});
    // reference 6.8: catalogue-wide entries, and per-analysis ones with count
    out.push_back(
        {"GoTerm",
         {"go-terms"},
         {{"accession", text}, {"description", text}, {"lineage", text}, {"count", count}},
         {},
         {"analyses"}});
    out.push_back({"InterproIdentifier",
                   {"interpro-identifiers"},
                   {{"accession", text}, {"description", text}, {"count", count}},
                   {},
                   {"analyses"}});
    out.push_back({"KeggModule",
                   {"kegg-modules"},
                   {{"accession", text},
                    {"description", text},
                    {"name", text},
                    {"completeness", number},
                    {"matching-kos", strings},
                    {"missing-kos", strings}},
                   {},
                   {}});
    out.push_back({"GenomeProperty",
                   {"genome-properties"},
                   {{"accession", text},
                    {"description", text},
                    {"presence", {{"type", "string"}, {"enum", {"Yes", "Partial", "No"}}}},
                    {"count", count}},
                   {},
                   {}});
    out.push_back({"Organism",
                   {"organisms"},
                   {{"lineage", text},
                    {"hierarchy", {{"type", "object"}, {"additionalProperties", text}}},
                    {"domain", text},
                    {"name", text},
                    {"parent", text},
                    {"rank", text},
                    {"pipeline-version", text},
                    {"count", count}},
                   {},
                   {}});
    // reference 6.9: "~40 numeric attributes incl. n-50, rna-5-8s, gc-content,
    // completeness, taxon-lineage, geographic-range list"
    json genome = json::object();
    for (const char* key :
         {"ena-genome-accession", "ena-sample-accession", "ena-study-accession",
          "ncbi-genome-accession", "ncbi-sample-accession", "ncbi-study-accession",
          "img-genome-accession", "patric-genome-accession", "geographic-origin"}) {
      genome[key] = optional_text;
    }
    for (const char* key : {"length", "num-contigs", "n-50", "trnas", "nc-rnas", "num-proteins",
                            "num-genomes-total", "num-genomes-non-redundant", "pangenome-size",
                            "pangenome-core-size", "pangenome-accessory-size"}) {
      genome[key] = {{"anyOf", {count, {{"type", "null"}}}}};
    }
    for (const char* key :
         {"gc-content", "completeness", "contamination", "rna-5s", "rna-16s", "rna-23s", "rna-5-8s",
          "rna-18s", "rna-28s", "eggnog-coverage", "ipr-coverage"}) {
      genome[key] = optional_number;
    }
    genome["accession"] = text;
    genome["type"] = {{"type", "string"}, {"enum", {"MAG", "Isolate"}}};
    genome["taxon-lineage"] = text;
    genome["geographic-range"] = {{"anyOf", {strings, {{"type", "null"}}}}};
    genome["last-update"] = timestamp;
    genome["first-created"] = timestamp;
    out.push_back({"Genome", {"genomes"}, genome, {"catalogue"}, {"downloads"}});
    out.push_back({"GenomeCatalogue",
                   {"genome-catalogues"},
                   {{"catalogue-id", text},
                    {"version", text},
                    {"name", text},
                    {"description", optional_text},
                    {"protein-catalogue-name", optional_text},
                    {"protein-catalogue-description", optional_text},
                    {"catalogue-biome-label", text},
                    {"catalogue-type", text},
                    {"genome-count", {{"anyOf", {count, {{"type", "null"}}}}}},
                    {"unclustered-genome-count", {{"anyOf", {count, {{"type", "null"}}}}}},
                    {"last-update", timestamp}},
                   {},
                   {"genomes", "downloads"}});
    out.push_back({"SuperStudy",
                   {"super-studies"},
                   {{"super-study-id", count},
                    {"title", text},
                    {"url-slug", text},
                    {"description", optional_text},
                    {"image-url", optional_text}},
                   {},
                   {"flagship-studies", "related-studies", "biomes"}});
    return out;
  }();
  return all;
}

/// The whole schema document: the shared pieces, a resource schema per shape,
/// and for each a list page ("<name>Page"; cursor-paginated for contigs) and a
/// single-resource document ("<name>Document").
const json& schema_document() {
  static const json doc = [] {
    json schemas = base_schemas();
    for (const auto& shape : shapes()) {
      json relationships = json::object();
      for (const auto& r : shape.to_one) relationships[r] = schema_ref("ToOne");
      for (const auto& r : shape.to_many) relationships[r] = schema_ref("ToMany");
      json resource = {{"type", "object"},
                       {"required", {"type", "id", "attributes"}},
                       {"properties",
                        {{"type", {{"type", "string"}, {"enum", shape.types}}},
                         {"id", {{"type", "string"}}},
                         {"attributes", {{"type", "object"}, {"properties", shape.attributes}}},
                         {"links", schema_ref("ResourceLinks")}}}};
      if (!relationships.empty()) {
        // Every member of `relationships` is a relationship object (JSON:API),
        // so members no document names are generated as relationships too.
        resource["properties"]["relationships"] = {
            {"type", "object"},
            {"properties", relationships},
            {"additionalProperties", schema_ref("AnyRelationship")}};
      }
      schemas[shape.name] = resource;
      const bool cursor = shape.name == "AnalysisContig";
      schemas[shape.name + "Page"] = {
          {"type", "object"},
          {"required", {"links", "data", "meta"}},
          {"properties",
           {{"links", schema_ref(cursor ? "CursorLinks" : "PageLinks")},
            {"data", {{"type", "array"}, {"items", schema_ref(shape.name)}}},
            {"meta", schema_ref(cursor ? "CursorMeta" : "PageMeta")},
            {"included", {{"type", "array"}, {"items", schema_ref("AnyResource")}}}}}};
      schemas[shape.name + "Document"] = {
          {"type", "object"},
          {"required", {"data"}},
          {"properties",
           {{"data", schema_ref(shape.name)},
            {"included", {{"type", "array"}, {"items", schema_ref("AnyResource")}}}}}};
    }
    schemas["AnyResourcePage"] = schemas["StudyPage"];
    schemas["AnyResourcePage"]["properties"]["data"]["items"] = schema_ref("AnyResource");
    return json{{"components", {{"schemas", schemas}}}};
  }();
  return doc;
}

template <class T>
void add_model(std::map<std::string, si::Checker>& table, const std::string& name) {
  table[name + "Page"] = &si::check_model<v1::ListPage<T>>;
  table[name + "Document"] = &si::check_model<v1::Document<T>>;
}

/// Document schema name -> SDK type. Every "...Page" and "...Document" schema
/// must have an entry.
const std::map<std::string, si::Checker>& model_table() {
  static const std::map<std::string, si::Checker> table = [] {
    std::map<std::string, si::Checker> t;
    add_model<v1::Study>(t, "Study");
    add_model<v1::Biome>(t, "Biome");
    add_model<v1::Sample>(t, "Sample");
    add_model<v1::Run>(t, "Run");
    add_model<v1::Analysis>(t, "Analysis");
    add_model<v1::AnalysisContig>(t, "AnalysisContig");
    add_model<v1::Download>(t, "Download");
    add_model<v1::Assembly>(t, "Assembly");
    add_model<v1::Publication>(t, "Publication");
    add_model<v1::ExperimentType>(t, "ExperimentType");
    add_model<v1::Pipeline>(t, "Pipeline");
    add_model<v1::GoTerm>(t, "GoTerm");
    add_model<v1::InterproIdentifier>(t, "InterproIdentifier");
    add_model<v1::KeggModule>(t, "KeggModule");
    add_model<v1::GenomeProperty>(t, "GenomeProperty");
    add_model<v1::Organism>(t, "Organism");
    add_model<v1::Genome>(t, "Genome");
    add_model<v1::GenomeCatalogue>(t, "GenomeCatalogue");
    add_model<v1::SuperStudy>(t, "SuperStudy");
    t["AnyResourcePage"] = &si::check_model<v1::ListPage<v1::Resource>>;
    return t;
  }();
  return table;
}

bool is_document_schema(const std::string& name) {
  auto ends_with = [&name](const std::string& tail) {
    return name.size() > tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  return ends_with("Page") || ends_with("Document");
}

/// Failures in code this test may not change (v1/, detail/). None today; a new
/// entry needs a [!mayfail] test case calling report_known_failures (see
/// tests/core/schema_instances.hpp).
const std::vector<si::KnownFailure>& known_failures() {
  static const std::vector<si::KnownFailure> known = {};
  return known;
}

/// Runs every document schema, or with `only_known` those a known failure names.
si::Report run_all(bool only_known = false) {
  return si::run_schemas("v1", schema_document(), model_table(), known_failures(),
                         [only_known](const std::string& name) {
                           return is_document_schema(name) &&
                                  (!only_known || si::named_by(known_failures(), "v1 / " + name));
                         });
}

json read_json(const std::filesystem::path& path) { return si::read_json_file(path.string()); }

void expect_valid(const std::string& label, const std::string& schema, const json& instance) {
  std::vector<std::string> errors;
  const json& doc = schema_document();
  si::validate(doc, doc.at("components").at("schemas").at(schema), instance, "", errors);
  std::string listed;
  for (const auto& e : errors) listed += "\n  " + e;
  INFO(label << " against " << schema << listed);
  CHECK(errors.empty());
}

}  // namespace v1_schema_test

TEST_CASE("the hand-written v1 schema accepts the captured v1 responses", "[v1][schema]") {
  namespace t = v1_schema_test;
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: the schema is not held against captures");
  const auto dir = std::filesystem::path(fixtures) / "v1";
  const std::map<std::string, std::string> documents = {
      {"dev_samples_list_lineage_root.json", "SamplePage"},
      {"prod_study_downloads_list_MGYS00001392.json", "DownloadPage"},
      {"dev_analysis_interpro_identifiers_page1_MGYA00141547.json", "InterproIdentifierPage"},
      {"dev_sample_detail_ERS434640.json", "SampleDocument"},
      {"dev_assembly_detail_ERZ477708_EDITED.json", "AssemblyDocument"},
  };
  for (const auto& [file, schema] : documents)
    t::expect_valid(file, schema, t::read_json(dir / file));
  // 184 production study objects (the data arrays of every page, concatenated).
  const auto studies = t::read_json(dir / "prod_studies_data_items_biome_wastewater.json");
  REQUIRE(studies.size() == 184);
  for (std::size_t i = 0; i < studies.size(); ++i) {
    t::expect_valid("study " + std::to_string(i), "Study", studies[i]);
  }
  // The documentation elided 24 of the 25 contigs as the string "...".
  auto contigs = t::read_json(dir / "docs_contigs_cursor_page_MGYA00585528_ELIDED.json");
  auto& data = contigs.at("data");
  data.erase(std::remove(data.begin(), data.end(), nlohmann::json("...")), data.end());
  REQUIRE(data.size() == 1);
  t::expect_valid("docs_contigs_cursor_page_MGYA00585528_ELIDED.json", "AnalysisContigPage",
                  contigs);
}

TEST_CASE("documents generated from the v1 schema decode both ways alike and round-trip",
          "[v1][schema]") {
  namespace t = v1_schema_test;
  const auto report = t::run_all();
  WARN(mgnify::test::schema_instances::summary("v1 schemas (written from shared/spec/legacy-api-v1.md)", report));
  mgnify::test::schema_instances::expect_no_unexpected_failures(report, t::known_failures());
  CHECK(report.per_schema.size() == t::model_table().size());
  REQUIRE(report.documents >= 800);  // 39 schemas with 20 to 58 distinct variants each
}
