// Round trips of every model with a field table (v2, proteins, genome search, and v1's
// attribute tables and sub-objects), derived from the table itself: a document with every field set
// decodes (through nlohmann and through the simdjson page reader), re-encodes to the same document,
// and after every typed field is changed, encodes the new values and still keeps members the SDK
// does not know. Absent and null stay distinct for every field that is not required. The types
// whose from_json/to_json are written by hand (values, envelopes) have checks of their own. The
// last test case scans every header under include/mgnify, so a model added anywhere is covered.

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "mgnify/auth.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/open_integer.hpp"
#include "mgnify/open_number.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/proteins/fast_decode.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v1/fast_decode.hpp"
#include "mgnify/v2.hpp"
#include "mgnify/v2/fast_decode.hpp"

namespace {

using nlohmann::json;

// Every v2 model with a field table. The last test case checks this list
// against the headers, so a model added later cannot be left out.
// One model per line; clang-format 14 reflows these lists differently as the file changes.
// clang-format off
#define MGNIFY_V2_TABLE_MODELS(X) \
  X(Study) \
  X(StudyDetail) \
  X(StudyIdentifier) \
  X(Sample) \
  X(SampleWithMetadata) \
  X(SampleDetail) \
  X(Analysis) \
  X(AnalysisDetail) \
  X(AnalysisWithAnnotations) \
  X(AnalysisTypedAnnotation) \
  X(AnalysedRun) \
  X(AnalysedRunDetail) \
  X(Assembly) \
  X(AssemblyDetail) \
  X(GenomeSchema) \
  X(GenomeAssemblyLinkSchema) \
  X(AdditionalContainedGenomeSchema) \
  X(Biome) \
  X(Publication) \
  X(PublicationDetail) \
  X(EuropePmcAnnotationTag) \
  X(EuropePmcAnnotationMention) \
  X(EuropePmcAnnotation) \
  X(EuropePmcAnnotationGroup) \
  X(PublicationAnnotations) \
  X(SuperStudy) \
  X(SuperStudyDetail) \
  X(GenomeCatalogue) \
  X(GenomeCatalogueDetail) \
  X(Genome) \
  X(GenomeDetail) \
  X(GenomeWithAnnotations) \
  X(DownloadFile) \
  X(IndexFile)

// Models of include/mgnify itself (shared by the clients): their name and the
// type checked, one per client's genome for the genome search templates.
#define MGNIFY_SHARED_TABLE_MODELS(X) \
  X(CobsMatch, mgnify::CobsMatch) \
  X(BasicGenomeSearchHit, mgnify::v2::GenomeSearchHit) \
  X(BasicGenomeSearchHit, mgnify::v1::GenomeSearchHit) \
  X(BasicGenomeSearchResult, mgnify::v2::GenomeSearchResult) \
  X(BasicGenomeSearchResult, mgnify::v1::GenomeSearchResult) \
  X(GatherMatch, mgnify::GatherMatch) \
  X(GatherSignatureStatus, mgnify::GatherSignatureStatus) \
  X(GatherStatus, mgnify::GatherStatus) \
  X(GatherJob, mgnify::GatherJob)

#define MGNIFY_PROTEIN_TABLE_MODELS(X) \
  X(BiomeEntry) \
  X(PfamAnnotation) \
  X(ContigEntry) \
  X(Protein) \
  X(SearchHit) \
  X(SequenceSearchDomain) \
  X(SequenceSearchHit) \
  X(SequenceSearchStats) \
  X(SequenceSearchResults) \
  X(SequenceSearchResponse)

// v1: the sub-objects with a field table, and the typed resources whose
// fields() table lists the attributes of their JSON:API resource.
#define MGNIFY_V1_TABLE_MODELS(X) \
  X(KeyValue) \
  X(SampleMetadata) \
  X(FileFormat) \
  X(DownloadDescription) \
  X(FileChecksum)
#define MGNIFY_V1_RESOURCE_MODELS(X) \
  X(Analysis) \
  X(AnalysisContig) \
  X(Pipeline) \
  X(Download) \
  X(GoTerm) \
  X(InterproIdentifier) \
  X(PfamEntry) \
  X(KeggOrtholog) \
  X(AntismashGeneCluster) \
  X(KeggModule) \
  X(GenomeProperty) \
  X(Organism) \
  X(Genome) \
  X(GenomeCatalogue) \
  X(Sample) \
  X(Run) \
  X(Assembly) \
  X(ExperimentType) \
  X(Study) \
  X(Biome) \
  X(Publication) \
  X(SuperStudy) \
  X(SampleAnnotation) \
  X(PipelineTool) \
  X(GenomeSet) \
  X(CogCategory) \
  X(KeggClass) \
  X(GenomeKeggModule) \
  X(GenomeAntismashCluster)
// clang-format on

template <class T>
struct is_enumerated : std::false_type {};
template <class E>
struct is_enumerated<mgnify::v2::Enumerated<E>> : std::true_type {};

template <class T>
json sample(int variant);

/// Fills a JSON object with a sample value for every entry of a field table.
struct SampleWriter {
  json& out;
  int variant;
  template <class T>
  void required(const char* key, const T&) {
    out[key] = sample<T>(variant);
  }
  template <class T>
  void optional(const char* key, const std::optional<T>&) {
    out[key] = sample<T>(variant);
  }
  template <class T>
  void defaulted(const char* key, const T&) {
    out[key] = sample<T>(variant);
  }
  // A bare number in one variant: it must come back as a number, not as text.
  void scalar_text(const char* key, const std::string&) {
    out[key] = variant == 1 ? json(7.5) : json("text, not a number");
  }
  // Under its current name; check_former_names sends the older one.
  template <class T>
  void renamed(const char* key, const char*, const std::optional<T>&) {
    out[key] = sample<T>(variant);
  }
};

/// A value of type T as JSON; variant 1 and 2 differ in every leaf.
template <class T>
json sample(int variant) {
  if constexpr (mgnify::detail::has_fields<T>::value) {
    json out = json::object();
    SampleWriter writer{out, variant};
    const T fresh{};
    T::fields(fresh, writer);
    return out;
  } else if constexpr (mgnify::detail::is_std_vector<T>::value) {
    json out = json::array();
    for (int i = 0; i < variant; ++i) out.push_back(sample<typename T::value_type>(variant + i));
    return out;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return variant == 1 ? "text one, Zürich" : "text two \u00b5m";
  } else if constexpr (std::is_same_v<T, bool>) {
    return variant == 1;
  } else if constexpr (std::is_integral_v<T>) {
    return variant == 1 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  } else if constexpr (std::is_floating_point_v<T>) {
    return variant == 1 ? 0.25 : 1e-300;
  } else if constexpr (std::is_same_v<T, json>) {
    return json{{"free form", variant}, {"list", json::array({variant, "x"})}};
  } else if constexpr (std::is_same_v<T, mgnify::OpenInteger>) {
    return variant == 1 ? json("not a number") : json(-7);
  } else if constexpr (std::is_same_v<T, mgnify::OpenNumber>) {
    return variant == 1 ? json("253.2") : json(-181.5);
  } else if constexpr (std::is_same_v<T, mgnify::v1::Timestamp>) {
    return variant == 1 ? "2016-03-15T00:05:04" : "not a date the SDK can read";
  } else if constexpr (std::is_same_v<T, mgnify::v2::DateTime>) {
    return variant == 1 ? "2024-03-01T12:00:00Z" : "2025-07-15T08:30:00.123456+02:00";
  } else if constexpr (std::is_same_v<T, mgnify::proteins::StrandValue>) {
    return variant == 1 ? json("sideways") : json(-1);
  } else if constexpr (is_enumerated<T>::value) {
    return variant == 1 ? "a value this SDK does not know" : "another unknown value";
  } else {
    // Any other type: its own encoding of a default value.
    return json(T{});
  }
}

/// Sets every typed field of a model from the same key of `source`.
struct FieldsFrom {
  const json& source;
  template <class T>
  void required(const char* key, T& member) const {
    member = source.at(key).get<T>();
  }
  template <class T>
  void optional(const char* key, std::optional<T>& member) const {
    member = source.at(key).get<T>();
  }
  template <class T>
  void defaulted(const char* key, T& member) const {
    member = source.at(key).get<T>();
  }
  void scalar_text(const char* key, std::string& member) const {
    member = mgnify::detail::json_scalar_text(source.at(key));
  }
  template <class T>
  void renamed(const char* key, const char*, std::optional<T>& member) const {
    member = source.at(key).get<T>();
  }
};

/// The keys of a table that may be absent or null.
struct NullableKeys {
  std::vector<std::string> keys;
  template <class T>
  void required(const char*, const T&) {}
  template <class T>
  void optional(const char* key, const T&) {
    keys.emplace_back(key);
  }
  template <class T>
  void defaulted(const char* key, const T&) {
    keys.emplace_back(key);
  }
  void scalar_text(const char* key, const std::string&) { keys.emplace_back(key); }
  template <class T>
  void renamed(const char* key, const char* former, const T&) {
    keys.emplace_back(key);
    keys.emplace_back(former);
  }
};

/// The renamed entries of a table: current name, older name, and whether the
/// value is a list (which the older name may carry as its one element alone).
struct FormerNames {
  struct Entry {
    std::string key;
    std::string former;
    bool list;
  };
  std::vector<Entry> entries;
  template <class T>
  void required(const char*, const T&) {}
  template <class T>
  void optional(const char*, const T&) {}
  template <class T>
  void defaulted(const char*, const T&) {}
  void scalar_text(const char*, const std::string&) {}
  template <class T>
  void renamed(const char* key, const char* former, const std::optional<T>&) {
    entries.push_back({key, former, mgnify::detail::is_std_vector<T>::value});
  }
};

const char* const kUnknown = "member_the_sdk_does_not_know";

/// What the checks need of one model type, as plain functions. The checks
/// themselves are written once, for every model: instantiated for each of the
/// ~90 models, their JSON temporaries and assertions would make this file the
/// costliest of the test build to compile.
struct ModelOps {
  json (*sample)(int variant);             // every typed field set (v1: the attributes)
  json (*reencode)(const json& document);  // decoded through nlohmann, encoded again
  json (*with_fields)(const json& document, const json& values);  // each typed field from values
  json (*detached)(const json& document);  // decoded, its received text dropped, encoded
  std::vector<std::string> (*nullable_keys)();
  std::vector<FormerNames::Entry> (*former_names)();
  // A page of such items (v2 and table models: a v2 page; v1 resources: a v1 page),
  // decoded by the simdjson reader (and, for v1, by nlohmann too), encoded again.
  json (*reencode_page_fast)(const std::string& page);
  json (*reencode_page)(const json& page);
};

template <class M>
json reencode(const json& document) {
  return json(document.get<M>());
}
template <class M>
json with_fields(const json& document, const json& values) {
  M model = document.get<M>();
  const FieldsFrom from{values};
  M::fields(model, from);
  return json(model);
}
template <class M>
json detached(const json& document) {
  M model = document.get<M>();
  model.raw = mgnify::RawJson();
  return json(model);
}
/// What `Visitor` collects from the field table of M.
template <class M, class Visitor>
Visitor visited_fields() {
  Visitor visitor;
  const M fresh{};
  M::fields(fresh, visitor);
  return visitor;
}
template <class M>
std::vector<std::string> nullable_keys() {
  return visited_fields<M, NullableKeys>().keys;
}
template <class M>
std::vector<FormerNames::Entry> former_names() {
  return visited_fields<M, FormerNames>().entries;
}
template <class M>
json reencode_v2_page_items(const std::string& page) {
  return json(
      mgnify::detail::decode_body<mgnify::v2::CountedPage<M>>(page, "https://test/page").items);
}

/// A model with a field table of its own, checked as an item of a v2 page.
template <class M>
ModelOps table_model_ops() {
  return {&sample<M>,
          &reencode<M>,
          &with_fields<M>,
          &detached<M>,
          &nullable_keys<M>,
          &former_names<M>,
          &reencode_v2_page_items<M>,
          nullptr};
}

/// Each of `keys` in the object at `fields` of `full`, left out and then sent
/// as null: both documents decode and re-encode unchanged.
void check_absent_and_null(const ModelOps& ops, const json& full,
                           const json::json_pointer& fields) {
  for (const auto& key : ops.nullable_keys()) {
    INFO("field " << key);
    json absent = full;
    absent[fields].erase(key);
    CHECK(ops.reencode(absent) == absent);
    json null = full;
    null[fields][key] = nullptr;
    CHECK(ops.reencode(null) == null);
  }
}

/// A v2 page of one item, as the simdjson reader sees it.
std::string one_item_page(const json& item) {
  return json{{"count", 1}, {"items", json::array({item})}}.dump();
}

// Plain blocks rather than SECTIONs: Catch runs a section once per test case
// run, and this helper runs once per model within one run.
void check_round_trips(const char* name, const ModelOps& ops) {
  INFO("model " << name);
  json full = ops.sample(1);
  full[kUnknown] = json{{"nested", json::array({1, 2})}};

  {
    INFO("decoded and re-encoded unchanged, through nlohmann and through simdjson");
    CHECK(ops.reencode(full) == full);
    CHECK(ops.reencode_page_fast(one_item_page(full)) == json::array({full}));
  }

  {
    INFO("every typed field changed: the new values are written, unknown members kept");
    const json changed = ops.sample(2);
    json expected = changed;
    expected[kUnknown] = full[kUnknown];
    CHECK(ops.with_fields(full, changed) == expected);
  }

  {
    INFO("absent and null stay distinct");
    check_absent_and_null(ops, full, json::json_pointer(""));
  }

  {
    INFO("a value sent under its older name is read from there and written back there");
    for (const auto& entry : ops.former_names()) {
      INFO("field " << entry.key << ", formerly " << entry.former);
      std::vector<json> forms;
      json as_former = full;
      as_former[entry.former] = as_former[entry.key];
      as_former.erase(entry.key);
      forms.push_back(as_former);
      as_former[entry.key] = nullptr;  // null under the current name: the older one counts
      forms.push_back(as_former);
      if (entry.list && full[entry.key].size() == 1) {
        json single = full;
        single[entry.former] = full[entry.key][0];
        single.erase(entry.key);
        forms.push_back(single);
      }
      // Without the document it came from, a model writes the current name.
      const json from_full = ops.detached(full);
      for (const auto& form : forms) {
        INFO(form.dump());
        CHECK(ops.reencode(form) == form);
        CHECK(ops.detached(form).value(entry.key, json("(absent)")) ==
              from_full.value(entry.key, json("(absent)")));
        CHECK(ops.reencode_page_fast(one_item_page(form)) == json::array({form}));
      }
    }
  }
}

/// The attributes of a v1 model as its fields() table fills them.
template <class M>
json sample_attributes(int variant) {
  json out = json::object();
  SampleWriter writer{out, variant};
  const M fresh{};
  M::fields(fresh, writer);
  return out;
}

/// A v1 resource around `attributes`, with relationships of every shape and
/// members the SDK does not name at every level.
json v1_resource(const json& attributes) {
  return json{
      {"type", "things"},
      {"id", "thing-1"},
      {"attributes", attributes},
      {"relationships",
       {{"biome",
         {{"links", {{"related", "https://test/biomes/root"}, {kUnknown, 1}}},
          {"data", {{"type", "biomes"}, {"id", "root:Host"}, {"links", {{"self", "https://b"}}}}}}},
        {"samples",
         {{"links", {{"related", "https://test/samples"}}},
          {"data", json::array({json{{"type", "samples"}, {"id", "S1"}},
                                json{{"type", "samples"}, {"id", "S2"}, {kUnknown, true}}})},
          {"meta", {{"count", 2}, {kUnknown, "x"}}}}},
        {"runs", {{"data", nullptr}, {"links", {{"related", nullptr}}}}},
        {"studies", {{"links", {{"related", "https://test/studies"}}}}}}},
      {"links", {{"self", "https://test/things/thing-1"}, {kUnknown, "y"}}},
      {kUnknown, {{"nested", json::array({1, 2})}}}};
}

/// A v1 list page around `items`: cursor-style links (no first/last), one
/// of them null, and members the SDK does not name.
json v1_page(const json& items) {
  return json{{"data", items},
              {"links", {{"next", nullptr}, {"prev", "https://test/things?cursor=a"}}},
              {"meta", {{"pagination", {{"count", 1}}}, {kUnknown, 3}}},
              {kUnknown, "envelope member"}};
}

template <class M>
json reencode_v1_page(const json& page) {
  return json(page.get<mgnify::v1::ListPage<M>>());
}
template <class M>
json reencode_v1_page_fast(const std::string& page) {
  return json(mgnify::detail::decode_body<mgnify::v1::ListPage<M>>(page, "https://test/page"));
}

/// A typed v1 resource, whose table lists the attributes of its JSON:API resource.
template <class M>
ModelOps v1_resource_ops() {
  return {&sample_attributes<M>, &reencode<M>, &with_fields<M>,           nullptr,
          &nullable_keys<M>,     nullptr,      &reencode_v1_page_fast<M>, &reencode_v1_page<M>};
}

void check_v1_round_trips(const char* name, const ModelOps& ops) {
  INFO("v1 model " << name);
  json attributes = ops.sample(1);
  attributes[kUnknown] = json{{"nested", true}};
  const json full = v1_resource(attributes);

  {
    INFO("decoded and re-encoded unchanged, through nlohmann and through simdjson");
    CHECK(ops.reencode(full) == full);
    const json page = v1_page(json::array({full}));
    CHECK(ops.reencode_page(page) == page);
    CHECK(ops.reencode_page_fast(page.dump()) == page);
  }

  {
    INFO("every typed attribute changed: the new values are written, unknown members kept");
    const json changed = ops.sample(2);
    json expected = full;
    expected["attributes"] = changed;
    expected["attributes"][kUnknown] = attributes[kUnknown];
    // The table's fields are the attributes: they are set from the new attributes.
    CHECK(ops.with_fields(full, changed) == expected);
  }

  {
    INFO("absent and null attributes stay distinct");
    check_absent_and_null(ops, full, json::json_pointer("/attributes"));
  }
}

}  // namespace

