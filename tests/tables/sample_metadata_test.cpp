// The sample metadata table: core attributes first, one column per metadata
// key with its unit, nothing invented for a missing key, nothing lost for a
// repeated one; and the TSV, CSV and JSON forms of a table.

#include "mgnify/tables/sample_metadata.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/v1/fast_decode.hpp"

using nlohmann::json;
namespace tables = mgnify::tables;

namespace {

json v1_sample_json(const std::string& accession, const json& metadata) {
  return {
      {"type", "samples"},
      {"id", accession},
      {"attributes",
       {{"accession", accession},
        {"sample-name", "name of " + accession},
        {"latitude", 51.5},
        {"longitude", nullptr},
        {"collection-date", "2019-05-01"},
        {"host-tax-id", 9606},
        {"sample-metadata", metadata}}},
      {"relationships",
       {{"biome", {{"data", {{"type", "biomes"}, {"id", "root:Environmental:Aquatic:Marine"}}}}}}}};
}

std::size_t column_of(const tables::Table& t, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i] == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

}  // namespace

TEST_CASE("v1 samples: core attributes, then metadata keys with units in the header",
          "[tables][samples]") {
  const std::vector<mgnify::v1::Sample> samples = {
      v1_sample_json("ERS0000001",
                     json::array({{{"key", "temperature"}, {"value", "12.5"}, {"unit", "°C"}},
                                  {{"key", "depth"}, {"value", "5"}, {"unit", "m"}},
                                  {{"key", "host"}, {"value", "Homo sapiens"}, {"unit", nullptr}},
                                  {{"key", "host"}, {"value", "Mus musculus"}, {"unit", nullptr}}}))
          .get<mgnify::v1::Sample>(),
      v1_sample_json("ERS0000002",
                     json::array({{{"key", "temperature"}, {"value", "285"}, {"unit", "K"}},
                                  {{"key", "salinity"}, {"value", "35"}, {"unit", ""}}}))
          .get<mgnify::v1::Sample>()};
  const tables::Table t = tables::sample_metadata_table(samples);

  const auto core = tables::v1_sample_core_columns();
  REQUIRE(t.columns.size() == core.size() + 6);
  CHECK(std::vector<std::string>(t.columns.begin(), t.columns.begin() + core.size()) == core);
  CHECK(std::vector<std::string>(t.columns.begin() + core.size(), t.columns.end()) ==
        std::vector<std::string>{"temperature (°C)", "depth (m)", "host", "host #2",
                                 "temperature (K)", "salinity"});
  REQUIRE(t.rows.size() == 2);
  for (const auto& row : t.rows) CHECK(row.size() == t.columns.size());

  const auto& first = t.rows[0];
  CHECK(first[column_of(t, "accession")] == "ERS0000001");
  CHECK(first[column_of(t, "biome")] == "root:Environmental:Aquatic:Marine");
  CHECK(first[column_of(t, "latitude")] == "51.5");
  CHECK_FALSE(first[column_of(t, "longitude")]);  // null: absent, not "0"
  CHECK(first[column_of(t, "collection-date")] == "2019-05-01");
  CHECK(first[column_of(t, "host-tax-id")] == "9606");
  CHECK(first[column_of(t, "temperature (°C)")] == "12.5");
  // A key twice: both values kept.
  CHECK(first[column_of(t, "host")] == "Homo sapiens");
  CHECK(first[column_of(t, "host #2")] == "Mus musculus");
  // Keys the sample does not have: absent.
  CHECK_FALSE(first[column_of(t, "temperature (K)")]);
  CHECK_FALSE(first[column_of(t, "salinity")]);

  const auto& second = t.rows[1];
  CHECK(second[column_of(t, "temperature (K)")] == "285");
  CHECK_FALSE(second[column_of(t, "temperature (°C)")]);
  CHECK_FALSE(second[column_of(t, "host")]);
  CHECK(second[column_of(t, "salinity")] == "35");  // an empty unit adds nothing to the name
}

