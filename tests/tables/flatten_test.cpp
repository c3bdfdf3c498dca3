// A record as a table row: column order (the model's field order, the
// identifier first), dotted paths into nested values, v1 sample metadata by
// key, null kept apart from empty text; and TSV cells that read back as the
// text they were made from.

#include "mgnify/tables/flatten.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mgnify/tables/table.hpp"
#include "mgnify/v1/analyses.hpp"
#include "mgnify/v1/annotations.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/studies.hpp"

using nlohmann::json;
using nlohmann::ordered_json;
namespace tables = mgnify::tables;

namespace {

std::vector<std::string> keys_of(const ordered_json& view) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : view.items()) keys.push_back(key);
  return keys;
}

/// The keys that name columns: those of values that are not objects or arrays.
std::vector<std::string> scalar_keys(const ordered_json& view) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : view.items())
    if (!value.is_structured()) keys.push_back(key);
  return keys;
}

}  // namespace

TEST_CASE("field_order lists a model's keys in its field table's order", "[flatten]") {
  CHECK(tables::field_order<mgnify::v2::Biome>() ==
        std::vector<std::string>{"biome_name", "lineage"});
  // A v1 model: its JSON:API id and type, then the attributes, base class first.
  CHECK(tables::field_order<mgnify::v1::GoTerm>() ==
        std::vector<std::string>{"id", "type", "accession", "description", "count", "lineage"});
  CHECK(tables::field_order<int>().empty());
}

TEST_CASE("tsv_view orders columns by the given order, the rest sorted, the identifier first",
          "[flatten]") {
  const json record = {{"zeta", 1}, {"alpha", 2}, {"accession", "MGYS1"}, {"name", "n"}};
  CHECK(keys_of(tables::tsv_view(record)) ==
        std::vector<std::string>{"accession", "alpha", "name", "zeta"});
  // Listed keys keep the given order; a listed key the record lacks is skipped.
  CHECK(keys_of(tables::tsv_view(record, {"zeta", "missing", "name"})) ==
        std::vector<std::string>{"accession", "zeta", "name", "alpha"});
  // A protein's mgyp leads even where an accession is present.
  const json protein = {{"accession", "A"}, {"mgyp", "MGYP1"}, {"length", 3}};
  CHECK(tables::tsv_view(protein).begin().key() == "mgyp");
  // Anything but an object is one "value" column.
  CHECK(tables::tsv_view(json(7)) == ordered_json{{"value", 7}});
}

TEST_CASE("tsv_view adds nested leaves as dotted keys and a resource's relationship ids",
          "[flatten]") {
  const json resource = {{"type", "samples"},
                         {"id", "ERS1"},
                         {"attributes",
                          {{"accession", "ERS1"},
                           {"location", {{"latitude", 51.5}, {"place", {{"country", "UK"}}}}},
                           {"tags", json::array({"a", "b"})}}},
                         {"relationships",
                          {{"biome", {{"data", {{"type", "biomes"}, {"id", "root:Marine"}}}}},
                           {"runs", {{"data", json::array({{{"id", "ERR1"}}, {{"id", "ERR2"}}})}}},
                           {"studies", {{"data", json::array()}}}}}};
  const ordered_json view = tables::tsv_view(resource);
  CHECK(keys_of(view) == std::vector<std::string>{"accession", "id", "type", "location",
                                                  "location.latitude", "location.place.country",
                                                  "tags", "biome", "runs", "studies"});
  CHECK(view["location.latitude"] == 51.5);
  CHECK(view["biome"] == "root:Marine");
  CHECK(view["runs"] == "ERR1,ERR2");
  // Data that names nothing is a null value; a link alone is no value at all.
  CHECK(view["studies"].is_null());
  json linked = resource;
  linked["relationships"]["studies"] = {{"links", {{"related", "https://x/studies"}}}};
  CHECK_FALSE(tables::tsv_view(linked).contains("studies"));
  // An array stays whole, reachable by index.
  CHECK(tables::value_at(view, "tags.1") == "b");
  CHECK(tables::value_at(view, "location.place.country") == "UK");
  CHECK(tables::value_at(view, "tags.2").is_null());
  CHECK(tables::value_at(view, "nothing.here").is_null());
}

