#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/default_transport.hpp"
#include "support/v1_rig.hpp"
#include "v1/data.hpp"

using mgnify::v1::Query;

TEST_CASE("v1: walking a whole list yields each id exactly once, in order", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  // Every ninth study lives in this biome: 2,222 studies over 9 pages of 250.
  const std::string skin = "root:Host-associated:Human:Skin";
  auto studies = client.studies(Query().biome_name(skin), mgnify::test::pages(250));
  CHECK(rig.server.hits(rig.path("studies")) == 0);  // lazy until iterated
  std::set<std::string> seen;
  std::string previous;
  for (const auto& study : studies) {
    REQUIRE(seen.insert(study.id()).second);
    CHECK(study.accession == study.id());
    CHECK(study.biome_lineages() == std::vector<std::string>{skin});
    if (!previous.empty()) CHECK(previous < study.id());
    previous = study.id();
    REQUIRE(seen.size() <= 2222);
  }
  CHECK(seen.size() == 2222);
  CHECK(studies.total() == 2222);
  CHECK(studies.pages_fetched() == 9);
  CHECK(rig.server.hits(rig.path("studies")) == 9);
  CHECK(*seen.begin() == "MGYS00000008");
  // The unfiltered list is the 20,000 studies the benchmarks walk.
  CHECK(client.studies({}, mgnify::test::pages(1)).total() == 20000);
}

TEST_CASE("v1: next links keep every filter and only replace page", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  auto samples = client.biome_samples("root:Environmental:Aquatic:Marine",
                                      Query()
                                          .experiment_type("metagenomic")
                                          .metadata_key("temperature")
                                          .metadata_value_lte(10)
                                          .ordering("accession"),
                                      mgnify::test::pages(7));
  std::vector<std::string> ids;
  for (const auto& s : samples) {
    const auto* t = s.metadata("temperature");
    REQUIRE(t != nullptr);
    CHECK(std::stod(t->value) <= 10.0);
    CHECK(s.biome_lineage() == std::optional<std::string>("root:Environmental:Aquatic:Marine"));
    ids.push_back(s.id());
    REQUIRE(ids.size() < 1000);
  }
  REQUIRE(ids.size() > 7);  // more than one page
  CHECK(std::is_sorted(ids.begin(), ids.end()));
  CHECK(samples.total() == static_cast<std::int64_t>(ids.size()));
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() >= 2);
  // The second request is the server's own link: sorted, re-encoded, page replaced.
  CHECK(requests[1].target ==
        "/metagenomics/api/v1/biomes/root:Environmental:Aquatic:Marine/"
        "samples?experiment_type=metagenomic"
        "&metadata_key=temperature&metadata_value_lte=10&ordering=accession&page=2&page_size=7");
}

TEST_CASE("v1: the contig list is walked through opaque cursor links", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  auto contigs = client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(100));
  std::set<std::string> ids;
  for (const auto& c : contigs) {
    REQUIRE(ids.insert(c.contig_id).second);
    CHECK(c.accession == std::optional<std::string>("MGYA00000001"));
    REQUIRE(ids.size() <= 600);
  }
  CHECK(ids.size() == 600);
  CHECK(contigs.total() == 600);
  CHECK(contigs.pages_fetched() == 6);
  // A cursor list has a count but no page numbers; the last page names no cursor.
  const auto& last = contigs.current_page();
  CHECK(last.total == 600);
  CHECK_FALSE(last.page);
  CHECK_FALSE(last.cursor);
  CHECK_FALSE(last.links.next);
  CHECK(last.links.prev);
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 6);
  CHECK(requests[1].target.find("cursor=") != std::string::npos);
  CHECK(requests[1].target.find("page=") == std::string::npos);
}