TEST_CASE("v2 samples: metadata repeating a core value adds no column, a different one does",
          "[tables][samples]") {
  const json first = {{"accession", "SAMEA1"},
                      {"ena_accessions", {"SAMEA1", "ERS1"}},
                      {"sample_title", "gut 1"},
                      {"biome", {{"biome_name", "Gut"}, {"lineage", "root:Host-associated:Gut"}}},
                      {"updated_at", "2025-01-02T03:04:05Z"},
                      {"metadata",
                       {{"sample_title", "gut 1"},
                        {"lat", "51.5"},
                        {"temperature", 19.1},
                        {"accession", "SAMEA1-OTHER"},
                        {"flags", {1, 2}},
                        {"depth", nullptr}}}};
  const json second = {{"accession", "SAMEA2"},
                       {"ena_accessions", json::array()},
                       {"sample_title", nullptr},
                       {"biome", nullptr},
                       {"updated_at", "2025-01-02T03:04:05.123Z"},
                       {"metadata", {{"disease", "Flu"}}}};
  const std::vector<mgnify::v2::SampleWithMetadata> samples = {
      first.get<mgnify::v2::SampleWithMetadata>(), second.get<mgnify::v2::SampleWithMetadata>()};
  const tables::Table t = tables::sample_metadata_table(samples);

  const auto core = tables::v2_sample_core_columns();
  CHECK(std::vector<std::string>(t.columns.begin(), t.columns.begin() + core.size()) == core);
  // nlohmann::json keeps object keys sorted: accession, depth, flags, lat, sample_title,
  // temperature.
  CHECK(std::vector<std::string>(t.columns.begin() + core.size(), t.columns.end()) ==
        std::vector<std::string>{"accession #2", "depth", "flags", "temperature", "disease"});
  const auto& a = t.rows[0];
  CHECK(a[column_of(t, "ena_accessions")] == "SAMEA1,ERS1");
  CHECK(a[column_of(t, "biome")] == "root:Host-associated:Gut");
  CHECK(a[column_of(t, "biome_name")] == "Gut");
  CHECK(a[column_of(t, "lat")] == "51.5");
  CHECK_FALSE(a[column_of(t, "lon")]);
  CHECK(a[column_of(t, "updated_at")] == "2025-01-02T03:04:05Z");
  CHECK(a[column_of(t, "accession #2")] == "SAMEA1-OTHER");
  CHECK(a[column_of(t, "temperature")] == "19.1");
  CHECK(a[column_of(t, "flags")] == "[1,2]");
  CHECK_FALSE(a[column_of(t, "depth")]);
  CHECK_FALSE(a[column_of(t, "disease")]);
  const auto& b = t.rows[1];
  CHECK_FALSE(b[column_of(t, "ena_accessions")]);
  CHECK_FALSE(b[column_of(t, "sample_title")]);
  CHECK_FALSE(b[column_of(t, "biome")]);
  CHECK(b[column_of(t, "disease")] == "Flu");
  CHECK_FALSE(b[column_of(t, "temperature")]);
}

TEST_CASE("a key met again never overwrites a column the sample already filled",
          "[tables][samples]") {
  // The third key is literally the name the second occurrence of the first gets.
  const std::vector<mgnify::v1::Sample> samples = {
      v1_sample_json("ERS0000001", json::array({{{"key", "depth"}, {"value", "1"}},
                                                {{"key", "depth"}, {"value", "2"}},
                                                {{"key", "depth #2"}, {"value", "3"}}}))
          .get<mgnify::v1::Sample>()};
  const tables::Table t = tables::sample_metadata_table(samples);
  const auto core = tables::v1_sample_core_columns();
  CHECK(std::vector<std::string>(t.columns.begin() + core.size(), t.columns.end()) ==
        std::vector<std::string>{"depth", "depth #2", "depth #2 #2"});
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0][column_of(t, "depth")] == "1");
  CHECK(t.rows[0][column_of(t, "depth #2")] == "2");
  CHECK(t.rows[0][column_of(t, "depth #2 #2")] == "3");
}

TEST_CASE("a table in TSV, CSV and JSON keeps every cell on its row and absent cells absent",
          "[tables][format]") {
  tables::Table t;
  t.columns = {"id", "note", "unit (°C)"};
  t.rows = {{std::string("a"), std::string("tab\there\nnew line \\ back"), std::nullopt},
            {std::string("b"), std::string("comma, \"quoted\""), std::string("")}};

  std::ostringstream tsv;
  tables::write_tsv(tsv, t);
  CHECK(tsv.str() ==
        "id\tnote\tunit (°C)\n"
        "a\t\"tab\there\nnew line \\ back\"\t\n"
        "b\t\"comma, \"\"quoted\"\"\"\t\n");

  std::ostringstream csv;
  tables::write_csv(csv, t);
  CHECK(csv.str() ==
        "id,note,unit (°C)\n"
        "a,\"tab\there\nnew line \\ back\",\n"
        "b,\"comma, \"\"quoted\"\"\",\n");

  const auto j = tables::to_json(t);
  REQUIRE(j.size() == 2);
  CHECK(j[0].dump() == R"j({"id":"a","note":"tab\there\nnew line \\ back","unit (°C)":null})j");
  CHECK(j[1]["unit (°C)"] == "");
}

