// LegacyClient genome search through libcurl against the v1 mock: COBS as a
// form POST, the sourmash gather job with the same handle, poll and results
// as v2, and the service's error bodies.

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "genome_search_mock.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "support/v1_rig.hpp"

using namespace std::chrono_literals;
namespace mock = mgnify::mock;

namespace {

using V1SearchRig = mgnify::test::V1Rig;

mgnify::GatherRequest v1_gather_request(const std::string& name) {
  mgnify::GatherRequest request;
  request.mag_catalogues = {"marine-v2-0"};
  request.signatures = {
      mgnify::SignatureFile::from_text(name + ".sig", mock::sourmash_signature(name))};
  return request;
}

mgnify::JobWaitOptions v1_quick_wait() {
  mgnify::JobWaitOptions wait;
  wait.first_interval = 500ms;
  wait.max_interval = 2s;
  wait.deadline = 30s;
  return wait;
}

}  // namespace

TEST_CASE("v1 genome_search posts the website's form and types the hits", "[v1][genome-search]") {
  V1SearchRig rig;
  auto client = rig.client();
  mgnify::CobsQuery query;
  query.sequence = std::string(120, 'A') + std::string(120, 'C') + "GATTACA";
  query.threshold = 0.4;
  query.catalogues_filter = {"soil-v1-0"};
  const auto result = client.genome_search(query);
  // The service read threshold and catalogues_filter from the form.
  REQUIRE(result.threshold);
  CHECK(*result.threshold == Approx(0.4));
  REQUIRE_FALSE(result.results.empty());
  CHECK(result.results.size() <= 10);
  for (const auto& hit : result.results) {
    REQUIRE(hit.cobs.percent_kmers_found);
    CHECK(*hit.cobs.percent_kmers_found >= 40.0);
    // The genome record is kept as sent: here the v1 genome resource.
    CHECK(hit.mgnify.at("id") == hit.cobs.genome);
    CHECK(hit.mgnify.at("type") == "genomes");
    CHECK(nlohmann::json(hit) == hit.raw.json());
  }
  CHECK(rig.hits("genome-search") == 1);

  // v1's form has no k-mer size or result limit: refused rather than dropped.
  query.kmer_size = 21;
  CHECK_THROWS_AS(client.genome_search(query), mgnify::InvalidArgument);
  query.kmer_size.reset();
  query.max_results = 3;
  CHECK_THROWS_AS(client.genome_search(query), mgnify::InvalidArgument);
  CHECK(rig.hits("genome-search") == 1);
}

TEST_CASE("v1 gather: submit, wait, rows, file", "[v1][genome-search][gather]") {
  V1SearchRig rig;
  auto client = rig.fake_time_client();
  const auto job = client.submit_gather(v1_gather_request("v1-sample"));
  CHECK(job.status == mgnify::JobState::queued);
  REQUIRE(job.status_url);
  CHECK(job.status_url->find("/genomes-search/status/" + job.job_id) != std::string::npos);

  const auto status = client.wait_for_gather(job.job_id, v1_quick_wait());
  CHECK(status.status == mgnify::JobState::success);
  REQUIRE(status.signatures.size() == 1);
  const auto rows = client.gather_results(status.signatures[0].job_id);
  REQUIRE(rows.rows.size() == static_cast<std::size_t>(mock::kGatherRows));
  CHECK(rows.rows[0].name.rfind("MGYG", 0) == 0);
  REQUIRE(rows.rows[0].cell("mgnify_catalogue"));
  CHECK(*rows.rows[0].cell("mgnify_catalogue") == "marine-v2-0");
  CHECK(rig.hits("genomes-search/status/" + job.job_id) == 3);
  CHECK(rig.clock->total_slept() == std::chrono::nanoseconds(500ms + 750ms));
}

TEST_CASE("v1 gather errors: missing catalogues, bad upload, unknown job, backend down",
          "[v1][genome-search][errors]") {
  V1SearchRig rig;
  auto client = rig.client();
  auto& session = client.session();
  try {
    session.post_form(session.url("genomes-search/gather"),
                      {mgnify::http::FormPart::file_content("file_uploaded", "a.sig",
                                                            mock::sourmash_signature("a"))});
    FAIL("no error");
  } catch (const mgnify::ValidationError& e) {
    CHECK(e.message() == mock::kMissingCataloguesDetail);
  }
  mgnify::GatherRequest bad = v1_gather_request("x");
  bad.signatures = {mgnify::SignatureFile::from_text("x.sig", "{not json")};
  try {
    client.submit_gather(bad);
    FAIL("no error");
  } catch (const mgnify::ValidationError& e) {
    CHECK(e.message() == mock::kBadUploadDetail);
  }
  // A threshold that is not a number: the client's CobsQuery cannot send one,
  // so the raw form shows how the service's refusal reaches the caller.
  try {
    session.post_form(session.url("genome-search"),
                      {mgnify::http::FormPart::text("seq", std::string(64, 'A')),
                       mgnify::http::FormPart::text("threshold", "most")});
    FAIL("no error");
  } catch (const mgnify::ValidationError& e) {
    CHECK(e.status() == 400);
    CHECK(e.message() == mock::kCobsRejectedDetail);
  }
  CHECK_THROWS_AS(client.gather_status("unknown-job"), mgnify::NotFoundError);
  CHECK_THROWS_AS(client.gather_results("unknown-job"), mgnify::NotFoundError);

  rig.server.push_fault(rig.path("genome-search"), mock::cobs_backend_down());
  mgnify::CobsQuery query;
  query.sequence = std::string(64, 'G');
  try {
    client.genome_search(query);
    FAIL("no error");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 502);
    CHECK(e.message() == mock::kCobsBackendDownDetail);
  }
  rig.server.push_fault(rig.path("genome-search"), mock::cobs_unavailable());
  try {
    client.genome_search(query);
    FAIL("no error");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 503);
    CHECK(e.message() == mock::kCobsUnavailableDetail);
  }
  rig.server.push_fault(rig.path("genomes-search/gather"), mock::sourmash_unavailable());
  try {
    client.submit_gather(v1_gather_request("y"));
    FAIL("no error");
  } catch (const mgnify::ServerError& e) {
    CHECK(e.status() == 503);
    CHECK(e.message() == mock::kSourmashDownDetail);
    CHECK(e.attempts() == 1);
  }
  CHECK(rig.hits("genomes-search/gather") == 3);
  CHECK(rig.hits("genome-search") == 3);
}