TEST_CASE("v1: the contig list's count is held against the items its cursor pages hold",
          "[v1][integration][hostile]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const std::string path = rig.path("analyses/MGYA00000001/contigs");
  const auto first_page = nlohmann::json::parse(
      client.session()
          .get(rig.server.v1_url() + "/analyses/MGYA00000001/contigs?page_size=100")
          .body);
  REQUIRE(first_page.at("meta").at("pagination").at("count") == 600);
  REQUIRE(first_page.at("data").size() == 100);
  mgnify::mock::Fault real_page;
  real_page.action = mgnify::mock::Fault::Action::pass;
  const auto walk_with_second_page = [&](const nlohmann::json& second) {
    rig.server.push_fault(path, real_page);
    rig.server.push_fault(path, mgnify::mock::Fault::status_only(200, second.dump()));
    std::size_t yielded = 0;
    auto contigs = client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(100));
    try {
      for (const auto& contig : contigs) {
        (void)contig;
        REQUIRE(++yielded <= 600);
      }
    } catch (const mgnify::ListChangedError& e) {
      CHECK(e.resume_token().find("cursor=") != std::string::npos);
      return std::make_pair(yielded, std::string(e.what()));
    }
    return std::make_pair(yielded, std::string());
  };

  // links.next ends the list after 200 of its 600 contigs.
  auto cut = first_page;
  cut["links"]["next"] = nullptr;
  const auto [cut_yielded, cut_error] = walk_with_second_page(cut);
  CHECK(cut_yielded <= 200);
  CHECK_THAT(cut_error, Catch::Contains("after 200 of the 600 items"));

  // The second page states another count.
  auto recounted = first_page;
  recounted["meta"]["pagination"]["count"] = 601;
  const auto [recounted_yielded, recounted_error] = walk_with_second_page(recounted);
  CHECK(recounted_yielded <= 100);
  CHECK_THAT(recounted_error, Catch::Contains("count changed from 600 to 601"));

  // Two pages of 100 under a count of 150.
  auto surplus = first_page;
  surplus["meta"]["pagination"]["count"] = 150;
  rig.server.push_fault(path, mgnify::mock::Fault::status_only(200, surplus.dump()));
  rig.server.push_fault(path, mgnify::mock::Fault::status_only(200, surplus.dump()));
  auto contigs = client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(100));
  CHECK_THROWS_WITH(contigs.collect(), Catch::Contains("more than the count of 150"));

  // Untouched, the list walks whole.
  CHECK(client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(100)).collect().size() ==
        600);
}

TEST_CASE("v1: max_items stops the walk without fetching further pages", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  auto studies = client.studies({}, mgnify::test::pages(10, 25));
  const auto all = studies.collect();
  CHECK(all.size() == 25);
  CHECK(rig.server.hits(rig.path("studies")) == 3);
}

