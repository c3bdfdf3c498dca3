// Sequence search (phmmer through MGnify's sequence-search service): the query
// type's checks, the request the mock receives, decoding of HMMER's mixed
// number forms, the join with the Protein service, errors and cancellation.

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "mgnify/http/url.hpp"
#include "mgnify/proteins.hpp"
#include "support/protein_rig.hpp"

using mgnify::InvalidArgument;
using mgnify::proteins::BitscoreCutoffs;
using mgnify::proteins::EvalueCutoffs;
using mgnify::proteins::ProteinClient;
using mgnify::proteins::SequenceDatabase;
using mgnify::proteins::SequenceSearchQuery;
using MockRig = mgnify::test::ProteinRig;

namespace {

const std::string kPhmmerQuery =
    "MKVLAAGIVGLLLASSAFAQEEKKPETVTLTGKVVDAEGNPVAGATVTVKGTDKTTQTDAQGNFSLSV";

std::string phmmer_path() {
  return std::string(mgnify::mock::kSequenceSearchPrefix) + "/search/phmmer";
}

/// The form fields of the one POST the mock received.
mgnify::http::Query phmmer_form(const MockRig& rig) {
  mgnify::http::Query form;
  for (const auto& r : rig.server.requests()) {
    if (r.method != "POST" || r.path != phmmer_path()) continue;
    std::size_t pos = 0;
    while (pos <= r.body.size()) {
      std::size_t end = r.body.find('&', pos);
      if (end == std::string::npos) end = r.body.size();
      const std::string pair = r.body.substr(pos, end - pos);
      const auto eq = pair.find('=');
      form.add(
          mgnify::http::percent_decode(pair.substr(0, eq), true),
          eq == std::string::npos ? "" : mgnify::http::percent_decode(pair.substr(eq + 1), true));
      pos = end + 1;
    }
  }
  return form;
}

std::string phmmer_header(const mgnify::mock::RecordedRequest& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
}

}  // namespace

TEST_CASE("a sequence search query accepts residues or one FASTA record",
          "[proteins][sequence_search]") {
  const SequenceSearchQuery plain(kPhmmerQuery);
  CHECK(plain.residues() == kPhmmerQuery);
  CHECK(plain.header().empty());
  CHECK(plain.database() == SequenceDatabase::full);

  const SequenceSearchQuery fasta(">my protein\r\n" + kPhmmerQuery.substr(0, 30) + "\n  " +
                                  kPhmmerQuery.substr(30) + "*\n\n");
  CHECK(fasta.residues() == kPhmmerQuery + "*");
  CHECK(fasta.header() == "my protein");
  const auto form = fasta.to_form();
  CHECK(form.get("seq") == ">my protein\n" + kPhmmerQuery + "*");
  CHECK(form.get("seqdb") == "full");
}

TEST_CASE("a bad sequence is InvalidArgument, and says why", "[proteins][sequence_search]") {
  CHECK_THROWS_WITH(SequenceSearchQuery(""), Catch::Contains("no residues"));
  CHECK_THROWS_WITH(SequenceSearchQuery(">only a header\n"), Catch::Contains("no residues"));
  CHECK_THROWS_WITH(SequenceSearchQuery(">a\nMKV\n>b\nMKV\n"), Catch::Contains("more than one"));
  CHECK_THROWS_WITH(SequenceSearchQuery("MKV1LL"), Catch::Contains("residue 4 is '1'"));
  CHECK_THROWS_WITH(SequenceSearchQuery("MKV-LL"), Catch::Contains("residue 4 is '-'"));
  CHECK_THROWS_WITH(SequenceSearchQuery("MK*V"), Catch::Contains("'*' may only end"));
  CHECK_THROWS_WITH(SequenceSearchQuery("ACGTACGTACGTNNACGU"), Catch::Contains("translate"));
  CHECK_THROWS_WITH(SequenceSearchQuery(">a\x1b[2J\nMKV"), Catch::Contains("control character"));
  CHECK_THROWS_WITH(SequenceSearchQuery(std::string(SequenceSearchQuery::kMaxResidues + 1, 'M')),
                    Catch::Contains("at most 100000"));
  CHECK_NOTHROW(SequenceSearchQuery(std::string(SequenceSearchQuery::kMaxResidues, 'M')));
  // Short peptides of nucleotide letters are proteins too ("GATTACA" is seven residues).
  CHECK_NOTHROW(SequenceSearchQuery("GATTACA"));
}

