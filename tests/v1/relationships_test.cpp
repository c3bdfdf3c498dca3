// Each v1 model's declared relationships (its static relationships(v))
// against the captured real responses in <fixtures>/v1: a relationship a
// record carries that its model does not declare would get a table column
// only when some record arrived, and never in the header of an empty listing.

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <type_traits>

#include "core/schema_instances.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/v1.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace mgnify::v1;

// Named, not anonymous: the unity build puts this file with the suite's others.
namespace v1_relationships_test {

/// What a model declares: each relationship's name, and whether it is one
/// that arrives with the related ids.
struct Declared {
  std::map<std::string, bool> arrives_with_ids;

  void with_ids(const char* name) { arrives_with_ids[name] = true; }
  void link_only(const char* name) { arrives_with_ids[name] = false; }
};

template <class M>
Declared declared() {
  static_assert(mgnify::detail::wraps_resource<M>::value, "a v1 resource model");
  static_assert(mgnify::detail::has_relationships<M>::value,
                "every v1 resource model declares its relationships");
  Declared d;
  M::relationships(d);
  return d;
}

/// The model of each JSON:API type the v1 service sends (reference/v1-api.md).
const std::map<std::string, std::function<Declared()>>& models_by_type() {
  static const std::map<std::string, std::function<Declared()>> models = {
      {"studies", declared<Study>},
      {"biomes", declared<Biome>},
      {"samples", declared<Sample>},
      {"runs", declared<Run>},
      {"assemblies", declared<Assembly>},
      {"analysis-jobs", declared<Analysis>},
      {"analysis-job-contigs", declared<AnalysisContig>},
      {"pipelines", declared<Pipeline>},
      {"pipeline-tools", declared<PipelineTool>},
      {"study-downloads", declared<Download>},
      {"analysis-job-downloads", declared<Download>},
      {"genome-downloads", declared<Download>},
      {"genome-catalogue-downloads", declared<Download>},
      {"run-extra-annotations", declared<Download>},
      {"assembly-extra-annotations", declared<Download>},
      {"publications", declared<Publication>},
      {"super-studies", declared<SuperStudy>},
      {"experiment-types", declared<ExperimentType>},
      {"sample-anns", declared<SampleAnnotation>},
      {"go-terms", declared<GoTerm>},
      {"interpro-identifiers", declared<InterproIdentifier>},
      {"pfam-entries", declared<PfamEntry>},
      {"kegg-orthologs", declared<KeggOrtholog>},
      {"kegg-modules", declared<KeggModule>},
      {"genome-properties", declared<GenomeProperty>},
      {"antismash-gene-clusters", declared<AntismashGeneCluster>},
      {"organisms", declared<Organism>},
      {"genomes", declared<Genome>},
      {"genome-catalogues", declared<GenomeCatalogue>},
      {"genome-sets", declared<GenomeSet>},
      {"cogs", declared<CogCategory>},
      {"antismash-genecluster", declared<GenomeAntismashCluster>},
      {"kegg-classes", declared<KeggClass>},
  };
  return models;
}

// Sent as `kegg-modules` too, like KeggModule: not in the map above.
static_assert(mgnify::detail::has_relationships<GenomeKeggModule>::value,
              "every v1 resource model declares its relationships");

/// A resource object (not a relationship's {type, id} reference): it has
/// attributes or relationships of its own.
bool is_resource(const nlohmann::json& j) {
  return j.is_object() && j.contains("type") && j["type"].is_string() && j.contains("id") &&
         ((j.contains("attributes") && j["attributes"].is_object()) ||
          (j.contains("relationships") && j["relationships"].is_object()));
}

/// Checks every resource in `doc` (data, included, a bare array) against its
/// model's declaration; counts the relationships checked.
void check_resources(const nlohmann::json& doc, std::size_t& checked) {
  if (doc.is_array()) {
    for (const auto& item : doc) check_resources(item, checked);
    return;
  }
  if (!doc.is_object()) return;
  if (is_resource(doc)) {
    const std::string type = doc["type"];
    INFO("a resource of type " << type << ", id " << doc["id"].dump());
    const auto model = models_by_type().find(type);
    REQUIRE(model != models_by_type().end());
    const Declared d = model->second();
    const auto relationships = doc.find("relationships");
    if (relationships != doc.end() && relationships->is_object()) {
      for (const auto& [name, relationship] : relationships->items()) {
        INFO("relationship " << name);
        const auto it = d.arrives_with_ids.find(name);
        CHECK(it != d.arrives_with_ids.end());
        // One that arrived with ids makes a column: its model must say so.
        if (it != d.arrives_with_ids.end() && relationship.is_object() &&
            relationship.contains("data")) {
          CHECK(it->second);
        }
        ++checked;
      }
    }
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "relationships") check_resources(value, checked);
  }
}

}  // namespace v1_relationships_test

TEST_CASE("every relationship a captured v1 record carries is one its model declares",
          "[v1][models][relationships]") {
  namespace t = v1_relationships_test;
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST(
        "MGNIFY_FIXTURES_DIR is empty: the declarations are not held against captures");
  const auto dir = fs::path(fixtures) / "v1";
  std::size_t checked = 0;
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    files.insert(entry.path().filename().string());
    INFO("fixture " << entry.path().filename().string());
    t::check_resources(mgnify::test::schema_instances::read_json_file(entry.path().string()),
                       checked);
  }
  CHECK(files.count("dev_sample_detail_ERS434640.json") == 1);
  CHECK(files.count("prod_studies_data_items_biome_wastewater.json") == 1);
  // The captures hold samples, studies, assemblies, downloads and InterPro entries.
  CHECK(checked > 184);
}

TEST_CASE("a v1 model's declared relationships: those that arrive with ids, and links",
          "[v1][models][relationships]") {
  using v1_relationships_test::declared;
  const auto sample = declared<Sample>().arrives_with_ids;
  CHECK(sample == std::map<std::string, bool>{{"biome", true}, {"studies", true}, {"runs", false}});
  const auto analysis = declared<Analysis>().arrives_with_ids;
  for (const char* to_one : {"sample", "study", "run", "assembly"}) CHECK(analysis.at(to_one));
  CHECK_FALSE(analysis.at("downloads"));
  // A derived model has its base's list.
  CHECK(declared<InterproIdentifier>().arrives_with_ids ==
        std::map<std::string, bool>{{"analyses", false}});
}
