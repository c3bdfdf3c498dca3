// One rule per idea, through LegacyClient against the mock over loopback: a
// list call takes (ids, filters, ListOptions, CallOptions), and the common
// call without filters needs no `{}` in their place.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "mgnify/accession.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/v1.hpp"
#include "support/run_spellings.hpp"
#include "support/v1_rig.hpp"

using namespace std::chrono_literals;

namespace {

std::vector<std::string> ids_of(mgnify::Paged<mgnify::v1::Sample> walk) {
  std::vector<std::string> ids;
  for (const auto& sample : walk) ids.push_back(sample.id());
  return ids;
}

}  // namespace

TEST_CASE("one rule: a v1 list without filters takes its ListOptions and CallOptions directly",
          "[v1][integration][one-rule]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  const auto list = mgnify::test::pages(2);

  // The same walk, the same requests, as with an empty filter in front.
  const auto with_placeholder = ids_of(client.study_samples("MGYS00000002", {}, list));
  const auto first_requests = rig.server.requests();
  rig.server.clear_requests();
  const auto without = ids_of(client.study_samples("MGYS00000002", list));
  const auto second_requests = rig.server.requests();
  CHECK(without.size() == 6);
  CHECK(without == with_placeholder);
  const auto targets = [](const std::vector<mgnify::mock::RecordedRequest>& requests) {
    std::vector<std::string> out;
    for (const auto& r : requests) out.push_back(r.target);
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(targets(second_requests) == targets(first_requests));

  // Top-level lists too, and the CallOptions after the ListOptions stop the walk.
  const mgnify::CancelToken stopped;
  stopped.cancel();
  rig.server.clear_requests();
  CHECK_THROWS_AS(client.studies(list, stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.study_samples("MGYS00000002", list, stopped).collect(),
                  mgnify::CancelledError);
  CHECK(rig.server.requests().empty());

  // With filters, the CallOptions come last as well.
  CHECK_THROWS_AS(
      client.study_samples("MGYS00000002", mgnify::v1::Query(), list, stopped).collect(),
      mgnify::CancelledError);
}

TEST_CASE("one rule: a v1 list walk's deadline is DeadlineExceededError",
          "[v1][integration][deadline][one-rule]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  rig.server.push_fault(rig.path("studies"), mgnify::mock::Fault::slow(3s));
  const auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(
      client.studies(mgnify::ListOptions(), mgnify::CallOptions().timeout(300ms)).collect(),
      mgnify::DeadlineExceededError);
  CHECK(std::chrono::steady_clock::now() - started < 1300ms);
}

TEST_CASE(
    "one rule: CallOptions alone follow the ids: a v1 list, a list with filters and a batch "
    "need no {} for the options between",
    "[v1][integration][cancel][deadline][one-rule]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();

  // Unstopped, the shorter forms walk what the full ones do.
  CHECK(ids_of(client.study_samples("MGYS00000002", mgnify::CallOptions())) ==
        ids_of(client.study_samples("MGYS00000002", mgnify::v1::Query(), mgnify::ListOptions(),
                                    mgnify::CallOptions())));

  // A cancelled token stops each form before its first request.
  const mgnify::CancelToken stopped;
  stopped.cancel();
  rig.server.clear_requests();
  CHECK_THROWS_AS(client.studies(stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.genome_catalogues(mgnify::CallOptions(stopped)).collect(),
                  mgnify::CancelledError);
  CHECK_THROWS_AS(client.study_samples("MGYS00000002", stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.study_samples("MGYS00000002", mgnify::v1::Query(), stopped).collect(),
                  mgnify::CancelledError);
  CHECK_THROWS_AS(client.publication_studies(25000000, stopped).collect(), mgnify::CancelledError);
  const auto batch = client.get_studies({"MGYS00000001", "MGYS00000002"}, stopped);
  REQUIRE(batch.size() == 2);
  for (const auto& entry : batch) CHECK(entry.error_as<mgnify::CancelledError>() != nullptr);
  CHECK(rig.server.requests().empty());

  // A deadline already passed ends them with DeadlineExceededError.
  mgnify::CallOptions past;
  past.deadline = std::chrono::steady_clock::now() - 1s;
  CHECK_THROWS_AS(client.studies(past).collect(), mgnify::DeadlineExceededError);
  CHECK_THROWS_AS(client.study_samples("MGYS00000002", past).collect(),
                  mgnify::DeadlineExceededError);
  const auto late = client.get_samples({"ERS1000000"}, past);
  REQUIRE(late.size() == 1);
  CHECK(late[0].error_as<mgnify::DeadlineExceededError>() != nullptr);
}

TEST_CASE(
    "one rule: a v1 call of one accession kind takes that kind's typed accession or text, and "
    "another kind's does not compile (tests/compile_fail)",
    "[v1][integration][accession][one-rule]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  const mgnify::RunAccession run("err3000000");
  mgnify::test::check_run_spellings(client, "err3000000", "ERR3000000");

  // Related lists, in each of their forms, and batches alike.
  const mgnify::StudyAccession study("mgys2");
  const auto by_text = ids_of(client.study_samples("MGYS00000002"));
  CHECK(ids_of(client.study_samples(study)) == by_text);
  CHECK(ids_of(client.study_samples(study, mgnify::test::pages(2))) == by_text);
  CHECK(ids_of(client.study_samples(study, mgnify::CallOptions())) == by_text);
  const auto batch =
      client.get_studies({study, "MGYS00000001"}, mgnify::BatchOptions(), mgnify::CallOptions());
  REQUIRE(batch.size() == 2);
  CHECK(batch[0]->accession == "MGYS00000002");
  CHECK(batch[1]->accession == "MGYS00000001");
  const auto typed = client.get_runs(std::vector<mgnify::RunAccession>{run});
  REQUIRE(typed.size() == 1);
  CHECK(typed[0]->accession == "ERR3000000");
}