TEST_CASE("the sample table's JSON keeps the service's types; its text cells do not change",
          "[tables][samples][format]") {
  json v1_sample = v1_sample_json(
      "ERS0000001", json::array({{{"key", "ph"}, {"value", "7"}, {"unit", nullptr}}}));
  v1_sample["attributes"]["latitude"] = 0;
  const auto v1_table =
      tables::sample_metadata(std::vector<mgnify::v1::Sample>{v1_sample.get<mgnify::v1::Sample>()});
  const auto v1_json = v1_table.to_json();
  REQUIRE(v1_json.size() == 1);
  CHECK(v1_json[0].at("latitude").is_number());
  CHECK(v1_json[0].at("latitude") == 0);
  CHECK(v1_json[0].at("longitude").is_null());
  CHECK(v1_json[0].at("host-tax-id") == 9606);
  CHECK(v1_json[0].at("ph") == "7");  // v1 sends metadata values as text

  const json v2_sample = {
      {"accession", "SAMEA1"},
      {"ena_accessions", {"SAMEA1", "ERS1"}},
      {"sample_title", "gut 1"},
      {"biome", nullptr},
      {"metadata",
       {{"lat", 0}, {"ph", 7}, {"flag", true}, {"nested", {{"a", 1}}}, {"depth", nullptr}}}};
  const auto v2_table = tables::sample_metadata(
      std::vector<mgnify::v2::SampleWithMetadata>{v2_sample.get<mgnify::v2::SampleWithMetadata>()});
  const auto j = v2_table.to_json();
  REQUIRE(j.size() == 1);
  CHECK(j[0].dump() ==
        R"({"accession":"SAMEA1","ena_accessions":"SAMEA1,ERS1","sample_title":"gut 1",)"
        R"("biome":null,"biome_name":null,"lat":0,"lon":null,"collection_date":null,)"
        R"("updated_at":null,"depth":null,"flag":true,"nested":{"a":1},"ph":7})");
  const tables::Table t = v2_table.table();
  CHECK(t.rows.at(0)[column_of(t, "ph")] == "7");
  CHECK(t.rows.at(0)[column_of(t, "flag")] == "true");
  CHECK(t.rows.at(0)[column_of(t, "nested")] == R"({"a":1})");
  CHECK_FALSE(t.rows.at(0)[column_of(t, "depth")]);
}

TEST_CASE("several studies' samples: the study first, the union of the columns, every row",
          "[tables][samples]") {
  const auto v2 = [](const json& sample) { return sample.get<mgnify::v2::SampleWithMetadata>(); };
  const std::vector<mgnify::v2::SampleWithMetadata> first = {
      v2({{"accession", "SAMEA1"}, {"metadata", {{"ph", 7}, {"depth", nullptr}}}}),
      v2({{"accession", "SAMEA2"}, {"metadata", {{"ph", "6.5"}}}})};
  const std::vector<mgnify::v2::SampleWithMetadata> second = {
      v2({{"accession", "SAMEA1"},
          {"metadata", {{"temperature", 20}, {"study_accession", "elsewhere"}}}})};
  const auto merged =
      tables::studies_sample_metadata({{"MGYS00000001", tables::sample_metadata(first)},
                                       {"MGYS00000002", tables::sample_metadata(second)}});
  const tables::Table t = merged.table();
  const auto own = tables::sample_metadata(first).table();
  REQUIRE(t.columns.size() == 1 + own.columns.size() + 2);
  CHECK(t.columns.front() == "study_accession");
  CHECK(std::vector<std::string>(t.columns.begin() + 1,
                                 t.columns.begin() + 1 + own.columns.size()) == own.columns);
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0][0] == "MGYS00000001");
  CHECK(t.rows[1][0] == "MGYS00000001");
  // The same sample in two studies is a row of each.
  CHECK(t.rows[2][0] == "MGYS00000002");
  CHECK(t.rows[2][column_of(t, "accession")] == "SAMEA1");
  CHECK(t.rows[0][column_of(t, "ph")] == "7");
  CHECK(t.rows[1][column_of(t, "ph")] == "6.5");
  CHECK_FALSE(t.rows[2][column_of(t, "ph")]);
  CHECK(t.rows[2][column_of(t, "temperature")] == "20");
  CHECK_FALSE(t.rows[0][column_of(t, "temperature")]);
  // A column that no sample fills is still there; a sample's own
  // study_accession field is kept beside the study's.
  CHECK_FALSE(t.rows[0][column_of(t, "depth")]);
  CHECK(t.rows[2][column_of(t, "study_accession #2")] == "elsewhere");
  // JSON keeps the types.
  CHECK(merged.to_json()[0].at("ph").is_number());
}