TEST_CASE("v1: ListOptions are checked per kind of list before any request", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  mgnify::ListOptions from_page_0;
  from_page_0.start_page = 0;
  mgnify::ListOptions from_page_2;
  from_page_2.start_page = 2;
  // Page-number lists: 1..250.
  CHECK_THROWS_AS(client.studies({}, mgnify::test::pages(0)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.studies({}, mgnify::test::pages(251)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.study_samples("MGYS00000001", {}, mgnify::test::pages(-5)),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.studies({}, from_page_0), mgnify::InvalidArgument);
  // The per-analysis annotation lists serve up to 1000 per page.
  CHECK_THROWS_AS(client.analysis_go_terms("MGYA00000002", {}, mgnify::test::pages(1001)),
                  mgnify::InvalidArgument);
  // A cursor list has no page numbers to start from.
  CHECK_THROWS_AS(client.analysis_contigs("MGYA00000001", {}, from_page_2),
                  mgnify::InvalidArgument);
  // A followed URL names its own page and page size.
  CHECK_THROWS_AS(client.follow<mgnify::v1::Study>(rig.server.v1_url() + "/studies", from_page_2),
                  mgnify::InvalidArgument);
  // Paging is not a filter.
  CHECK_THROWS_AS(Query().param("page_size", "10"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Query().param("page", "2"), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());

  CHECK(client.analysis_go_terms("MGYA00000002", {}, mgnify::test::pages(1000)).collect().size() ==
        20);
  auto sent = rig.server.requests();
  REQUIRE(sent.size() == 1);
  CHECK(sent.back().target.find("page_size=1000") != std::string::npos);
  // The cursor list has no maximum page size.
  rig.server.clear_requests();
  auto contigs = client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(2000));
  CHECK(contigs.collect().size() == static_cast<std::size_t>(contigs.total().value_or(0)));
  sent = rig.server.requests();
  REQUIRE(sent.size() == 1);
  CHECK(sent.back().target.find("page_size=2000") != std::string::npos);
}

TEST_CASE("v1: ListOptions::start_page starts a page-number list at that page",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  mgnify::ListOptions third = mgnify::test::pages(10, 5);
  third.start_page = 3;
  const auto from_third = client.studies(Query().ordering("accession"), third).collect();
  const auto all =
      client.studies(Query().ordering("accession"), mgnify::test::pages(10, 25)).collect();
  REQUIRE(from_third.size() == 5);
  REQUIRE(all.size() == 25);
  for (std::size_t i = 0; i < from_third.size(); ++i) CHECK(from_third[i].id() == all[20 + i].id());
}

TEST_CASE("v1: page size 1 and 250 both work against the service", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  auto one = client.study_samples("MGYS00000002", {}, mgnify::test::pages(1));
  CHECK(one.collect().size() == 6);
  CHECK(one.pages_fetched() == 6);
  auto big = client.study_samples("MGYS00000001", {}, mgnify::test::pages(250));
  CHECK(big.collect().size() == 300);
  CHECK(big.pages_fetched() == 2);
}

TEST_CASE("v1: include embeds related objects reachable through the document",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const auto doc = client.document<mgnify::v1::Sample>("samples", "ERS1000000",
                                                       Query().include({"biome", "runs"}));
  CHECK(doc.data.id() == "ERS1000000");
  const auto* runs = doc.data.relationship("runs");
  REQUIRE(runs != nullptr);
  REQUIRE(runs->data_kind == mgnify::v1::Relationship::DataKind::many);
  REQUIRE(runs->data.size() == 1);
  const auto run = doc.included_as<mgnify::v1::Run>("runs", runs->data[0].id);
  REQUIRE(run);
  CHECK(run->accession == "ERR3000000");
  CHECK(run->experiment_type == std::optional<std::string>("metagenomic"));
  const auto biome = doc.included_as<mgnify::v1::Biome>("biomes", *doc.data.biome_lineage());
  REQUIRE(biome);
  CHECK(biome->lineage == "root:Environmental:Aquatic:Marine");
  CHECK(biome->samples_count > 0);
  CHECK(doc.find_included("runs", "nope") == nullptr);
  const auto related = doc.related_included<mgnify::v1::Run>(*runs);
  REQUIRE(related.size() == 1);
  CHECK(related[0].id() == "ERR3000000");

  const auto study =
      client.document<mgnify::v1::Study>("studies", "MGYS00000002", Query().include({"samples"}));
  CHECK(study.data.relationship("samples")->data.size() == 6);
  CHECK(study.related_included<mgnify::v1::Sample>(*study.data.relationship("samples")).size() ==
        6);
}

TEST_CASE("v1: error shapes become typed errors with the server's words", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();

  SECTION("unknown object: JSON:API 404") {
    try {
      client.study("MGYS99999999");
      FAIL("expected NotFoundError");
    } catch (const mgnify::NotFoundError& e) {
      CHECK(e.status() == 404);
      CHECK(e.message() == "Not found.");
      REQUIRE(e.api_errors().size() == 1);
      CHECK(e.api_errors()[0].code == "not_found");
      CHECK(e.api_errors()[0].status == "404");
    }
  }
  SECTION("unrouted path: HTML 404") {
    try {
      client.follow<mgnify::v1::Resource>(rig.server.v1_url() + "/no-such-thing").collect();
      FAIL("expected NotFoundError");
    } catch (const mgnify::NotFoundError& e) {
      CHECK(e.parsed().shape == mgnify::ErrorBody::Shape::text);
      CHECK(e.message().find("Not Found") != std::string::npos);
    }
  }
  SECTION("unsupported include: 400") {
    try {
      client.document<mgnify::v1::Biome>("biomes", "root", Query().include({"studies"}));
      FAIL("expected ValidationError");
    } catch (const mgnify::ValidationError& e) {
      CHECK(e.status() == 400);
      CHECK(e.message() == "This endpoint does not support the include parameter for path studies");
      CHECK(e.parsed().code == "parse_error");
    }
  }
  SECTION("invalid filter choice: 400 with a pointer") {
    auto list = client.samples(Query().metadata_key("not a key"));
    try {
      list.begin();
      FAIL("expected ValidationError");
    } catch (const mgnify::ValidationError& e) {
      REQUIRE(e.api_errors().size() == 1);
      CHECK(e.api_errors()[0].source_pointer == "/data/attributes/metadata_key");
      CHECK(e.api_errors()[0].code == "invalid_choice");
    }
  }
  SECTION("strict /biomes parameters: 400") {
    auto list = client.biomes(Query().lineage("root"));
    CHECK_THROWS_WITH(list.begin(), Catch::Contains("invalid query parameter: lineage"));
  }
  SECTION("Accept: application/vnd.api+json alone: 406") {
    auto options = rig.options();
    mgnify::http::Session session(mgnify::with_default_transport(options),
                                  mgnify::v1::defaults::kBaseUrl);
    mgnify::http::Request r;
    r.url = session.url("studies");
    r.headers.set("Accept", "application/vnd.api+json");
    try {
      session.execute(r);
      FAIL("expected ApiError");
    } catch (const mgnify::ApiError& e) {
      CHECK(e.status() == 406);
      CHECK(e.message() == "Could not satisfy the request Accept header.");
    }
    // The client itself always asks for application/json.
    CHECK(client.study("MGYS00000001").id() == "MGYS00000001");
    CHECK(rig.server.requests().back().headers.find("accept")->second == "application/json");
  }
  SECTION("page past the end: 404 Invalid page.") {
    auto list = client.follow<mgnify::v1::Study>(rig.server.v1_url() + "/studies?page=9999");
    CHECK_THROWS_WITH(list.begin(), Catch::Contains("Invalid page."));
  }
  SECTION("bad cursor: 404 Invalid cursor") {
    auto list = client.follow<mgnify::v1::AnalysisContig>(
        rig.server.v1_url() + "/analyses/MGYA00000001/contigs?cursor=%25%25%25");
    CHECK_THROWS_AS(list.begin(), mgnify::NotFoundError);
  }
}

namespace {
// Lets the first request to a path through and fails the second: the page
// after the first, whether it is fetched ahead in the background or not.
void fail_second_request(mgnify::mock::MockServer& server, const std::string& path, int status) {
  mgnify::mock::Fault pass;
  pass.action = mgnify::mock::Fault::Action::pass;
  server.push_fault(path, pass);
  server.push_fault(path, mgnify::mock::Fault::status_only(status));
}
}  // namespace

TEST_CASE("v1: a page that fails once with 503 is retried with no gap or duplicate",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const std::string path = rig.path("studies/MGYS00000001/samples");
  fail_second_request(rig.server, path, 503);
  auto samples = client.study_samples("MGYS00000001", {}, mgnify::test::pages(50));
  std::vector<std::string> ids;
  for (const auto& s : samples) {
    ids.push_back(s.id());
    REQUIRE(ids.size() <= 300);
  }
  CHECK(ids.size() == 300);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 300);
  CHECK(ids.front() == "ERS1000000");
  CHECK(ids.back() == "ERS1000299");
  CHECK(rig.server.hits(path) == 7);  // six pages, page 2 twice
  CHECK(samples.pages_fetched() == 6);
  std::size_t retries = 0;
  for (const auto& ev : rig.log->events())
    retries += ev.kind == mgnify::http::LogEvent::Kind::retry;
  CHECK(retries == 1);
}

TEST_CASE("v1: without read-ahead the next page is fetched only when needed", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto options = rig.options();
  options.read_ahead = false;
  mgnify::v1::LegacyClient client(options);
  const std::string path = rig.path("studies/MGYS00000001/samples");
  auto samples = client.study_samples("MGYS00000001", {}, mgnify::test::pages(100));
  auto it = samples.begin();
  CHECK(rig.server.hits(path) == 1);
  for (int k = 0; k < 99; ++k) ++it;
  CHECK(rig.server.hits(path) == 1);
  ++it;  // the 101st item needs page 2
  CHECK(rig.server.hits(path) == 2);
  CHECK(it->id() == "ERS1000100");
}

TEST_CASE("v1: a failure mid-walk is thrown after the items before it", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto options = rig.options();
  options.retry.max_attempts = 1;
  mgnify::v1::LegacyClient client(options);
  fail_second_request(rig.server, rig.path("studies/MGYS00000001/samples"), 500);
  auto samples = client.study_samples("MGYS00000001", {}, mgnify::test::pages(100));
  std::size_t n = 0;
  try {
    for (auto it = samples.begin(); it != samples.end(); ++it) {
      ++n;
      REQUIRE(n <= 300);
    }
    FAIL("expected ServerError");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 500);
  }
  std::string trail;
  for (const auto& r : rig.server.requests()) trail += r.target + "\n";
  INFO("requests:\n" << trail);
  CHECK(n == 100);
  REQUIRE(samples.resume_token());
  CHECK(samples.resume_token()->find("page=2") != std::string::npos);
  // The saved token resumes the walk where it stopped: as a URL to follow, or
  // given to the same call, as for a v2 list.
  auto rest = client.follow<mgnify::v1::Sample>(*samples.resume_token());
  CHECK(rest.collect().size() == 200);
  mgnify::ListOptions resume = mgnify::test::pages(100);
  resume.resume_token = samples.resume_token();
  std::vector<std::string> resumed;
  for (const auto& s : client.study_samples("MGYS00000001", {}, resume)) resumed.push_back(s.id());
  std::vector<std::string> whole;
  for (const auto& s : client.study_samples("MGYS00000001", {}, mgnify::test::pages(100))) {
    whole.push_back(s.id());
  }
  REQUIRE(whole.size() == 300);
  CHECK(resumed == std::vector<std::string>(whole.begin() + 100, whole.end()));
  // Another list's token is refused before any request.
  rig.server.clear_requests();
  CHECK_THROWS_AS(client.study_samples("MGYS00000002", {}, resume), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.studies({}, resume), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("v1: login sends the token, mydata lists private studies, secrets never leak",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const std::string token = std::string(mgnify::mock::v1data::kTestToken);

  CHECK_THROWS_AS(client.my_studies().collect(), mgnify::AuthError);

  try {
    client.login("webin-test", "wrong password");
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.status() == 400);
    CHECK(e.message() == "Unable to log in with provided credentials.");
    CHECK(std::string(e.what()).find("wrong password") == std::string::npos);
  }
  CHECK_FALSE(client.logged_in());
  CHECK_THROWS_AS(client.login("", "x"), mgnify::InvalidArgument);

  client.login("webin-test", std::string(mgnify::mock::v1data::kTestPassword));
  CHECK(client.logged_in());
  const auto mine = client.my_studies().collect();
  REQUIRE(mine.size() == 3);
  CHECK(mine[0].id() == "MGYS90000001");
  CHECK(mine[0].is_private == std::optional<bool>(true));
  CHECK(rig.server.requests().back().headers.find("authorization")->second == "Bearer " + token);
  // Private studies are visible by accession once logged in.
  CHECK(client.study("MGYS90000002").is_private == std::optional<bool>(true));

  for (const auto& s : mine) CHECK(nlohmann::json(s).dump().find(token) == std::string::npos);
  for (const auto& ev : rig.log->events()) {
    CHECK(ev.url.find(token) == std::string::npos);
    CHECK(ev.message.find(token) == std::string::npos);
    CHECK(ev.message.find(std::string(mgnify::mock::v1data::kTestPassword)) == std::string::npos);
  }

  // A token the server rejects: 401 in the errors-array shape, no token in the text.
  mgnify::ClientOptions bad = rig.options();
  bad.token = "12345-not-a-jwt";
  mgnify::v1::LegacyClient stranger(bad);
  try {
    stranger.my_studies().collect();
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.status() == 401);
    CHECK(e.message() == "Error decoding signature.");
    CHECK(std::string(e.what()).find("12345-not-a-jwt") == std::string::npos);
  }

  client.logout();
  CHECK_FALSE(client.logged_in());
  CHECK_THROWS_AS(client.study("MGYS90000002"), mgnify::NotFoundError);
}