namespace {

struct Tally {
  std::int64_t count = 0;
  mgnify::RawJson raw;
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("count", self.count);
  }
};
MGNIFY_JSON_FIELDS(Tally, "tally")

}  // namespace

TEST_CASE("a defaulted integer sent as the string \"0\" goes back as sent",
          "[models][round-trip]") {
  const json sent = {{"count", "0"}};
  const auto tally = sent.get<Tally>();
  CHECK(tally.count == 0);
  CHECK(json(tally) == sent);
}

TEST_CASE("an integer sent as a string is read as its value and written back as sent",
          "[models][round-trip]") {
  const json sent = {{"accession", "MGYG000000001"}, {"length", "3000000"}, {"num_contigs", 12}};
  auto genome = sent.get<mgnify::v2::Genome>();
  CHECK(genome.length == std::optional<std::int64_t>(3000000));
  CHECK(json(genome) == sent);
  const auto page = json{{"count", 1}, {"items", json::array({sent})}}.dump();
  CHECK(json(mgnify::detail::decode_body<mgnify::v2::CountedPage<mgnify::v2::Genome>>(page, "u")
                 .items.at(0)) == sent);
  genome.length = 42;
  CHECK(json(genome).at("length") == 42);
}

#define MGNIFY_V2_ROUND_TRIP(Model) check_round_trips(#Model, table_model_ops<mgnify::v2::Model>());
#define MGNIFY_PROTEIN_ROUND_TRIP(Model) \
  check_round_trips(#Model, table_model_ops<mgnify::proteins::Model>());
#define MGNIFY_MODEL_NAME(Model) #Model,

TEST_CASE("v2 models: exact round trips derived from each field table",
          "[v2][models][round-trip]"){MGNIFY_V2_TABLE_MODELS(MGNIFY_V2_ROUND_TRIP)}
#define MGNIFY_V1_ROUND_TRIP(Model) check_round_trips(#Model, table_model_ops<mgnify::v1::Model>());
#define MGNIFY_V1_RESOURCE_ROUND_TRIP(Model) \
  check_v1_round_trips(#Model, v1_resource_ops<mgnify::v1::Model>());

TEST_CASE("v1 models: exact round trips derived from each field table",
          "[v1][models][round-trip]"){MGNIFY_V1_TABLE_MODELS(MGNIFY_V1_ROUND_TRIP)
                                          MGNIFY_V1_RESOURCE_MODELS(MGNIFY_V1_RESOURCE_ROUND_TRIP)}

TEST_CASE("v1 resources: changed links and relationships are written over what was sent",
          "[v1][models][round-trip]") {
  const json sent = v1_resource(json{{"accession", "MGYS1"}, {kUnknown, 1}});
  auto study = sent.get<mgnify::v1::Study>();
  study.resource.self.reset();
  auto& samples = study.resource.relationships.at("samples");
  samples.data.pop_back();
  samples.count = 1;
  study.resource.relationships.erase("studies");
  auto& biome = study.resource.relationships.at("biome");
  biome.related.reset();
  biome.data.front().id = "root:Engineered";

  json expected = sent;
  expected["links"]["self"] = nullptr;
  expected["relationships"]["samples"]["data"].erase(1);
  expected["relationships"]["samples"]["meta"]["count"] = 1;
  expected["relationships"].erase("studies");
  expected["relationships"]["biome"]["links"]["related"] = nullptr;
  expected["relationships"]["biome"]["data"]["id"] = "root:Engineered";
  CHECK(json(study) == expected);
}

TEST_CASE("page envelopes keep members the SDK does not know, and absent stays absent",
          "[v1][v2][models][round-trip]") {
  const json v2_page = {{"count", 1},
                        {"items", json::array({json{{"accession", "MGYS1"}}})},
                        {kUnknown, {{"next", "somewhere"}}}};
  using V2Page = mgnify::v2::CountedPage<mgnify::v2::Study>;
  CHECK(json(v2_page.get<V2Page>()) == v2_page);
  CHECK(json(mgnify::detail::decode_body<V2Page>(v2_page.dump(), "u")) == v2_page);

  const json document = {{"data", v1_resource(json::object())},
                         {"included", json::array()},
                         {"jsonapi", {{"version", "1.0"}}}};
  CHECK(json(document.get<mgnify::v1::Document<mgnify::v1::Resource>>()) == document);

  // Links the server left out stay out; a page the caller builds gets only what it sets.
  mgnify::v1::ListPage<mgnify::v1::Resource> built;
  built.links.next = "https://test/next";
  CHECK(json(built) == json{{"data", json::array()}, {"links", {{"next", "https://test/next"}}}});
}

TEST_CASE("protein models: exact round trips derived from each field table",
          "[proteins][models][round-trip]"){MGNIFY_PROTEIN_TABLE_MODELS(MGNIFY_PROTEIN_ROUND_TRIP)}
#define MGNIFY_SHARED_ROUND_TRIP(Name, Type) check_round_trips(#Name, table_model_ops<Type>());

TEST_CASE("genome search models: exact round trips derived from each field table",
          "[models][round-trip]"){MGNIFY_SHARED_TABLE_MODELS(MGNIFY_SHARED_ROUND_TRIP)}

TEST_CASE("a login answer encodes everything it received except the token",
          "[models][round-trip]") {
  const json v2 = {{"token", "secret.jwt"}, {"token_type", "Bearer"}, {kUnknown, {{"a", 1}}}};
  auto answer = v2.get<mgnify::TokenResponse>();
  CHECK(answer.token == "secret.jwt");
  json expected = v2;
  expected["token"] = mgnify::kRedactedToken;
  CHECK(json(answer) == expected);
  answer.token_type = "MAC";
  expected["token_type"] = "MAC";
  CHECK(json(answer) == expected);

  // v1 sends no token_type: it stays absent, and null stays null.
  const json v1 = {{"token", "secret.jwt"}};
  const json v1_encoded = {{"token", mgnify::kRedactedToken}};
  CHECK(json(v1.get<mgnify::TokenResponse>()) == v1_encoded);
  const json null_type = {{"token", "secret.jwt"}, {"token_type", nullptr}};
  const json null_type_encoded = {{"token", mgnify::kRedactedToken}, {"token_type", nullptr}};
  CHECK(json(null_type.get<mgnify::TokenResponse>()) == null_type_encoded);
  const json no_token = {{"token_type", "Bearer"}};
  CHECK_THROWS_AS(no_token.get<mgnify::TokenResponse>(), mgnify::DecodeError);
}

namespace {

/// Every value in `sent` decodes to a T that encodes back as sent.
template <class T>
void check_values_kept(const char* name, const std::vector<json>& sent) {
  for (const auto& value : sent) {
    INFO(name << ": " << value.dump());
    T decoded{};
    from_json(value, decoded);  // not get<T>(): it does not compile for RawJson
    CHECK(json(decoded) == value);
  }
}

}  // namespace

TEST_CASE("value types with their own JSON encode back what they received",
          "[models][round-trip]") {
  check_values_kept<mgnify::OpenInteger>(
      "OpenInteger", {json(12), json(-7), json("3000000"), json("about 12"), json(2.5)});
  check_values_kept<mgnify::OpenNumber>(
      "OpenNumber", {json(12), json(-181.5), json("253.2"), json("1e-30"), json("not given")});
  check_values_kept<mgnify::v1::Timestamp>(
      "v1::Timestamp",
      {json("2016-03-15T00:05:04"), json("2016-03-15T00:05:04.123+01:00"), json("not a date")});
  check_values_kept<mgnify::v2::DateTime>(
      "v2::DateTime",
      {json("2024-03-01T12:00:00Z"), json("2025-07-15T08:30:00.123456+02:00"), json("yesterday")});
  check_values_kept<mgnify::v2::Enumerated<mgnify::v2::DownloadType>>(
      "v2::Enumerated", {json("Statistics"), json("a type this SDK does not know")});
  check_values_kept<mgnify::proteins::StrandValue>(
      "proteins::StrandValue",
      {json("+"), json("-"), json(1), json(-1), json("."), json(""), json("sideways")});
  check_values_kept<mgnify::JobStatus>("JobStatus",
                                       {json("SUCCESS"), json("A STATE NOT YET KNOWN")});
  check_values_kept<mgnify::RawJson>(
      "RawJson", {json::object(), json{{"a", json::array({1, "b", nullptr})}}, json(3)});
}

namespace {

/// A header's text without its whole-line comments, which show example code.
std::string header_code(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string code;
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "//") == 0) continue;
    code += line;
    code += '\n';
  }
  return code;
}

