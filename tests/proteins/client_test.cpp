// Integration tests: ProteinClient through libcurl to the mock service on
// loopback. Each Rule and Error of the service document has a test here.

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <utility>

#include "mgnify/http/curl_transport.hpp"
#include "mgnify/proteins.hpp"
#include "support/allow_deprecated.hpp"
#include "support/protein_rig.hpp"

using mgnify::InvalidArgument;
using mgnify::NotFoundError;
using mgnify::RateLimitedError;
using mgnify::ValidationError;
using mgnify::mock::proteins_data::accession;
using mgnify::proteins::ProteinClient;
using mgnify::proteins::SearchQuery;
using MockRig = mgnify::test::ProteinRig;
using mgnify::test::protein_path;
using mgnify::test::protein_search_path;

namespace {

std::vector<std::string> mgyps(const std::vector<mgnify::proteins::SearchHit>& hits) {
  std::vector<std::string> out;
  for (const auto& h : hits) out.push_back(h.mgyp);
  return out;
}

/// A batch of at most `concurrency` requests in flight.
mgnify::BatchOptions at_most(std::size_t concurrency, mgnify::BatchProgressFn progress = {}) {
  mgnify::BatchOptions batch;
  batch.concurrency = concurrency;
  batch.progress = std::move(progress);
  return batch;
}

std::vector<std::string> accessions(const std::vector<std::uint64_t>& numbers, std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::min(n, numbers.size()); ++i)
    out.push_back(accession(numbers[i]));
  return out;
}

// A raw GET through the client's own session, for requests the typed API
// refuses to build (no filter, two filters, out-of-range limits).
mgnify::http::Response raw_search(const ProteinClient& client, const mgnify::http::Query& query) {
  return client.session().get(client.session().url("protein/search", query));
}

}  // namespace

TEST_CASE("the default base URL is the public Protein service", "[proteins][client]") {
  const ProteinClient client;
  CHECK(client.base_url() == "https://www.ebi.ac.uk/metagenomics/proteins/api/v1");
  CHECK(client.protein_url(mgnify::proteins::Accession("5")) ==
        "https://www.ebi.ac.uk/metagenomics/proteins/api/v1/protein/MGYP000000000005");
}

TEST_CASE("protein returns the full record of a representative",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  const auto p = client.protein("MGYP000000000013");
  const auto expected = mgnify::mock::proteins_data::protein_record(13);
  CHECK(p.mgyp == "MGYP000000000013");
  CHECK(p.sequence == expected.at("sequence").get<std::string>());
  CHECK(p.full_length == expected.at("full_length").get<bool>());
  CHECK(p.cluster_size == expected.at("cluster_size").get<std::int64_t>());
  CHECK(p.biomes.size() == expected.at("biomes").size());
  CHECK(p.pfam_annotations.size() == expected.at("pfam_annotations").size());
  CHECK(p.study_assembly_contigs.size() == expected.at("study_assembly_contigs").size());
  CHECK_FALSE(p.superseded());
  CHECK(p.superseded_chain.empty());
  // The typed record writes back exactly what the service sent.
  CHECK(nlohmann::json(p) == nlohmann::json::parse(expected.dump()));
}

TEST_CASE("every accession form reaches the same record with one canonical request",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  for (const char* form : {"MGYP000261684433", "mgyp000261684433", "261684433"}) {
    INFO(form);
    rig.server.clear_requests();
    const auto p = client.protein(form);
    CHECK(p.mgyp == "MGYP000261684433");
    REQUIRE(rig.server.requests().size() == 1);
    CHECK(rig.server.requests()[0].target == protein_path("MGYP000261684433"));
  }
  // The mock, like the service, tolerates the forms itself.
  for (const char* form : {"mgyp000261684433", "261684433"}) {
    const auto r = client.session().get(client.session().url(std::string("protein/") + form));
    CHECK(nlohmann::json::parse(r.body).at("mgyp") == "MGYP000261684433");
  }
}