TEST_CASE("v1: follow accepts same-host links and refuses others", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const auto study = client.study("MGYS00000003");
  const auto* samples = study.relationship("samples");
  REQUIRE(samples != nullptr);
  const auto list = client.follow<mgnify::v1::Sample>(*samples).collect();
  CHECK(list.size() == 6);
  const auto biome =
      client.follow_one<mgnify::v1::Biome>(*study.relationship("biomes")->data[0].self);
  CHECK(biome.lineage == study.biome_lineages().at(0));
  const auto page = client.fetch_page<mgnify::v1::Sample>(*samples->related + "?page_size=4");
  CHECK(page.data.size() == 4);
  CHECK(page.pagination.page == 1);
  CHECK(page.pagination.pages == 2);
  CHECK(page.pagination.count == 6);
  CHECK(page.links.next == std::optional<std::string>(*samples->related + "?page=2&page_size=4"));
  CHECK(page.links.last == page.links.next);
  CHECK_FALSE(page.links.prev);
  const std::size_t before = rig.server.requests().size();
  CHECK_THROWS_AS(
      client.follow<mgnify::v1::Sample>("https://evil.invalid/metagenomics/api/v1/samples"),
      mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.follow_one<mgnify::v1::Sample>("http://127.0.0.2:1/x"),
                  mgnify::InvalidArgument);
  CHECK(rig.server.requests().size() == before);
}