TEST_CASE("cut-offs are range-checked, ordered, and one kind at a time",
          "[proteins][sequence_search]") {
  SequenceSearchQuery q(kPhmmerQuery);
  EvalueCutoffs e;
  e.sequence = 0;
  CHECK_THROWS_WITH(q.cutoffs(e), Catch::Contains("incE") && Catch::Contains("greater than 0"));
  e.sequence = 11;
  CHECK_THROWS_WITH(q.cutoffs(e), Catch::Contains("at most 10"));
  e.sequence = std::nan("");
  CHECK_THROWS_AS(q.cutoffs(e), InvalidArgument);
  e.sequence = 0.5;
  e.report_sequence = 0.1;
  CHECK_THROWS_WITH(q.cutoffs(e), Catch::Contains("incE (0.5) must be at most E (0.1)"));
  BitscoreCutoffs t;
  t.hit = 5;
  t.report_hit = 23;
  CHECK_THROWS_WITH(q.cutoffs(t), Catch::Contains("incdomT (5) must be at least domT (23)"));
  t.hit = -1;
  CHECK_THROWS_WITH(q.cutoffs(t), Catch::Contains("greater than 0"));

  // A refused cut-off leaves the query as it was.
  CHECK(std::holds_alternative<std::monostate>(q.cutoffs()));

  EvalueCutoffs good;
  good.sequence = 0.01;
  good.hit = 0.03;
  good.report_sequence = 1;
  good.report_hit = 1e-30;
  good.hit = 1e-31;
  q.cutoffs(good);
  auto form = q.to_form();
  CHECK(form.get("incE") == "0.01");
  CHECK(form.get("incdomE") == "1e-31");
  CHECK(form.get("E") == "1");
  CHECK(form.get("domE") == "1e-30");
  CHECK_FALSE(form.get("incT"));

  BitscoreCutoffs bits;
  bits.sequence = 25;
  bits.report_sequence = 7.25;
  q.cutoffs(bits);
  form = q.to_form();
  CHECK_FALSE(form.get("incE"));
  CHECK_FALSE(form.get("E"));
  CHECK(form.get("incT") == "25");
  CHECK(form.get("T") == "7.25");
  CHECK_FALSE(form.get("domT"));
  CHECK(q.describe() ==
        "seqdb=full residues=" + std::to_string(kPhmmerQuery.size()) + " incT=25 T=7.25");
}

TEST_CASE("database names are mg-toolkit's choices", "[proteins][sequence_search]") {
  for (const auto db : {SequenceDatabase::full, SequenceDatabase::all, SequenceDatabase::partial}) {
    CHECK(mgnify::proteins::parse_sequence_database(mgnify::proteins::database_name(db)) == db);
  }
  CHECK_FALSE(mgnify::proteins::parse_sequence_database("Full"));
  CHECK_FALSE(mgnify::proteins::parse_sequence_database("uniprotkb"));
}

TEST_CASE("the sequence search URL is on the Protein service's origin unless set",
          "[proteins][sequence_search]") {
  const ProteinClient live;
  CHECK(live.sequence_search_url() ==
        "https://www.ebi.ac.uk/metagenomics/sequence-search/search/phmmer");
  MockRig rig;
  auto client = rig.client();
  CHECK(client.sequence_search_url() == rig.server.origin() + phmmer_path());
  client.set_sequence_search_url("http://127.0.0.1:1/elsewhere");
  CHECK(client.sequence_search_url() == "http://127.0.0.1:1/elsewhere");
  // Not a URL a search could be posted to: refused, the one set is kept.
  for (const char* bad : {"127.0.0.1:1/elsewhere", "/search/phmmer", "ftp://127.0.0.1:1/x"}) {
    INFO(bad);
    CHECK_THROWS_AS(client.set_sequence_search_url(bad), mgnify::InvalidArgument);
    CHECK(client.sequence_search_url() == "http://127.0.0.1:1/elsewhere");
  }
  client.set_sequence_search_url("");
  CHECK(client.sequence_search_url() == rig.server.origin() + phmmer_path());
}