/// The namespace a header's names live in, from its folder under
/// include/mgnify: "v2::" for v2/, "" for include/mgnify itself.
std::string folder_prefix(const std::filesystem::path& header, const std::filesystem::path& root) {
  // A folder's bodies (v1/impl/client.ipp) declare names of the folder's namespace.
  auto folder = header.parent_path();
  if (folder.filename() == "impl") folder = folder.parent_path();
  const auto relative = folder.lexically_relative(root).generic_string();
  // genome_search/ holds the parts of <mgnify/genome_search.hpp>, whose names are mgnify's own.
  if (relative == "." || relative == "genome_search") return std::string();
  return relative + "::";
}

/// Calls `on_header(prefix, code)` for every header and body file under include/mgnify.
template <class F>
void each_header(F&& on_header) {
  const std::filesystem::path root = std::string(MGNIFY_SOURCE_DIR) + "/include/mgnify";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const auto extension = entry.path().extension();
    if (!entry.is_regular_file() || (extension != ".hpp" && extension != ".ipp")) continue;
    on_header(folder_prefix(entry.path(), root), header_code(entry.path()));
  }
}

/// "v2::Study", "GatherJob": every struct under include/mgnify whose body
/// declares a fields() table.
std::set<std::string> models_with_tables() {
  std::set<std::string> declared;
  const std::regex model(R"(struct (\w+)[^{;]*\{)");
  each_header([&](const std::string& prefix, const std::string& source) {
    for (auto it = std::sregex_iterator(source.begin(), source.end(), model);
         it != std::sregex_iterator(); ++it) {
      const auto body_start = static_cast<std::size_t>(it->position(0) + it->length(0));
      const auto next = source.find("\nstruct ", body_start);
      const std::string body = source.substr(
          body_start, next == std::string::npos ? std::string::npos : next - body_start);
      if (body.find("static void fields(") != std::string::npos) {
        declared.insert(prefix + (*it)[1].str());
      }
    }
  });
  return declared;
}