TEST_CASE("v1: every related list of the endpoint table answers with typed items",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const std::string study = "MGYS00000002";
  CHECK(client.study_samples(study).collect().size() == 6);
  const auto downloads = client.study_downloads(study).collect();
  REQUIRE(downloads.size() == 3);
  CHECK(downloads[0].type() == "study-downloads");
  CHECK(downloads[0].file_format->name == "TSV");
  CHECK(downloads[0].pipeline_version() == std::optional<std::string>("4.1"));
  CHECK(client.study_biomes(study).collect().at(0).lineage ==
        "root:Environmental:Aquatic:Freshwater");
  CHECK(client.study_studies(study).collect().empty());
  CHECK(client.study_geocoordinates(study).collect().size() == 5);
  CHECK(client.study_publications("MGYS00000001").collect().at(0).pubmed_id == 25000000);
  CHECK(client.study_analyses(study).collect().size() == 6);

  const std::string marine = "root:Environmental:Aquatic";
  CHECK(client.biome_children(marine).collect().size() == 3);  // itself plus two children
  CHECK(client.biome_genomes("root:Environmental:Aquatic:Marine").total() == 100);
  CHECK(client.biome_studies("root:Engineered:Wastewater:Industrial wastewater").total() > 0);
  CHECK(
      client.biome_samples("root:Host-associated", {}, mgnify::test::at_most(3)).collect().size() ==
      3);

  CHECK(client.sample_runs("ERS1000003").collect().at(0).accession == "ERR3000003");
  CHECK(client.sample_studies("ERS1000003").collect().at(0).id() == "MGYS00000001");
  CHECK(client.run_assemblies("ERR3000003").collect().at(0).accession == "ERZ4000003");
  CHECK(client.run_analyses("ERR3000003").collect().size() == 1);
  CHECK(client.assembly_runs("ERZ4000003").collect().size() == 1);
  CHECK(client.assembly_analyses("ERZ4000003").collect().size() == 1);

  const std::string analysis = "MGYA00000002";
  CHECK(client.analysis_downloads(analysis).collect().at(0).type() == "analysis-job-downloads");
  CHECK(client.analysis_go_terms(analysis).collect().size() == 20);
  CHECK(client.analysis_go_slim(analysis).total() > 0);
  const auto ipr = client.analysis_interpro_identifiers(analysis).collect();
  REQUIRE_FALSE(ipr.empty());
  CHECK(ipr[0].count.has_value());
  CHECK(client.analysis_pfam_entries(analysis).total() == 20);
  CHECK(client.analysis_kegg_orthologs(analysis).total() == 15);
  CHECK(client.analysis_kegg_modules(analysis).collect().at(0).completeness.has_value());
  CHECK(client.analysis_genome_properties(analysis).collect().at(0).presence.has_value());
  CHECK(client.analysis_antismash_gene_clusters(analysis).total() == 5);
  CHECK(client.analysis_taxonomy(analysis, mgnify::v1::TaxonomyKind::legacy).collect().empty());
  CHECK_FALSE(client.analysis_taxonomy(analysis, mgnify::v1::TaxonomyKind::ssu).collect().empty());

  CHECK(client.genome_downloads("MGYG000000001").collect().size() == 2);
  CHECK(client.catalogue_genomes("marine-v2-0").total() == 100);
  CHECK(client.catalogue_downloads("marine-v2-0").collect().size() == 1);
  CHECK(client.super_study_flagship_studies("atlanteco").collect().size() == 10);
  CHECK(client.super_study_related_studies("atlanteco").total() == 30);
  CHECK(client.publication_studies(25000000).total() > 0);
}