TEST_CASE("sequence_search posts a form, follows the 303 and decodes the hits",
          "[proteins][sequence_search][integration]") {
  MockRig rig;
  const auto client = rig.client();
  EvalueCutoffs e;
  e.sequence = 0.01;
  e.report_sequence = 1;
  const auto query =
      SequenceSearchQuery(">q1\n" + kPhmmerQuery).database(SequenceDatabase::partial).cutoffs(e);
  const auto response = client.sequence_search(query);

  // What the mock saw: one form POST with HMMER's field names, then the GET of the results.
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == "POST");
  CHECK(phmmer_header(requests[0], "content-type") == "application/x-www-form-urlencoded");
  CHECK(phmmer_header(requests[0], "accept") == "application/json");
  CHECK(phmmer_header(requests[0], "authorization").empty());
  const auto form = phmmer_form(rig);
  CHECK(form.get("seqdb") == "partial");
  CHECK(form.get("seq") == ">q1\n" + kPhmmerQuery);
  CHECK(form.get("incE") == "0.01");
  CHECK(form.get("E") == "1");
  CHECK(form.params().size() == 4);
  CHECK(requests[1].method == "GET");
  CHECK(phmmer_header(requests[1], "accept") == "application/json");

  const auto& results = response.results;
  CHECK(results.algo == "phmmer");
  CHECK_FALSE(results.uuid.empty());
  CHECK(requests[1].path ==
        std::string(mgnify::mock::kSequenceSearchPrefix) + "/results/" + results.uuid + "/score");
  // Every hit is within E = 1 (the mock's E-values run from 1e-90 to 1e-10).
  REQUIRE(results.hits.size() == 6);
  CHECK(results.stats.nhits == static_cast<std::int64_t>(results.hits.size()));
  CHECK(results.stats.nincluded == static_cast<std::int64_t>(results.hits.size()));  // sent as text
  for (std::size_t i = 0; i < results.hits.size(); ++i) {
    const auto& hit = results.hits[i];
    INFO("hit " << i);
    CHECK(mgnify::proteins::Accession::is_valid(hit.accession()));
    CHECK(hit.name == hit.acc);
    CHECK(hit.score.sent().is_string());  // HMMER's text form...
    REQUIRE(hit.score.has_value());       // ...still reads as a number
    REQUIRE(hit.evalue.has_value());
    CHECK(hit.pvalue.sent().is_number());
    if (i > 0) {
      CHECK(*hit.evalue > *results.hits[i - 1].evalue);
      CHECK(*hit.score < *results.hits[i - 1].score);
    }
    REQUIRE(hit.domains.size() == 1);
    const auto& d = hit.domains[0];
    CHECK(d.jenv.sent().is_string());
    CHECK(d.jenv == static_cast<std::int64_t>(kPhmmerQuery.size()));
    CHECK(d.jali == static_cast<std::int64_t>(kPhmmerQuery.size()));
    CHECK(d.is_reported == 1);
    REQUIRE(d.ievalue.has_value());
    CHECK(*d.ievalue > 0);
    CHECK(d.bitscore.sent().is_number());
    // What the SDK does not name is kept: MGnify's sample and run lists.
    CHECK(hit.raw.contains("mgnify"));
  }
  // A decoded response encodes back to the document the mock sent.
  const nlohmann::json again = response;
  CHECK(again.at("results").at("hits").at(0).at("score") == results.hits[0].score.sent());
  CHECK(again.at("results").contains("_internal"));
  CHECK(again.at("results").at("stats").at("nincluded").is_string());
}

TEST_CASE("the reporting thresholds the search sends change what comes back",
          "[proteins][sequence_search][integration]") {
  MockRig rig;
  const auto client = rig.client();
  EvalueCutoffs strict;
  strict.report_sequence = 1e-60;  // the mock's third hit has E = 1e-58
  const auto few = client.sequence_search(SequenceSearchQuery(kPhmmerQuery).cutoffs(strict));
  CHECK(few.results.hits.size() == 2);
  BitscoreCutoffs bits;
  bits.report_sequence = 200;  // scores 320, 275, 230, 185, ...
  const auto by_bits = client.sequence_search(SequenceSearchQuery(kPhmmerQuery).cutoffs(bits));
  CHECK(by_bits.results.hits.size() == 3);
  for (const auto& h : by_bits.results.hits) CHECK(*h.score >= 200);
}