TEST_CASE("a key repeated N times in one sample is 'key', then 'key #2' to 'key #N', exactly",
          "[tables][samples][limits]") {
  constexpr int repeats = 4000;
  json entries = json::array();
  for (int i = 1; i <= repeats; ++i)
    entries.push_back({{"key", "host"}, {"value", std::to_string(i)}});
  const std::vector<mgnify::v1::Sample> samples = {
      v1_sample_json("ERS0000001", entries).get<mgnify::v1::Sample>()};
  const tables::SampleMetadataTable table = tables::sample_metadata(samples);
  const auto core = tables::v1_sample_core_columns();
  REQUIRE(table.columns().size() == core.size() + repeats);
  const tables::Table t = table.table();
  for (int i = 1; i <= repeats; ++i) {
    const std::string name = i == 1 ? "host" : "host #" + std::to_string(i);
    const std::size_t at = core.size() + static_cast<std::size_t>(i - 1);
    CAPTURE(i);
    CHECK(t.columns[at] == name);
    CHECK(t.rows[0][at] == std::to_string(i));
  }
}

TEST_CASE("rows are held as the cells their samples sent, and written as the dense table is",
          "[tables][samples][limits]") {
  // Each sample has keys no other sample has: the table is as wide as all
  // of them, each row holds its own.
  std::vector<mgnify::v2::SampleWithMetadata> samples;
  for (int s = 0; s < 30; ++s) {
    json metadata = json::object();
    for (int k = 0; k < 20; ++k) {
      metadata["s" + std::to_string(s) + "_k" + std::to_string(k)] =
          k % 3 == 0 ? json(k) : json("v");
    }
    samples.push_back(json({{"accession", "SAMEA" + std::to_string(s)}, {"metadata", metadata}})
                          .get<mgnify::v2::SampleWithMetadata>());
  }
  const tables::SampleMetadataTable table = tables::sample_metadata(samples);
  REQUIRE(table.size() == 30);
  CHECK(table.columns().size() == tables::v2_sample_core_columns().size() + 30 * 20);
  // The accession plus the sample's 20 keys, nothing for the other 580 columns.
  for (const auto& row : table.rows()) CHECK(row.size() == 21);
  const tables::Table dense = table.table();
  for (const bool csv : {false, true}) {
    std::ostringstream streamed;
    std::ostringstream whole;
    if (csv) {
      table.write_csv(streamed);
      tables::write_csv(whole, dense);
    } else {
      table.write_tsv(streamed);
      tables::write_tsv(whole, dense);
    }
    CHECK(streamed.str() == whole.str());
  }
  const auto all = table.to_json();
  REQUIRE(all.size() == 30);
  for (std::size_t r = 0; r < table.size(); ++r) {
    const auto row = table.row_json(r);
    CHECK(row == all[r]);
    CHECK(row.size() == table.columns().size());
    CHECK(row.at("accession") == "SAMEA" + std::to_string(r));
    CHECK(row.at("s" + std::to_string(r) + "_k3").is_number());
  }
}

TEST_CASE("a table past its column or cell limit is refused, naming the limit, before any output",
          "[tables][samples][limits]") {
  std::vector<mgnify::v2::SampleWithMetadata> samples;
  for (int s = 0; s < 10; ++s) {
    samples.push_back(json({{"accession", "SAMEA" + std::to_string(s)},
                            {"metadata", {{"only_" + std::to_string(s), s}}}})
                          .get<mgnify::v2::SampleWithMetadata>());
  }
  const std::size_t core = tables::v2_sample_core_columns().size();
  tables::TableLimits columns;
  columns.max_columns = core + 5;
  try {
    (void)tables::sample_metadata(samples, columns);
    FAIL("no TableLimitError");
  } catch (const tables::TableLimitError& e) {
    CHECK(e.limit() == "max_columns");
    CHECK(e.bound() == core + 5);
    CHECK(e.needed() == core + 6);
    CHECK(std::string(e.what()).find("TableLimits::max_columns") != std::string::npos);
  }
  columns.max_columns = core + 10;
  CHECK(tables::sample_metadata(samples, columns).columns().size() == core + 10);

  tables::TableLimits cells;
  cells.max_cells = 10 * (core + 10) - 1;
  const tables::SampleMetadataTable table = tables::sample_metadata(samples, cells);
  std::ostringstream out;
  CHECK_THROWS_AS(table.write_tsv(out), tables::TableLimitError);
  CHECK(out.str().empty());
  CHECK_THROWS_AS(table.to_json(), tables::TableLimitError);
  CHECK_THROWS_AS(table.table(), tables::TableLimitError);
  try {
    table.check_cells();
    FAIL("no TableLimitError");
  } catch (const tables::TableLimitError& e) {
    CHECK(e.limit() == "max_cells");
    CHECK(e.needed() == 10 * (core + 10));
  }
}