TEST_CASE("v1: every top-level collection lists and gets", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const auto root = client.root();
  CHECK(root.at("studies") == rig.server.v1_url() + "/studies");
  CHECK(root.count("annotations/go-terms") == 1);

  auto first = [](auto paged) {
    auto items = paged.collect();
    REQUIRE_FALSE(items.empty());
    return items.front();
  };
  const mgnify::ListOptions two = mgnify::test::at_most(2);
  CHECK(client.sample(first(client.samples({}, two)).id()).accession == "ERS1000000");
  CHECK(client.run(first(client.runs({}, two)).id()).accession == "ERR3000000");
  CHECK(client.assembly(first(client.assemblies({}, two)).id()).accession == "ERZ4000003");
  const auto analysis = client.analysis("MGYA00000004");
  CHECK(analysis.type() == "analysis-jobs");
  CHECK(analysis.relationship("run")->data_kind == mgnify::v1::Relationship::DataKind::null);
  CHECK(analysis.relationship("assembly")->one()->id == "ERZ4000003");
  CHECK(client.analysis("4").id() == "MGYA00000004");
  CHECK(client.biomes().total() == 19);  // root is not listed
  CHECK(client.biome("root:Engineered:Wastewater:Industrial wastewater").biome_name ==
        "Industrial wastewater");
  CHECK(client.publication(25000137).pub_title == std::optional<std::string>("Mock publication 2"));
  CHECK(client.experiment_types().total() == 8);
  CHECK(client.experiment_type("amplicon").samples_count == 3000);
  CHECK(client.pipeline("5.0").release_version == "5.0");
  CHECK(client.genome("MGYG000000002").genome_type == std::optional<std::string>("MAG"));
  CHECK(client.genome_catalogue("soil-v1-0").genome_count == 100);
  CHECK(client.super_study("human-gut").title == "Human gut microbiome");
  CHECK(client.go_term("GO:0008003").lineage == std::optional<std::string>("molecular_function"));
  CHECK(client.interpro_identifiers().total() == 60);
  CHECK(client.pfam_entry("PF00111").accession == "PF00111");
  CHECK(client.kegg_orthologs().total() == 30);
  CHECK(client.kegg_module("M00001").name == std::optional<std::string>("Module 1"));
  CHECK(client.genome_properties().total() == 15);
  CHECK(client.antismash_gene_cluster("NRPS").accession == "NRPS");
  CHECK(client.organisms().total() == 12);
  CHECK(client.related<mgnify::v1::Analysis>("annotations/go-terms", "GO:0008000", "analyses")
            .total() == 6000);
}

