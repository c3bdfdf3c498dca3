#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/testing/fake_transport.hpp"
#include "mgnify/v1.hpp"

using namespace mgnify::v1;
using nlohmann::json;

TEST_CASE("v1 models: a bare resource decodes with json.get", "[v1][models]") {
  const json j = json::parse(R"({
    "type": "samples", "id": "ERS1",
    "attributes": {"accession": "ERS1", "sample-metadata": [{"key": "temperature", "value": 4, "unit": "C"}],
                   "latitude": null, "last-update": "2016-03-15T00:05:04", "brand-new-field": [1, 2]},
    "relationships": {"biome": {"data": {"type": "biomes", "id": "root:X"}, "links": {"related": "https://h/b"}}},
    "links": {"self": "https://h/samples/ERS1"}})");
  const auto s = j.get<Sample>();
  CHECK(s.id() == "ERS1");
  CHECK(s.accession == "ERS1");
  CHECK(s.latitude == std::nullopt);
  CHECK(s.metadata("temperature")->value == "4");  // numbers kept as text
  CHECK(s.biome_lineage() == std::optional<std::string>("root:X"));
  CHECK(s.resource.attributes.at("brand-new-field") == json::array({1, 2}));
  const json back = s;
  CHECK(back["attributes"]["brand-new-field"] == json::array({1, 2}));
  CHECK(back["attributes"]["last-update"] == "2016-03-15T00:05:04");
  CHECK(back["relationships"]["biome"]["data"]["id"] == "root:X");
  CHECK(back.get<Sample>().accession == "ERS1");
}

TEST_CASE("v1 models: an integer sent as a string is read, and written back as sent",
          "[v1][models]") {
  const json j = json::parse(R"({"type": "samples", "id": "ERS1",
    "attributes": {"accession": "ERS1", "host-tax-id": "9606", "latitude": null}})");
  auto s = j.get<Sample>();
  CHECK(s.host_tax_id == 9606);
  CHECK(s.host_tax_id.known());
  CHECK(json(s) == j);
  s.host_tax_id = 10090;
  CHECK(json(s)["attributes"]["host-tax-id"] == 10090);
  // Text that is no integer costs nothing: it is kept as sent, marked unknown.
  const json odd =
      json::parse(R"({"type": "samples", "id": "ERS1", "attributes": {"host-tax-id": "human"}})");
  const auto human = odd.get<Sample>();
  CHECK_FALSE(human.host_tax_id.has_value());
  CHECK_FALSE(human.host_tax_id.known());
  CHECK(human.host_tax_id.sent() == "human");
  CHECK(json(human) == odd);
  // Only a type no reading of the field allows is a DecodeError naming the attribute.
  const json object =
      json::parse(R"({"type": "samples", "id": "ERS1", "attributes": {"host-tax-id": {}}})");
  CHECK_THROWS_AS(object.get<Sample>(), mgnify::DecodeError);
}

TEST_CASE("v1 models: a wrong type names the attribute path", "[v1][models]") {
  const json j =
      json::parse(R"({"type": "studies", "id": "MGYS1", "attributes": {"samples-count": "many"}})");
  try {
    (void)j.get<Study>();
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/attributes/samples-count");
  }
  const json page =
      json::parse(R"({"data": [{"type": "studies", "id": "A"}, {"type": "studies"}]})");
  try {
    (void)page.get<ListPage<Study>>();
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/data/1/id");
  }
}

TEST_CASE("v1 models: timestamps keep the text and parse as UTC", "[v1][models]") {
  const auto t = json("1970-01-02T00:00:01").get<Timestamp>();
  REQUIRE(t.time);
  CHECK(std::chrono::duration_cast<std::chrono::seconds>(t.time->time_since_epoch()).count() ==
        86401);
  const auto d = json("2000-03-01").get<Timestamp>();
  CHECK(std::chrono::duration_cast<std::chrono::seconds>(d.time->time_since_epoch()).count() ==
        951868800);
  const auto z = json("2000-03-01T01:00:00+01:00").get<Timestamp>();
  CHECK(z.time == d.time);
  const auto junk = json("sometime in May").get<Timestamp>();
  CHECK(junk.text == "sometime in May");
  CHECK_FALSE(junk.time);
}

