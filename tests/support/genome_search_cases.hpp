#pragma once

// The genome-search cases that v1 and v2 share: both clients reach the same
// mock routes (tools/mock/genome_search_mock.hpp) under their own prefix, so
// one body checks both. An Api is a small traits struct:
//   using Rig;                                        the service's rig (support/rig.hpp)
//   static constexpr const char* kCobsPath;           the COBS route, under the prefix
//   static constexpr const char* kGatherPath;         the gather submission route
//   static std::string status_path(const std::string& job_id);
//   static std::vector<std::string> catalogues();     two catalogues the mock accepts
//   static void post_rejected_cobs_query(http::Session&);
//       a raw COBS request the service refuses with 400 (the client cannot send one)

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "genome_search_mock.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/form.hpp"

namespace mgnify::test::genome_search_cases {

inline mgnify::GatherRequest gather_request(const std::string& signature_name,
                                            std::vector<std::string> catalogues = {
                                                "human-gut-v2-0"}) {
  mgnify::GatherRequest request;
  request.mag_catalogues = std::move(catalogues);
  request.signatures.push_back(mgnify::SignatureFile::from_text(
      signature_name + ".sig", mgnify::mock::sourmash_signature(signature_name)));
  return request;
}

/// Polls at 1 s, then doubling: with the mock's three polls, sleeps of 1 s and 2 s.
inline mgnify::JobWaitOptions quick_wait() {
  mgnify::JobWaitOptions wait;
  wait.first_interval = std::chrono::seconds(1);
  wait.max_interval = std::chrono::seconds(4);
  wait.multiplier = 2.0;
  return wait;
}

/// What every COBS answer holds whatever the API: the threshold sent back, at most
/// `limit` hits in decreasing order above the threshold, each re-encoding exactly.
template <class Result>
void check_cobs_hits(const Result& result, double threshold, std::size_t limit) {
  REQUIRE(result.threshold);
  CHECK(*result.threshold == Approx(threshold));
  REQUIRE_FALSE(result.results.empty());
  CHECK(result.results.size() <= limit);
  double previous = 101.0;
  for (const auto& hit : result.results) {
    REQUIRE(hit.cobs.percent_kmers_found);
    CHECK(*hit.cobs.percent_kmers_found >= threshold * 100.0);
    CHECK(*hit.cobs.percent_kmers_found <= previous);
    previous = *hit.cobs.percent_kmers_found;
    CHECK(nlohmann::json(hit) == hit.raw.json());
  }
}

/// Submit two signatures (one in memory, one from disk) against two catalogues,
/// wait through QUEUED and RUNNING on the fake clock, read one result's CSV rows.
template <class Api>
void check_gather_round_trip(const std::string& disk_name) {
  typename Api::Rig rig;
  auto client = rig.fake_time_client();
  const auto on_disk = std::filesystem::temp_directory_path() / (disk_name + ".sig");
  std::ofstream(on_disk) << mgnify::mock::sourmash_signature("from-disk");
  auto request = gather_request("in-memory", Api::catalogues());
  request.signatures.push_back(mgnify::SignatureFile::from_path(on_disk));

  const auto job = client.submit_gather(request);
  std::filesystem::remove(on_disk);
  CHECK_FALSE(job.job_id.empty());
  CHECK(job.status == mgnify::JobState::queued);
  CHECK(job.requested_catalogues == request.mag_catalogues);
  CHECK(job.signatures_received == nlohmann::json::array({"in-memory.sig", disk_name + ".sig"}));
  REQUIRE(job.status_url);
  CHECK(job.status_url->find(rig.path(Api::status_path(job.job_id))) != std::string::npos);
  CHECK(nlohmann::json(job) == job.raw.json());

  std::vector<std::string> seen;
  auto wait = quick_wait();
  wait.on_status = [&](const mgnify::GatherStatus& s) { seen.push_back(s.status.text); };
  const auto status = client.wait_for_gather(job.job_id, wait);
  CHECK(seen == std::vector<std::string>{"QUEUED", "RUNNING", "SUCCESS"});
  CHECK(status.status == mgnify::JobState::success);
  CHECK(status.group_id == job.job_id);
  REQUIRE(status.signatures.size() == 4);  // two signatures x two catalogues
  for (const auto& s : status.signatures) {
    CHECK(s.status == mgnify::JobState::success);
    REQUIRE(s.result);
    CHECK(s.result->catalog == *s.catalogue);
    CHECK(s.results_url);
  }
  CHECK(rig.hits(Api::status_path(job.job_id)) == 3);
  // Backoff on the client's clock: first_interval, then doubled.
  const auto sleeps = rig.clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(sleeps[0] == std::chrono::nanoseconds(std::chrono::seconds(1)));
  CHECK(sleeps[1] == std::chrono::nanoseconds(std::chrono::seconds(2)));

  const auto& first = status.signatures.front();
  const auto results = client.gather_results(first.job_id);
  REQUIRE(results.rows.size() == static_cast<std::size_t>(mgnify::mock::kGatherRows));
  CHECK(results.columns.back() == "mgnify_catalogue");
  const auto& row = results.rows.front();
  CHECK(row.name.rfind("MGYG", 0) == 0);
  CHECK(row.name.find(", mock species") != std::string::npos);  // a quoted comma
  CHECK(row.query_filename == *first.filename);
  REQUIRE(row.f_match);
  CHECK(*row.f_match == Approx(0.9));
  REQUIRE(row.gather_result_rank);
  CHECK(*row.gather_result_rank == 0);
  CHECK_FALSE(row.average_abund);  // an empty cell
  REQUIRE(row.cell("mgnify_catalogue"));
  CHECK(*row.cell("mgnify_catalogue") == *first.catalogue);
  CHECK(row.cells.size() == results.columns.size());
}

/// Runs `call`, which must fail with `Error` carrying `status` and the service's
/// `detail`; `more` checks the rest of the error.
template <class Error, class Call, class More>
void check_error(Call call, int status, const std::string& detail, More more) {
  try {
    call();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.status() == status);
    CHECK(e.message() == detail);
    more(e);
  }
}
template <class Error, class Call>
void check_error(Call call, int status, const std::string& detail) {
  check_error<Error>(call, status, detail, [](const Error&) {});
}