TEST_CASE("v1: get_studies fetches in parallel and keeps per-item failures", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const std::vector<std::string> ids = {"MGYS00000001", "MGYS99999999", "MGYS00000010", ".."};
  mgnify::BatchOptions batch;
  batch.concurrency = 3;
  std::size_t reported = 0;
  batch.progress = [&reported](std::size_t done, std::size_t total) {
    CHECK(total == 4);
    reported = done;
  };
  const auto results = client.get_studies(ids, batch);
  CHECK(reported == 4);
  REQUIRE(results.size() == 4);
  CHECK(results[0].value().id() == "MGYS00000001");
  CHECK(results[1].error_as<mgnify::NotFoundError>() != nullptr);
  CHECK(results[2].value().id() == "MGYS00000010");
  CHECK(results[3].error_as<mgnify::InvalidArgument>() != nullptr);
}

TEST_CASE("v1: MGnify accessions and PubMed ids are checked before any request",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  // By the rule of each kind (mgnify/accession.hpp), the same in every client.
  CHECK_THROWS_AS(client.analysis("MGYA123456789"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.analysis("MGYA0"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.study("MGYS123456789"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.study("not-a-study"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.study("PRJXX1"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome("MGYG0000000001"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.sample("MGYS00000001"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.run("ERR1x"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.study_samples("MGYS0000000X"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.analysis_qc_chart("MGYA1x", mgnify::v1::QcChart::seq_length),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.publication(0), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.publication_studies(-3), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.publication_europe_pmc_annotations(-1), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.resource("publications", "PMC123"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.resource("analyses", "ERR000001"), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());

  // One bad id fails only its own item of a batch, and costs no request.
  const auto publications = client.get_publications({25000000, 0});
  REQUIRE(publications.size() == 2);
  CHECK(publications[0].value().id() == "25000000");
  CHECK(publications[1].error_as<mgnify::InvalidArgument>() != nullptr);
  CHECK(rig.server.requests().size() == 1);

  // What is sent is the canonical spelling, INSDC accessions included.
  rig.server.clear_requests();
  CHECK(client.study(" mgys00000001 ").id() == "MGYS00000001");
  CHECK(client.study(" erp100001").id() == "MGYS00000002");
  CHECK(client.analysis("mgya4").id() == "MGYA00000004");
  const auto sent = rig.server.requests();
  REQUIRE(sent.size() == 3);
  CHECK(sent[0].target.find("/studies/MGYS00000001") != std::string::npos);
  CHECK(sent[1].target.find("/studies/ERP100001") != std::string::npos);
  CHECK(sent[2].target.find("/analyses/MGYA00000004") != std::string::npos);
}

TEST_CASE("v1: lineages with spaces and colons are encoded as path segments", "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  const auto b = client.biome("root:Engineered:Wastewater:Industrial wastewater:Petrochemical");
  CHECK(b.lineage == "root:Engineered:Wastewater:Industrial wastewater:Petrochemical");
  CHECK(rig.server.requests().back().target ==
        "/metagenomics/api/v1/biomes/"
        "root:Engineered:Wastewater:Industrial%20wastewater:Petrochemical");
  CHECK(b.self_link() ==
        rig.server.v1_url() +
            "/biomes/root:Engineered:Wastewater:Industrial%20wastewater:Petrochemical");
}

TEST_CASE("v1: a misspelt filter is ignored by the service; typed filters are not",
          "[v1][integration]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  // What the docs warn about: the service answers 200 with the unfiltered list.
  CHECK(client.studies(Query().param("biome-name", "Skin"), mgnify::test::pages(1)).total() ==
        20000);
  CHECK(client.studies(Query().biome_name("Skin"), mgnify::test::pages(1)).total() == 2222);
  auto newest_last =
      client.studies(Query().ordering("study_id", true), mgnify::test::at_most(1)).collect();
  REQUIRE(newest_last.size() == 1);
  CHECK(newest_last[0].id() == "MGYS00020000");
}