/// Every type under include/mgnify with a from_json or to_json of its own
/// (not made by MGNIFY_JSON_FIELDS), by its name
/// without template arguments. `Json` is the parameter of the conversions that
/// are templates so that only a file that converts the type instantiates them.
std::set<std::string> types_with_own_json() {
  std::set<std::string> found;
  const std::regex own(
      R"((?:from|to)_json\(\s*(?:const\s+)?(?:nlohmann::json|Json)&\s*\w+,\s*(?:const\s+)?(?:\w+::)*(\w+)(?:<[^>&]*>)?\s*&)");
  each_header([&](const std::string& prefix, const std::string& source) {
    for (auto it = std::sregex_iterator(source.begin(), source.end(), own);
         it != std::sregex_iterator(); ++it) {
      if ((*it)[1] != "Model") found.insert(prefix + (*it)[1].str());  // the macros' parameter
    }
  });
  return found;
}

/// The first argument of every use of `macro` in the headers of v1/.
std::set<std::string> v1_macro_arguments(const std::string& macro) {
  std::set<std::string> found;
  const std::regex use(macro + R"(\((\w+)[,)])");
  each_header([&](const std::string& prefix, const std::string& source) {
    if (prefix != "v1::") return;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), use);
         it != std::sregex_iterator(); ++it) {
      if ((*it)[1] != "Model") found.insert((*it)[1]);  // the macro's own definition
    }
  });
  return found;
}

}  // namespace