TEST_CASE("a malformed accession is InvalidArgument before any request",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.protein("MGYPXYZ"), InvalidArgument);
  CHECK_THROWS_AS(client.protein("../search"), InvalidArgument);
  CHECK_THROWS_AS(client.protein(""), InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("Errors: 404 for an unknown accession is a NotFoundError naming it",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  try {
    (void)client.protein("11");
    FAIL("expected NotFoundError");
  } catch (const NotFoundError& e) {
    CHECK(e.status() == 404);
    CHECK(std::string(e.what()).find("MGYP000000000011") != std::string::npos);
    CHECK(e.hint() == "MGYP000000000011 is not a protein cluster representative");
    CHECK(e.message() == "Not Found");
    CHECK(e.url() == rig.server.proteins_url() + "/protein/MGYP000000000011");
  }
  CHECK(rig.server.hits(protein_path("MGYP000000000011")) == 1);  // a 404 is not retried
}

TEST_CASE("Errors: 404 for a malformed accession sent to the service",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.session().get(client.session().url("protein/MGYQ12")), NotFoundError);
  CHECK_THROWS_AS(client.session().get(client.session().url("protein/MGYP0000000000013")),
                  NotFoundError);
}

TEST_CASE("Errors: 302 superseded accessions are followed whatever Location looks like",
          "[proteins][client][integration][superseded]") {
  MockRig rig;
  const auto client = rig.client();
  struct Case {
    const char* requested;
    std::uint64_t replacement;
    const char* form;
  };
  for (const Case& c :
       {Case{"900001", 13, "absolute URL"}, Case{"mgyp000000900002", 16, "relative path"},
        Case{"MGYP000000900003", 19, "bare accession"}}) {
    INFO(c.form);
    const auto p = client.protein(c.requested);
    const std::string requested = mgnify::proteins::Accession(c.requested).str();
    CHECK(p.mgyp == accession(c.replacement));
    CHECK(p.superseded());
    CHECK(p.superseded_from == requested);
    CHECK(p.superseded_chain == std::vector<std::string>{requested});
    CHECK(p.sequence == mgnify::mock::proteins_data::protein_record(c.replacement)
                            .at("sequence")
                            .get<std::string>());
  }
  // The mock really sent each Location form, so the client resolved each one.
  auto location_of = [&](const std::string& acc) {
    mgnify::http::Request req;
    req.url = client.session().url("protein/" + acc);
    const auto r = client.session().transport().send(req);
    CHECK(r.status == 302);
    return r.headers.get("Location").value_or("");
  };
  CHECK(location_of("MGYP000000900001") == rig.server.proteins_url() + "/protein/MGYP000000000013");
  CHECK(location_of("MGYP000000900002") ==
        "/metagenomics/proteins/api/v1/protein/MGYP000000000016");
  CHECK(location_of("MGYP000000900003") == "MGYP000000000019");
  CHECK(location_of("MGYP000000900005") == "22");
}

TEST_CASE("Errors: a two-hop superseded chain is followed and recorded",
          "[proteins][client][integration][superseded]") {
  MockRig rig;
  const auto client = rig.client();
  const auto p = client.protein("MGYP000000900004");
  CHECK(p.mgyp == "MGYP000000000022");
  CHECK(p.superseded_from == "MGYP000000900004");
  CHECK(p.superseded_chain == std::vector<std::string>{"MGYP000000900004", "MGYP000000900005"});
  CHECK(rig.server.hits(protein_path("MGYP000000900005")) == 1);
  // The second hop's Location was the bare digits "22".
  CHECK(rig.server.hits(protein_path("22")) == 1);
}

TEST_CASE("Errors: superseded by a record that is gone is a NotFoundError with the hops",
          "[proteins][client][integration][superseded]") {
  MockRig rig;
  const auto client = rig.client();
  try {
    (void)client.protein("900009");
    FAIL("expected NotFoundError");
  } catch (const NotFoundError& e) {
    CHECK(std::string(e.what()).find("MGYP000000900009") != std::string::npos);
    REQUIRE(e.redirects().size() == 1);
    CHECK(e.redirects()[0] == rig.server.proteins_url() + "/protein/MGYP000000900009");
    CHECK(e.url() == rig.server.proteins_url() + "/protein/MGYP000000000011");
  }
}