TEST_CASE("sequence_search_with_records joins every hit to its record, a missing one included",
          "[proteins][sequence_search][integration][batch]") {
  MockRig rig;
  const auto client = rig.client();
  std::vector<std::pair<std::size_t, std::size_t>> progress;
  mgnify::BatchOptions batch;
  batch.concurrency = 3;
  batch.progress = [&](std::size_t done, std::size_t total) { progress.emplace_back(done, total); };
  const auto joined = client.sequence_search_with_records(SequenceSearchQuery(kPhmmerQuery), batch);

  const auto& hits = joined.search.results.hits;
  REQUIRE(joined.matches.size() == hits.size());
  REQUIRE(hits.size() == 6);
  std::size_t missing = 0;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const auto& m = joined.matches[i];
    INFO("hit " << i << " " << m.hit.accession());
    CHECK(m.hit.accession() == hits[i].accession());
    const auto number = mgnify::mock::proteins_data::parse_accession(m.hit.accession());
    REQUIRE(number);
    if (mgnify::mock::proteins_data::is_representative(*number)) {
      REQUIRE(m.record.ok());
      CHECK(m.record->mgyp == m.hit.accession());
      CHECK_FALSE(m.record->sequence.empty());
      CHECK_FALSE(m.record_missing());
    } else {
      ++missing;
      CHECK_FALSE(m.record.ok());
      CHECK(m.record_missing());
      CHECK_THAT(m.record.error().what(), Catch::Contains(m.hit.accession()));
    }
    CHECK(rig.server.hits(mgnify::test::protein_path(m.hit.accession())) == 1);
  }
  CHECK(missing == 1);
  REQUIRE_FALSE(progress.empty());
  CHECK(progress.back() == std::make_pair(hits.size(), hits.size()));
}

TEST_CASE("a bad query is refused before any request", "[proteins][sequence_search][integration]") {
  MockRig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.sequence_search(SequenceSearchQuery("MKV LL\n>x")), InvalidArgument);
  EvalueCutoffs e;
  e.hit = 20;
  CHECK_THROWS_AS(client.sequence_search(SequenceSearchQuery(kPhmmerQuery).cutoffs(e)),
                  InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("the service's 400 for bad parameters is an ApiError carrying its detail",
          "[proteins][sequence_search][integration][errors]") {
  // The SDK never sends these; the session posts them as another client would.
  MockRig rig;
  const auto client = rig.client();
  const auto post = [&](const std::string& body) {
    mgnify::http::Request r;
    r.method = mgnify::http::Method::post;
    r.url = client.sequence_search_url();
    r.body = body;
    r.headers.set("Content-Type", "application/x-www-form-urlencoded");
    r.headers.set("Accept", "application/json");
    return client.session().execute(std::move(r));
  };
  try {
    (void)post("seqdb=uniprotkb&seq=MKVLL");
    FAIL("expected an ApiError");
  } catch (const mgnify::ApiError& e) {
    CHECK(e.status() == 400);
    CHECK_THAT(e.what(), Catch::Contains("Unknown sequence database 'uniprotkb'"));
  }
  CHECK_THROWS_WITH(post("seq=MKVLL&incE=0.01&incT=25"), Catch::Contains("not both"));
  CHECK_THROWS_WITH(post("seq=MKVLL&E=20"), Catch::Contains("Invalid value for E"));
  CHECK_THROWS_WITH(post("seq=MK1"), Catch::Contains("invalid character"));
  CHECK_THROWS_WITH(post("seqdb=full"), Catch::Contains("No sequence given"));
}

TEST_CASE("a results page that is not HMMER's JSON is a DecodeError naming the URL",
          "[proteins][sequence_search][integration][errors]") {
  MockRig rig;
  const auto client = rig.client();
  rig.server.push_fault(phmmer_path(), mgnify::mock::Fault::status_only(200, R"({"hits": []})"));
  try {
    (void)client.sequence_search(SequenceSearchQuery(kPhmmerQuery));
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.url() == client.sequence_search_url());
    CHECK_THAT(e.what(), Catch::Contains("results"));
  }
  rig.server.push_fault(phmmer_path(), mgnify::mock::Fault::status_only(
                                           200, R"({"results": {"hits": [{"domains": 3}]}})"));
  try {
    (void)client.sequence_search(SequenceSearchQuery(kPhmmerQuery));
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/results/hits/0/domains");
  }
}

TEST_CASE("a sequence search can be cancelled while the service is slow",
          "[proteins][sequence_search][integration][cancel]") {
  MockRig rig;
  const auto client = rig.client();
  rig.server.push_fault(phmmer_path(), mgnify::mock::Fault::slow(std::chrono::milliseconds(1500)));
  const mgnify::CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(client.sequence_search(SequenceSearchQuery(kPhmmerQuery), cancel),
                  mgnify::CancelledError);
  const auto took = std::chrono::steady_clock::now() - start;
  canceller.join();
  CHECK(took < std::chrono::milliseconds(1000));

  // A cancelled token stops the batch call before anything is sent.
  rig.server.clear_requests();
  CHECK_THROWS_AS(
      client.sequence_search_with_records(SequenceSearchQuery(kPhmmerQuery), {}, cancel),
      mgnify::CancelledError);
  CHECK(rig.server.requests().empty());
}