#define MGNIFY_V2_NAME(Model) "v2::" #Model,
#define MGNIFY_PROTEIN_NAME(Model) "proteins::" #Model,
#define MGNIFY_V1_NAME(Model) "v1::" #Model,
#define MGNIFY_SHARED_NAME(Name, Type) #Name,

TEST_CASE("the round-trip lists name every model under include/mgnify", "[models][round-trip]") {
  // Every struct with a field table is in one of the lists above, whatever its folder.
  std::set<std::string> listed{
      MGNIFY_V2_TABLE_MODELS(MGNIFY_V2_NAME) MGNIFY_PROTEIN_TABLE_MODELS(MGNIFY_PROTEIN_NAME)
          MGNIFY_V1_TABLE_MODELS(MGNIFY_V1_NAME) MGNIFY_V1_RESOURCE_MODELS(MGNIFY_V1_NAME)
              MGNIFY_SHARED_TABLE_MODELS(MGNIFY_SHARED_NAME)};
  // Checked by its own test case above: its token is redacted on encoding.
  listed.insert("TokenResponse");
  // Bases whose table their models above share, checked through those models.
  listed.insert({"v1::AnnotationEntry", "v1::NamedGenomeCount"});
  // Parts of the v1 list envelope (PageLinks is every page's links type),
  // checked by its round trips (v1_page).
  listed.insert({"PageLinks", "v1::Pagination"});
  const auto declared = models_with_tables();
  CHECK(declared.size() >= 80);
  for (const auto& name : declared) {
    CAPTURE(name);
    CHECK(listed.count(name) == 1);
  }
  // A listed model without a table of its own can only be a v1 resource that
  // takes its base's (PfamEntry : AnnotationEntry); the macro check below
  // finds those.
  const std::set<std::string> v1_resource_names{MGNIFY_V1_RESOURCE_MODELS(MGNIFY_V1_NAME)};
  for (const auto& name : listed) {
    if (declared.count(name) == 0) {
      CAPTURE(name);
      CHECK(v1_resource_names.count(name) == 1);
    }
  }

  // Every v1 model with a table, resource or not, converts through the one macro.
  const std::set<std::string> v1_models{MGNIFY_V1_TABLE_MODELS(MGNIFY_MODEL_NAME)
                                            MGNIFY_V1_RESOURCE_MODELS(MGNIFY_MODEL_NAME)};
  const auto v1_declared = v1_macro_arguments("MGNIFY_JSON_FIELDS");
  CHECK(v1_declared.size() >= 30);
  CHECK(v1_declared == v1_models);

  // Types whose JSON is written by hand, and where their round trips are checked.
  const std::set<std::string> own_json{
      // Field tables with a step of their own (a one-object read_run, a redacted
      // token, a template): checked with the tables above.
      "v2::AnalysisDetail", "v2::AnalysisWithAnnotations", "TokenResponse", "BasicGenomeSearchHit",
      "BasicGenomeSearchResult",
      // Values kept as sent: "value types with their own JSON ...".
      "OpenInteger", "OpenNumber", "v1::Timestamp", "v2::DateTime", "v2::Enumerated",
      "proteins::StrandValue", "JobStatus", "RawJson",
      // Envelopes: the v1 resource round trips and "page envelopes keep members ...".
      "v2::CountedPage", "v1::ListPage", "v1::Document", "v1::Resource", "v1::Relationship",
      "v1::ResourceIdentifier",
      // Decoded only, never encoded: the v1 API root the client reads its links from.
      "v1::RootDoc"};
  CHECK(types_with_own_json() == own_json);
}