TEST_CASE("Rule 1: no filter or two filters is a 422 with the validation list",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  for (const auto& query :
       {mgnify::http::Query{},
        mgnify::http::Query{{"biome_id", "132"}, {"pfam_accession", "PF00005"}},
        mgnify::http::Query{{"biome_id", "132"}, {"biome_lineage", "root"}, {"limit", "5"}}}) {
    INFO(query.encoded());
    try {
      (void)raw_search(client, query);
      FAIL("expected ValidationError");
    } catch (const ValidationError& e) {
      CHECK(e.status() == 422);
      CHECK(e.parsed().shape == mgnify::ErrorBody::Shape::detail_list);
      REQUIRE(e.issues().size() == 1);
      CHECK(e.issues()[0].type == "value_error");
      CHECK(e.issues()[0].loc == std::vector<std::string>{"query"});
      CHECK(e.issues()[0].msg ==
            "Provide exactly one of biome_id or pfam_accession or biome_lineage");
      CHECK(e.message() ==
            "query: Provide exactly one of biome_id or pfam_accession or biome_lineage");
      // Exactly the documented body, no extra keys.
      CHECK(
          nlohmann::json::parse(e.body()) ==
          nlohmann::json::parse(
              R"({"detail": [{"type": "value_error", "loc": ["query"], "msg": "Provide exactly one of biome_id or pfam_accession or biome_lineage"}]})"));
    }
  }
  CHECK(rig.server.hits(protein_search_path()) == 3);  // a 422 is not retried
}

TEST_CASE("Rule 2: a lineage that matches no biome is a 422 with a plain-string detail",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  try {
    (void)client.search(SearchQuery::by_lineage("Wastewater"));
    FAIL("expected ValidationError");
  } catch (const ValidationError& e) {
    CHECK(e.status() == 422);
    CHECK(e.parsed().shape == mgnify::ErrorBody::Shape::detail_string);
    CHECK(e.issues().empty());
    CHECK(e.message() ==
          "No biome matches lineage 'Wastewater'. Provide a full lineage such as "
          "'root:Engineered:Wastewater'.");
    CHECK(std::string(e.what()).find("Provide a full lineage") != std::string::npos);
  }
  // A lineage that names a biome without proteins is not an error.
  CHECK(client.search(SearchQuery::by_lineage("root:Environmental:Air")).empty());
}

TEST_CASE("Rule 3: a limit out of range is refused locally and by the service",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.search(SearchQuery::by_pfam("PF00005").limit(1001)), InvalidArgument);
  CHECK_THROWS_AS(client.search(SearchQuery::by_pfam("PF00005").limit(0)), InvalidArgument);
  CHECK(rig.server.hits(protein_search_path()) == 0);

  struct Case {
    const char* limit;
    const char* type;
    const char* msg;
  };
  for (const Case& c :
       {Case{"1001", "less_than_equal", "Input should be less than or equal to 1000"},
        Case{"0", "greater_than_equal", "Input should be greater than or equal to 1"},
        Case{"ten", "int_parsing",
             "Input should be a valid integer, unable to parse string as an integer"}}) {
    INFO(c.limit);
    try {
      (void)raw_search(client, {{"pfam_accession", "PF00005"}, {"limit", c.limit}});
      FAIL("expected ValidationError");
    } catch (const ValidationError& e) {
      REQUIRE(e.issues().size() == 1);
      CHECK(e.issues()[0].type == c.type);
      CHECK(e.issues()[0].loc == std::vector<std::string>{"query", "limit"});
      CHECK(e.issues()[0].msg == c.msg);
      CHECK(e.issues()[0].raw.at("input") == c.limit);
    }
  }
}