TEST_CASE("tsv_view keeps a metadata key met twice, each value with its own unit", "[flatten]") {
  const json sample = {
      {"type", "samples"},
      {"id", "ERS3"},
      {"attributes",
       {{"accession", "ERS3"},
        {"sample-metadata",
         json::array({{{"key", "host"}, {"value", "Homo sapiens"}},
                      {{"key", "host"}, {"value", "Mus musculus"}},
                      {{"key", "temperature"}, {"value", "5"}, {"unit", "\u00b0C"}},
                      {{"key", "temperature"}, {"value", "278"}}})}}}};
  const ordered_json view = tables::tsv_view(sample);
  CHECK(view.at("metadata.host") == "Homo sapiens");
  CHECK(view.at("metadata.host #2") == "Mus musculus");
  CHECK(view.at("metadata.temperature") == "5");
  CHECK(view.at("metadata.temperature.unit") == "\u00b0C");
  // 278 came without a unit: it is never shown beside the other value's.
  CHECK(view.at("metadata.temperature #2") == "278");
  CHECK_FALSE(view.contains("metadata.temperature #2.unit"));
}

TEST_CASE("tsv_view names v1 sample metadata by key, with its unit", "[flatten]") {
  const json sample = {
      {"type", "samples"},
      {"id", "ERS2"},
      {"attributes",
       {{"accession", "ERS2"},
        {"sample-metadata", json::array({{{"key", "depth"}, {"value", "5"}, {"unit", "m"}},
                                         {{"key", "temperature"}, {"value", nullptr}, {"unit", ""}},
                                         {{"value", "no key"}}})}}}};
  const ordered_json view = tables::tsv_view(sample);
  CHECK(view.at("metadata.depth") == "5");
  CHECK(view.at("metadata.depth.unit") == "m");
  // A null value is kept as null; an empty unit adds no column.
  CHECK(view.at("metadata.temperature").is_null());
  CHECK_FALSE(view.contains("metadata.temperature.unit"));
  // A key holding dots is matched whole before the path is split.
  CHECK(tables::value_at(view, "metadata.depth") == "5");
  CHECK(tables::value_at(view, "metadata.depth.unit") == "m");
}

TEST_CASE("find_value tells a null value from a missing one; tsv_cell writes both empty",
          "[flatten]") {
  const ordered_json view = tables::tsv_view(json{{"a", nullptr}, {"b", ""}, {"c", 0}});
  const ordered_json* a = tables::find_value(view, "a");
  REQUIRE(a != nullptr);
  CHECK(a->is_null());
  CHECK(tables::find_value(view, "z") == nullptr);
  CHECK(tables::tsv_cell(*a).empty());
  CHECK(tables::tsv_cell(view["b"]).empty());
  CHECK(tables::tsv_cell(view["c"]) == "0");
  CHECK(tables::tsv_cell(ordered_json(true)) == "true");
  CHECK(tables::tsv_cell(ordered_json::parse(R"({"k":[1,"x"]})")) == R"({"k":[1,"x"]})");
}

TEST_CASE("tsv_cell escapes what could split a row or drive a terminal, reversibly", "[flatten]") {
  const std::string text = std::string("a\tb\nc\rd\\e\x1b[2Jf\x7f") + "\xc2\x9b" + "g\xff" +
                           "h\xc3\xa9";  // ESC, DEL, C1 CSI, a stray byte, then é
  const std::string cell = tables::tsv_cell(ordered_json(text));
  CHECK(cell == "a\\tb\\nc\\rd\\\\e\\x1b[2Jf\\x7f\\u009bg\\xffh\xc3\xa9");
  CHECK(cell.find_first_of("\t\n\r\x1b\x7f") == std::string::npos);
  CHECK(tables::tsv_unescape(cell) == text);
  CHECK(tables::tsv_escape(text) == cell);
  // A backslash the text held is not taken for an escape on the way back.
  CHECK(tables::tsv_unescape(tables::tsv_escape("C:\\new\\x41")) == "C:\\new\\x41");
}

TEST_CASE("tsv_cell writes structured values as JSON that cannot drive a terminal", "[flatten]") {
  const ordered_json value = {{"k", std::string("\x7f") + "\xc2\x85"}};
  const std::string cell = tables::tsv_cell(value);
  CHECK(cell == R"({"k":"\u007f\u0085"})");
  // Invalid UTF-8 cannot be JSON: it becomes U+FFFD rather than an exception.
  const ordered_json broken = {{"k", std::string("a\xff")}};
  CHECK(tables::tsv_cell(broken) == "{\"k\":\"a\xef\xbf\xbd\"}");
}