TEST_CASE("v1 metadata sent as a number or null keeps its type in JSON and is absent when null",
          "[tables][samples][format]") {
  const auto sample =
      v1_sample_json("ERS0000001", json::array({{{"key", "ph"}, {"value", 7}, {"unit", nullptr}},
                                                {{"key", "depth"}, {"value", 2.5}, {"unit", "m"}},
                                                {{"key", "notes"}, {"value", nullptr}},
                                                {{"key", "site"}, {"value", "A"}}}))
          .get<mgnify::v1::Sample>();
  const auto table = tables::sample_metadata(std::vector<mgnify::v1::Sample>{sample});
  const auto row = table.row_json(0);
  CHECK(row.at("ph").is_number_integer());
  CHECK(row.at("ph") == 7);
  CHECK(row.at("depth (m)") == 2.5);
  CHECK(row.at("notes").is_null());
  CHECK(row.at("site") == "A");
  const tables::Table t = table.table();
  CHECK(t.rows.at(0)[column_of(t, "ph")] == "7");
  CHECK(t.rows.at(0)[column_of(t, "depth (m)")] == "2.5");
  CHECK_FALSE(t.rows.at(0)[column_of(t, "notes")]);
}

TEST_CASE("a number a double would respell keeps its sent text in every form of the table",
          "[tables][samples][numbers]") {
  const std::string page =
      R"({"data":[{"type":"samples","id":"ERS1","attributes":{"accession":"ERS1",)"
      R"("latitude":51.50,"sample-metadata":[{"key":"ph","value":7.50,"unit":null},)"
      R"({"key":"depth","value":1e3,"unit":"m"},{"key":"plain","value":2.5,"unit":null}]},)"
      R"("relationships":{}}],"links":{"next":null},)"
      R"("meta":{"pagination":{"page":1,"pages":1,"count":1}}})";
  const auto decoded =
      mgnify::detail::decode_body<mgnify::v1::ListPage<mgnify::v1::Sample>>(page, "test://samples");
  const auto table = tables::sample_metadata(decoded.data);
  const tables::Table t = table.table();
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0][column_of(t, "latitude")] == "51.50");
  CHECK(t.rows[0][column_of(t, "ph")] == "7.50");
  CHECK(t.rows[0][column_of(t, "depth (m)")] == "1e3");
  CHECK(t.rows[0][column_of(t, "plain")] == "2.5");
  const auto ph = static_cast<std::size_t>(column_of(t, "ph"));
  REQUIRE(table.sent_text(0, ph) != nullptr);
  CHECK(*table.sent_text(0, ph) == "7.50");
  CHECK(table.sent_text(0, column_of(t, "plain")) == nullptr);

  // JSON: the values keep their types, and the writer their digits.
  const auto row = table.row_json(0);
  CHECK(row.at("ph") == 7.5);
  bool replaced = false;
  const std::string written =
      mgnify::detail::json_text_keeping_numbers(row, -1, replaced, table.row_number_texts(0));
  CHECK(written.find(R"("ph":7.50)") != std::string::npos);
  CHECK(written.find(R"x("depth (m)":1e3)x") != std::string::npos);
  CHECK(written.find(R"("latitude":51.50)") != std::string::npos);
  CHECK(nlohmann::ordered_json::parse(written) == row);

  // The several-studies table carries them over.
  const auto merged = tables::studies_sample_metadata({{"MGYS00000001", table}});
  CHECK(merged.table().rows.at(0)[column_of(merged.table(), "depth (m)")] == "1e3");

  // A sent text that does not read back as the cell's value is not used.
  tables::SampleMetadataTable hand({"accession"});
  hand.add({"S1"}, {{"ph", 7.5, std::nullopt, "7.50"}, {"depth", 3, std::nullopt, "1e3"}});
  const tables::Table h = hand.table();
  CHECK(h.rows[0][column_of(h, "ph")] == "7.50");
  CHECK(h.rows[0][column_of(h, "depth")] == "3");
}