TEST_CASE("Rule 4: success is a JSON array of hits; spaces are percent-encoded",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  const std::string lineage = "root:Engineered:Wastewater:Industrial wastewater";
  const auto hits = client.search(SearchQuery::by_lineage(lineage).limit(1000));
  REQUIRE_FALSE(hits.empty());
  CHECK(mgyps(hits) == accessions(mgnify::mock::proteins_data::with_lineage(lineage), 1000));
  for (const auto& h : hits) {
    CHECK(h.full_length.has_value());
    CHECK(h.cluster_size.has_value());
  }
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].target ==
        protein_search_path() +
            "?biome_lineage=root:Engineered:Wastewater:Industrial%20wastewater&limit=1000");
}

TEST_CASE("Rule 5: limit defaults to 50 and reaches 1000 (mock values)",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  REQUIRE(mgnify::mock::proteins_data::with_pfam("PF00005").size() >= 1000);
  CHECK(client.search(SearchQuery::by_pfam("PF00005")).size() == 50);
  CHECK(client.search(SearchQuery::by_pfam("PF00005").limit(1)).size() == 1);
  CHECK(client.search(SearchQuery::by_pfam("PF00005").limit(1000)).size() == 1000);
}

TEST_CASE("Rule 6: hits are ordered by accession (mock behaviour)",
          "[proteins][client][integration][rules]") {
  MockRig rig;
  const auto client = rig.client();
  const auto hits = client.search(SearchQuery::by_pfam(5).limit(1000));
  REQUIRE(hits.size() == 1000);
  CHECK(std::is_sorted(hits.begin(), hits.end(),
                       [](const auto& a, const auto& b) { return a.mgyp < b.mgyp; }));
  const auto names = mgyps(hits);
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == 1000);
}

TEST_CASE("search by biome id, Pfam and lineage with sub-biomes",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  const auto by_id = client.search(SearchQuery::by_biome_id(46).limit(1000));
  CHECK(mgyps(by_id) == accessions(mgnify::mock::proteins_data::with_biome_id(46), 1000));

  // The lineage of biome 46 also matches its sub-biomes 47 and 48.
  const auto by_lineage =
      client.search(SearchQuery::by_lineage("root:Engineered:Wastewater").limit(1000));
  CHECK(by_lineage.size() > by_id.size());
  std::set<std::string> lineage_set;
  for (const auto& h : by_lineage) lineage_set.insert(h.mgyp);
  for (const auto& h : by_id) CHECK(lineage_set.count(h.mgyp) == 1);
  for (int sub : {47, 48}) {
    for (const auto& h : client.search(SearchQuery::by_biome_id(sub).limit(1000))) {
      CHECK(lineage_set.count(h.mgyp) == 1);
    }
  }
  const auto pfam = client.search(SearchQuery::by_pfam("pf04659").limit(3));
  CHECK(mgyps(pfam) == accessions(mgnify::mock::proteins_data::with_pfam("PF04659"), 3));
  CHECK(client.search(SearchQuery::by_biome_id(999)).empty());
}

TEST_CASE(
    "get_proteins returns one entry per input, in order, for a mix of good, unknown and malformed",
    "[proteins][client][integration][batch]") {
  MockRig rig;
  const auto client = rig.client();
  const std::vector<std::string> input = {
      "MGYP000000000010", "11", "not-an-accession", "mgyp000000000013",
      "900003",           "",   "261684433",        "MGYP000000000012"};
  const auto results = client.get_proteins(input, at_most(4));
  REQUIRE(results.size() == input.size());
  CHECK(results[0].ok());
  CHECK(results[0]->mgyp == "MGYP000000000010");
  REQUIRE_FALSE(results[1].ok());
  REQUIRE(results[1].error_as<NotFoundError>() != nullptr);
  CHECK(std::string(results[1].error().what()).find("MGYP000000000011") != std::string::npos);
  REQUIRE_FALSE(results[2].ok());
  CHECK(results[2].error_as<InvalidArgument>() != nullptr);
  CHECK(std::string(results[2].error().what()).find("not-an-accession") != std::string::npos);
  CHECK(results[3]->mgyp == "MGYP000000000013");
  CHECK(results[4]->mgyp == "MGYP000000000019");
  CHECK(results[4]->superseded_from == "MGYP000000900003");
  CHECK(results[5].error_as<InvalidArgument>() != nullptr);
  CHECK(results[6]->mgyp == "MGYP000261684433");
  CHECK(results[7].error_as<NotFoundError>() != nullptr);
  CHECK_THROWS_AS(results[7].value(), NotFoundError);
  // Malformed inputs never reach the network: 6 well-formed inputs, one of
  // them redirected once.
  CHECK(rig.server.requests().size() == 7);
}