TEST_CASE("tsv_view numbers a metadata key repeated N times #2 to #N, stepping over taken names",
          "[flatten][limits]") {
  // A submitter's sheet can repeat one key thousands of times; each
  // occurrence keeps its value, in order, under the next free number.
  constexpr int repeats = 3000;
  json entries = json::array();
  for (int i = 1; i <= repeats; ++i) {
    entries.push_back({{"key", "depth"}, {"value", std::to_string(i)}});
    // The literal name the 10th occurrence would get is taken first.
    if (i == 5) entries.push_back({{"key", "depth #10"}, {"value", "literal"}});
  }
  const json sample = {{"type", "samples"},
                       {"id", "ERS4"},
                       {"attributes", {{"accession", "ERS4"}, {"sample-metadata", entries}}}};
  const ordered_json view = tables::tsv_view(sample);
  CHECK(view.at("metadata.depth") == "1");
  CHECK(view.at("metadata.depth #10") == "literal");
  std::vector<std::string> numbered;
  for (const auto& key : keys_of(view)) {
    if (key.rfind("metadata.depth #", 0) == 0 && key != "metadata.depth #10")
      numbered.push_back(key);
  }
  REQUIRE(numbered.size() == repeats - 1);
  for (int i = 2; i <= repeats; ++i) {
    // Occurrences from the 10th on move up by one: #10 was taken.
    const int number = i < 10 ? i : i + 1;
    const std::string name = "metadata.depth #" + std::to_string(number);
    CHECK(numbered[static_cast<std::size_t>(i - 2)] == name);
    CHECK(view.at(name) == std::to_string(i));
  }
}

TEST_CASE("ViewIndex finds what find_value finds, whole keys and dotted paths", "[flatten]") {
  const json record = {{"accession", "MGYS1"},
                       {"biome", {{"lineage", "root:Host"}, {"name", nullptr}}},
                       {"downloads", json::array({{{"alias", "a.tsv"}}, {{"alias", "b.tsv"}}})},
                       {"metadata.depth", "whole key with a dot"},
                       {"metadata", {{"depth", "nested"}}}};
  const ordered_json view = tables::tsv_view(record);
  const tables::ViewIndex index(view);
  for (const std::string path :
       {"accession", "biome", "biome.lineage", "biome.name", "downloads.1.alias", "downloads.2",
        "downloads.x", "metadata.depth", "metadata", "missing", "missing.path", "accession.x",
        ""}) {
    const ordered_json* expected = tables::find_value(view, path);
    const ordered_json* found = index.find(path);
    CAPTURE(path);
    REQUIRE((expected == nullptr) == (found == nullptr));
    if (expected) CHECK(*found == *expected);
  }
  CHECK(*index.find("downloads.1.alias") == "b.tsv");
  CHECK(*index.find("metadata.depth") == "whole key with a dot");
  CHECK(index.find("biome.name")->is_null());
}

TEST_CASE("schema_example names every column a record can have, nested models' leaves too",
          "[flatten][schema]") {
  const auto order = tables::field_order<mgnify::v2::Study>();
  const ordered_json schema = tables::tsv_view(tables::schema_example<mgnify::v2::Study>(), order);
  CHECK(scalar_keys(schema) == std::vector<std::string>{"accession", "title", "biome.biome_name",
                                                        "biome.lineage", "updated_at"});
  // A record that leaves out its optional fields gets the same columns from the schema, not
  // the fewer ones of its own.
  const json sparse = {{"accession", "MGYS00000001"}, {"title", "t"}};
  const ordered_json own = tables::tsv_view(sparse, order);
  CHECK(scalar_keys(own) == std::vector<std::string>{"accession", "title"});
}

TEST_CASE("a v1 model's schema has a column per relationship it lists as arriving with ids",
          "[flatten][schema]") {
  const auto sample_order = tables::field_order<mgnify::v1::Sample>();
  const auto sample_schema =
      scalar_keys(tables::tsv_view(tables::schema_example<mgnify::v1::Sample>(), sample_order));
  REQUIRE(sample_schema.size() > 2);
  CHECK(std::vector<std::string>(sample_schema.end() - 2, sample_schema.end()) ==
        std::vector<std::string>{"biome", "studies"});
  // `runs` arrives as a link only: no column.
  CHECK(std::count(sample_schema.begin(), sample_schema.end(), "runs") == 0);

  const auto analysis_schema = scalar_keys(tables::tsv_view(
      tables::schema_example<mgnify::v1::Analysis>(), tables::field_order<mgnify::v1::Analysis>()));
  REQUIRE(analysis_schema.size() > 4);
  CHECK(std::vector<std::string>(analysis_schema.end() - 4, analysis_schema.end()) ==
        std::vector<std::string>{"assembly", "run", "sample", "study"});
}