/// The service's error bodies reach the caller typed, with their status and detail.
template <class Api>
void check_error_bodies() {
  typename Api::Rig rig;
  auto client = rig.client();
  auto& session = client.session();

  SECTION("400: no mag_catalogues in the upload") {
    // The client refuses this itself; the raw form shows what the server checks.
    check_error<mgnify::ValidationError>(
        [&] {
          session.post_form(session.url(Api::kGatherPath),
                            {mgnify::http::FormPart::file_content(
                                "file_uploaded", "a.sig", mgnify::mock::sourmash_signature("a"))});
        },
        400, mgnify::mock::kMissingCataloguesDetail);
  }
  SECTION("400: a signature that is not JSON") {
    const std::pair<const char*, const char*> uploads[] = {{"reads.fa", ">seq1\nACGT\n"},
                                                           {"x.sig", "{not json"}};
    for (const auto& upload : uploads) {
      auto request = gather_request("unused", Api::catalogues());
      request.signatures = {mgnify::SignatureFile::from_text(upload.first, upload.second)};
      check_error<mgnify::ValidationError>([&] { client.submit_gather(request); }, 400,
                                           mgnify::mock::kBadUploadDetail);
    }
    CHECK(rig.hits(Api::kGatherPath) == 2);
  }
  SECTION("400: a query the COBS backend refuses") {
    check_error<mgnify::ValidationError>(
        [&] { Api::post_rejected_cobs_query(session); }, 400, mgnify::mock::kCobsRejectedDetail,
        [&](const mgnify::ValidationError& e) { CHECK(e.url() == session.url(Api::kCobsPath)); });
    CHECK(rig.hits(Api::kCobsPath) == 1);
  }
  SECTION("404: an unknown job") {
    CHECK_THROWS_AS(client.gather_status("no-such-job"), mgnify::NotFoundError);
    try {
      client.gather_results("no-such-job");
      FAIL("no error");
    } catch (const mgnify::NotFoundError& e) {
      CHECK(e.message() == "Not Found");
    }
  }
  SECTION("502/503: backends down; the POST is not repeated") {
    rig.server.push_fault(rig.path(Api::kCobsPath), mgnify::mock::cobs_backend_down());
    mgnify::CobsQuery query;
    query.sequence = std::string(100, 'G');
    check_error<mgnify::ServerError>([&] { client.genome_search(query); }, 502,
                                     mgnify::mock::kCobsBackendDownDetail);
    rig.server.push_fault(rig.path(Api::kCobsPath), mgnify::mock::cobs_unavailable());
    check_error<mgnify::ServerError>([&] { client.genome_search(query); }, 503,
                                     mgnify::mock::kCobsUnavailableDetail);
    CHECK(rig.hits(Api::kCobsPath) == 2);

    rig.server.push_fault(rig.path(Api::kGatherPath), mgnify::mock::sourmash_unavailable());
    check_error<mgnify::ServerError>(
        [&] { client.submit_gather(gather_request("down", Api::catalogues())); }, 503,
        mgnify::mock::kSourmashDownDetail,
        [](const mgnify::ServerError& e) { CHECK(e.attempts() == 1); });
    CHECK(rig.hits(Api::kGatherPath) == 1);
  }
  SECTION("503 on a status poll: the GET is retried and the wait goes on") {
    auto timed = rig.fake_time_client();
    const auto job = timed.submit_gather(gather_request("flaky", Api::catalogues()));
    rig.server.push_fault(rig.path(Api::status_path(job.job_id)),
                          mgnify::mock::sourmash_unavailable());
    const auto status = timed.wait_for_gather(job.job_id, quick_wait());
    CHECK(status.status == mgnify::JobState::success);
    CHECK(rig.hits(Api::status_path(job.job_id)) == 4);
  }
}

}  // namespace mgnify::test::genome_search_cases