TEST_CASE("get_proteins keeps input order under concurrency and reports progress",
          "[proteins][client][integration][batch]") {
  MockRig rig;
  const auto client = rig.client();
  const auto input = accessions(mgnify::mock::proteins_data::representative_numbers(), 40);
  std::vector<std::pair<std::size_t, std::size_t>> progress;
  const auto results = client.get_proteins(
      input,
      at_most(8, [&](std::size_t done, std::size_t total) { progress.emplace_back(done, total); }));
  REQUIRE(results.size() == 40);
  for (std::size_t i = 0; i < input.size(); ++i) {
    REQUIRE(results[i].ok());
    CHECK(results[i]->mgyp == input[i]);
  }
  REQUIRE(progress.size() == 40);
  for (std::size_t i = 0; i < progress.size(); ++i) {
    CHECK(progress[i] == std::make_pair(i + 1, std::size_t{40}));
  }
  CHECK(client.get_proteins(std::vector<std::string>{}, at_most(3)).empty());
  // Concurrency 0 is the client's default, not an error.
  const auto defaults = client.get_proteins(input, at_most(0));
  REQUIRE(defaults.size() == input.size());
  for (std::size_t i = 0; i < input.size(); ++i) CHECK(defaults[i]->mgyp == input[i]);
}

TEST_CASE("get_proteins runs requests concurrently up to the limit",
          "[proteins][client][integration][batch]") {
  // Counts requests in flight around the real curl transport, so the check
  // does not depend on wall-clock timing.
  struct CountingTransport : mgnify::http::Transport {
    mgnify::http::CurlTransport inner{mgnify::http::CurlOptions{}};
    std::atomic<int> in_flight{0};
    std::atomic<int> max_in_flight{0};
    mgnify::http::Response send(const mgnify::http::Request& request) override {
      const int now = ++in_flight;
      int seen = max_in_flight.load();
      while (now > seen && !max_in_flight.compare_exchange_weak(seen, now)) {
      }
      struct Leave {
        std::atomic<int>& n;
        ~Leave() { --n; }
      } leave{in_flight};
      return inner.send(request);
    }
  };
  MockRig rig;
  rig.server.set_latency(std::chrono::milliseconds(50));
  auto transport = std::make_shared<CountingTransport>();
  auto options = rig.options();
  options.transport = transport;
  const ProteinClient client(options);
  const auto input = accessions(mgnify::mock::proteins_data::representative_numbers(), 16);
  const auto results = client.get_proteins(input, at_most(4));
  for (const auto& r : results) CHECK(r.ok());
  CHECK(transport->max_in_flight.load() <= 4);
  CHECK(transport->max_in_flight.load() >= 2);
  CHECK(transport->in_flight.load() == 0);

  transport->max_in_flight = 0;
  (void)client.get_proteins(input, at_most(1));
  CHECK(transport->max_in_flight.load() == 1);

  // No options: at most defaults::kConcurrency (8) of the 16 at once.
  transport->max_in_flight = 0;
  for (const auto& r : client.get_proteins(input)) CHECK(r.ok());
  CHECK(transport->max_in_flight.load() <=
        static_cast<int>(mgnify::proteins::defaults::kConcurrency));
  CHECK(transport->max_in_flight.load() >= 2);
}

TEST_CASE("get_proteins obeys the client's rate limit", "[proteins][client][integration][batch]") {
  MockRig rig;
  auto options = rig.options();
  options.clock = nullptr;  // the real clock: the limiter has to make real time pass
  options.rate_limit.enabled = true;
  options.rate_limit.requests_per_second = 20;
  options.rate_limit.burst = 1;
  const ProteinClient client(options);
  const auto input = accessions(mgnify::mock::proteins_data::representative_numbers(), 6);
  const auto start = std::chrono::steady_clock::now();
  const auto results = client.get_proteins(input, at_most(6));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  for (const auto& r : results) CHECK(r.ok());
  // One request at once, then five more at 20 per second: at least 250 ms.
  CHECK(elapsed >= std::chrono::milliseconds(240));
}