TEST_CASE("v1 models: relationship data forms are told apart", "[v1][models]") {
  const json j =
      json::parse(R"({"type": "analysis-jobs", "id": "MGYA1", "attributes": {"accession": "MGYA1",
    "analysis-summary": [{"key": "Predicted CDS", "value": "286339"}]},
    "relationships": {"run": {"data": null}, "downloads": {"links": {"related": "u"}},
                      "assembly": {"data": {"type": "assemblies", "id": "ERZ1"}, "links": {"related": "v"}},
                      "pipelines": {"data": []}}})");
  const auto a = j.get<Analysis>();
  CHECK(a.relationship("run")->data_kind == Relationship::DataKind::null);
  CHECK(a.relationship("downloads")->data_kind == Relationship::DataKind::absent);
  CHECK(a.relationship("assembly")->one()->id == "ERZ1");
  CHECK(a.relationship("pipelines")->data_kind == Relationship::DataKind::many);
  CHECK(a.relationship("nope") == nullptr);
  CHECK(a.analysis_summary.at(0).value == "286339");
  const json back = a;
  CHECK(back["relationships"]["run"]["data"].is_null());
  CHECK_FALSE(back["relationships"]["downloads"].contains("data"));
}

TEST_CASE("v1 query: typed filters encode as the service expects", "[v1][query]") {
  const auto q = Query()
                     .experiment_type("metagenomic")
                     .metadata_key("temperature")
                     .metadata_value_lte(10)
                     .metadata_value_gte(-2.5)
                     .ordering("accession", true)
                     .include({"biome", "runs"})
                     .lineage("root:Environmental:Aquatic:Marine")
                     .param("unknown_filter", "x y");
  CHECK(q.params().encoded() ==
        "experiment_type=metagenomic&metadata_key=temperature&metadata_value_lte=10&metadata_value_"
        "gte=-2.5"
        "&ordering=-accession&include=biome,runs&lineage=root:Environmental:Aquatic:Marine&unknown_"
        "filter=x%20y");
  CHECK(Query().experiment_type("a").experiment_type("b").params().encoded() ==
        "experiment_type=b");
  CHECK_THROWS_AS(Query().experiment_type(""), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Query().ordering("-accession"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Query().include({}), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Query().metadata_value_lte(std::nan("")), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Query().contig_annotation("cazy", "x"), mgnify::InvalidArgument);
  CHECK(Query().filter("depth", "3").params().encoded() == "filter%5Bdepth%5D=3");
  CHECK(Query().accession({"ERS1", "ERS2"}).params().encoded() == "accession=ERS1,ERS2");
}

TEST_CASE("v1 client: defaults and argument checks need no network", "[v1]") {
  auto transport = std::make_shared<mgnify::testing::FakeTransport>();
  mgnify::ClientOptions options;
  options.transport = transport;
  LegacyClient client(options);
  CHECK(client.base_url() == "https://www.ebi.ac.uk/metagenomics/api/v1");
  CHECK_THROWS_AS(client.study(".."), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.follow<Study>("https://elsewhere.example/api"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.follow<Study>(Relationship{}), mgnify::InvalidArgument);
  auto lazy = client.studies();
  CHECK(transport->requests().empty());
  transport->respond(
      "https://www.ebi.ac.uk/metagenomics/api/v1/studies/MGYS00000001", 200,
      R"({"data": {"type": "studies", "id": "MGYS00000001", "attributes": {"accession": "MGYS00000001"}}})");
  CHECK(client.study("MGYS00000001").accession == "MGYS00000001");
  REQUIRE(transport->requests().size() == 1);
  CHECK(transport->requests()[0].headers.get("Accept") ==
        std::optional<std::string>("application/json"));
}