TEST_CASE("throttling (429 then success) during get_proteins is retried per entry",
          "[proteins][client][integration][batch]") {
  MockRig rig;
  const auto client = rig.client();
  const auto input = accessions(mgnify::mock::proteins_data::representative_numbers(), 6);
  rig.server.push_fault(protein_path(input[2]), mgnify::mock::Fault::throttled(std::string("2")));
  rig.server.push_fault(protein_path(input[4]), mgnify::mock::Fault::throttled(std::nullopt));
  const auto results = client.get_proteins(input, at_most(3));
  for (std::size_t i = 0; i < input.size(); ++i) {
    REQUIRE(results[i].ok());
    CHECK(results[i]->mgyp == input[i]);
  }
  CHECK(rig.server.hits(protein_path(input[2])) == 2);
  CHECK(rig.server.hits(protein_path(input[4])) == 2);
  CHECK(rig.server.hits(protein_path(input[0])) == 1);
  // The server's Retry-After was honoured (on the fake clock).
  const auto sleeps = rig.clock->sleeps();
  CHECK(std::find(sleeps.begin(), sleeps.end(), std::chrono::seconds(2)) != sleeps.end());
}

TEST_CASE("throttling that outlasts the retries fails only that entry",
          "[proteins][client][integration][batch]") {
  MockRig rig;
  auto options = rig.options();
  options.retry.max_attempts = 2;
  const ProteinClient client(options);
  const auto input = accessions(mgnify::mock::proteins_data::representative_numbers(), 3);
  rig.server.push_faults(protein_path(input[1]), mgnify::mock::Fault::throttled(std::string("1")),
                         2);
  const auto results = client.get_proteins(input, at_most(3));
  CHECK(results[0].ok());
  REQUIRE(results[1].error_as<RateLimitedError>() != nullptr);
  CHECK(results[1].error_as<RateLimitedError>()->attempts() == 2);
  CHECK(results[1].error_as<RateLimitedError>()->message() == "Request was throttled.");
  CHECK(results[2].ok());
}

TEST_CASE("search_and_fetch turns hits into records in hit order",
          "[proteins][client][integration][batch]") {
  MockRig rig;
  const auto client = rig.client();
  const auto query = SearchQuery::by_lineage("root:Engineered:Wastewater").limit(12);
  const auto hits = client.search(query);
  const auto records = client.search_and_fetch(query, at_most(4));
  REQUIRE(records.size() == 12);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    REQUIRE(records[i].ok());
    CHECK(records[i]->mgyp == hits[i].mgyp);
    CHECK(records[i]->cluster_size == hits[i].cluster_size);
  }
  CHECK_THROWS_AS(client.search_and_fetch(SearchQuery::by_lineage("Wastewater")), ValidationError);
}

TEST_CASE(
    "one rule: a batch takes its CallOptions right after the accessions or the query, with no {} "
    "for the BatchOptions",
    "[proteins][client][integration][batch][one-rule]") {
  MockRig rig;
  const auto client = rig.client();
  const std::vector<std::string> input = {"MGYP000000000010", "MGYP000000000013"};
  const auto fetched = client.get_proteins(input, mgnify::CallOptions());
  REQUIRE(fetched.size() == 2);
  CHECK(fetched[1]->mgyp == "MGYP000000000013");

  const mgnify::CancelToken stopped;
  stopped.cancel();
  rig.server.clear_requests();
  for (const auto& entry : client.get_proteins(input, stopped)) {
    CHECK(entry.error_as<mgnify::CancelledError>() != nullptr);
  }
  const std::vector<mgnify::proteins::Accession> typed = {
      mgnify::proteins::Accession("MGYP000000000010")};
  mgnify::CallOptions past;
  past.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const auto late = client.get_proteins(typed, past);
  REQUIRE(late.size() == 1);
  CHECK(late[0].error_as<mgnify::DeadlineExceededError>() != nullptr);
  CHECK_THROWS_AS(
      client.search_and_fetch(SearchQuery::by_lineage("root:Engineered:Wastewater"), stopped),
      mgnify::CancelledError);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("a client can share another client's session", "[proteins][client][integration]") {
  MockRig rig;
  const auto first = rig.client();
  const ProteinClient second(first.shared_session());
  CHECK(&second.session() == &first.session());
  CHECK(second.shared_session() == first.shared_session());
  CHECK(second.protein("13").mgyp == "MGYP000000000013");
  CHECK_THROWS_AS(ProteinClient(std::shared_ptr<mgnify::http::Session>{}), InvalidArgument);
}

TEST_CASE("a record of the wrong shape is a DecodeError naming the field and URL",
          "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  rig.server.push_fault(protein_path("MGYP000000000013"),
                        mgnify::mock::Fault::status_only(200, R"({"mgyp": 13, "sequence": "MK"})"));
  try {
    (void)client.protein("13");
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/mgyp");
    CHECK(e.url() == rig.server.proteins_url() + "/protein/MGYP000000000013");
  }
  rig.server.push_fault(protein_search_path(),
                        mgnify::mock::Fault::status_only(200, R"({"hits": []})"));
  CHECK_THROWS_AS(client.search(SearchQuery::by_biome_id(46)), mgnify::DecodeError);
  rig.server.push_fault(protein_search_path(),
                        mgnify::mock::Fault::status_only(
                            200, R"([{"mgyp": "MGYP000000000010"}, {"cluster_size": 1}])"));
  try {
    (void)client.search(SearchQuery::by_biome_id(46));
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/1/mgyp");
  }
}

TEST_CASE("a transient server error during search is retried", "[proteins][client][integration]") {
  MockRig rig;
  const auto client = rig.client();
  rig.server.push_fault(protein_search_path(), mgnify::mock::Fault::html(503));
  const auto hits = client.search(SearchQuery::by_biome_id(132).limit(3));
  CHECK(hits.size() == 3);
  CHECK(rig.server.hits(protein_search_path()) == 2);
}

TEST_CASE("a redirect that lands on the same accession is not a supersession",
          "[proteins][client][integration][superseded]") {
  MockRig rig;
  const auto client = rig.client();
  rig.server.push_fault(protein_path("MGYP000000000013"),
                        mgnify::mock::Fault::redirect(302, "mgyp000000000013"));
  const auto p = client.protein("13");
  CHECK(p.mgyp == "MGYP000000000013");
  CHECK_FALSE(p.superseded());
  CHECK(p.superseded_chain.empty());
  CHECK(rig.server.hits(protein_path("mgyp000000000013")) == 1);
}

TEST_CASE(
    "one rule: a single get is named for its object and a batch get_<plural>, as in v1 and v2",
    "[proteins][client][integration][one-rule]") {
  MockRig rig;
  const auto client = rig.client();
  const mgnify::proteins::Protein one = client.protein("MGYP000000000013", mgnify::CallOptions());
  const std::vector<mgnify::Result<mgnify::proteins::Protein>> many =
      client.get_proteins(std::vector<std::string>{"MGYP000000000013", "MGYP000000000010"},
                          mgnify::BatchOptions(), mgnify::CallOptions());
  CHECK(one.mgyp == "MGYP000000000013");
  REQUIRE(many.size() == 2);
  CHECK(many[0].value().mgyp == "MGYP000000000013");
  CHECK(many[1].value().mgyp == "MGYP000000000010");
}

TEST_CASE("deprecated: get and get_many still fetch",
          "[proteins][client][integration][deprecated]") {
  MockRig rig;
  const auto client = rig.client();
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  const auto one = client.get("MGYP000000000013");
  const auto many = client.get_many(std::vector<std::string>{"MGYP000000000010"});
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  CHECK(one.mgyp == "MGYP000000000013");
  REQUIRE(many.size() == 1);
  CHECK(many[0].value().mgyp == "MGYP000000000010");
}
