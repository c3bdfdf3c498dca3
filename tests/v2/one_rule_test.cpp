// One rule per idea, through V2Client against the mock over loopback: a
// passed deadline is one error type whatever the call; a list call takes its
// CallOptions last and is stopped through them; the spellings these replaced
// still work for one release.

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "genome_search_mock.hpp"
#include "mgnify/accession.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/v2.hpp"
#include "support/allow_deprecated.hpp"
#include "support/genome_search_cases.hpp"
#include "support/run_spellings.hpp"
#include "support/v2_rig.hpp"

using namespace std::chrono_literals;
namespace mock = mgnify::mock;

namespace {

using Clock = std::chrono::steady_clock;

/// Runs `call`, which must end with DeadlineExceededError within a second of the deadline.
template <class Call>
void check_deadline_exceeded(const char* what, Call call) {
  INFO(what);
  const auto started = Clock::now();
  bool exceeded = false;
  try {
    call(mgnify::CallOptions().timeout(300ms));
  } catch (const mgnify::DeadlineExceededError& e) {
    exceeded = true;
    CHECK(e.kind() == mgnify::TransportError::Kind::timeout);
  }
  CHECK(exceeded);
  CHECK(Clock::now() - started < 1300ms);
}

/// Walks `walk` (pages of two), calling `stop()` at its first item: the page
/// being read comes out whole, then CancelledError, and no other page is asked for.
template <class Stop>
void check_stopped_on_first_page(const mgnify::test::V2Rig& rig,
                                 mgnify::Paged<mgnify::v2::Study>& walk, Stop stop) {
  std::size_t seen = 0;
  CHECK_THROWS_AS(
      [&] {
        for (const auto& study : walk) {
          (void)study;
          if (++seen == 1) stop();
        }
      }(),
      mgnify::CancelledError);
  CHECK(seen == 2);
  CHECK(rig.hits("studies/") == 1);
}

}  // namespace

TEST_CASE(
    "one rule: a passed deadline is DeadlineExceededError from a call, a walk, a batch "
    "and a job wait",
    "[v2][integration][deadline][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();

  rig.server.push_fault(rig.path("studies/MGYS00000001"), mock::Fault::slow(3s));
  check_deadline_exceeded("a single call", [&](const mgnify::CallOptions& call) {
    client.study("MGYS00000001", call);
  });

  rig.server.push_fault(rig.path("studies/"), mock::Fault::slow(3s));
  check_deadline_exceeded("a list walk", [&](const mgnify::CallOptions& call) {
    client.studies({}, {}, call).collect();
  });

  // A batch keeps one outcome per item: the item whose request hangs holds the
  // same error a single call throws.
  rig.server.push_fault(rig.path("studies/MGYS00000002"), mock::Fault::slow(3s));
  check_deadline_exceeded("a batch item", [&](const mgnify::CallOptions& call) {
    const auto results = client.get_studies({"MGYS00000002"}, {}, call);
    REQUIRE(results.size() == 1);
    REQUIRE_FALSE(results[0].ok());
    if (const auto* e = results[0].error_as<mgnify::DeadlineExceededError>()) throw *e;
  });

  const auto job = client.submit_gather(
      mgnify::test::genome_search_cases::gather_request(mock::kSignatureNeverFinishes));
  mgnify::JobWaitOptions wait;
  wait.first_interval = 50ms;
  wait.max_interval = 50ms;
  check_deadline_exceeded("a job wait", [&](const mgnify::CallOptions& call) {
    try {
      client.wait_for_gather(job.job_id, wait, call);
    } catch (const mgnify::DeadlineExceededError& e) {
      CHECK(e.job_id() == job.job_id);
      CHECK(e.last_status() == "RUNNING");
      throw;
    }
  });
}

TEST_CASE(
    "one rule: a list call takes CallOptions last, and their token stops the walk between pages",
    "[v2][integration][cancel][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  mgnify::ListOptions list;
  list.page_size = 2;
  const mgnify::CancelToken stop;
  auto walk = client.studies({}, list, stop);
  check_stopped_on_first_page(rig, walk, [&] { stop.cancel(); });

  // Per-accession lists take them the same way.
  const mgnify::CancelToken stopped;
  stopped.cancel();
  CHECK_THROWS_AS(client.study_samples("MGYS00000001", {}, stopped).collect(),
                  mgnify::CancelledError);
  CHECK(rig.hits("studies/MGYS00000001/samples/") == 0);
}

TEST_CASE("deprecated: ListOptions::call still governs a walk, beside the call's own options",
          "[v2][integration][cancel][deprecated]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  mgnify::ListOptions list;
  list.page_size = 2;
  const mgnify::CancelToken stop;
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  list.call.cancel = stop;
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  auto walk = client.studies({}, list);
  check_stopped_on_first_page(rig, walk, [&] { stop.cancel(); });

  // Its deadline too, when the call's CallOptions carry none.
  mgnify::ListOptions timed;
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  timed.call.timeout(300ms);
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  rig.server.push_fault(rig.path("studies/"), mock::Fault::slow(3s));
  CHECK_THROWS_AS(client.studies({}, timed, mgnify::CallOptions()).collect(),
                  mgnify::DeadlineExceededError);
}

TEST_CASE("deprecated: Paged::cancel still ends a walk", "[v2][integration][cancel][deprecated]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  mgnify::ListOptions list;
  list.page_size = 2;
  auto walk = client.studies({}, list);
  check_stopped_on_first_page(rig, walk, [&] {
    MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
    walk.cancel();
    MGNIFY_TEST_ALLOW_DEPRECATED_END
  });
}

TEST_CASE(
    "one rule: text calls take (url, accept), then a stream's sink and options, then "
    "CallOptions",
    "[v2][integration][text][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const std::string url = rig.url("studies/MGYS00000001");
  const auto whole = client.read_text(url, "application/json", mgnify::CallOptions());
  REQUIRE_FALSE(whole.text.empty());
  std::string streamed;
  const auto sink = [&](const mgnify::http::Response&, const char* data, std::size_t n) {
    streamed.append(data, n);
    return true;
  };
  const auto accept_sent = [&] {
    const auto requests = rig.server.requests();
    REQUIRE(requests.size() == 1);
    const auto accept = requests[0].headers.find("accept");
    return accept == requests[0].headers.end() ? std::string() : accept->second;
  };

  rig.server.clear_requests();
  client.stream_text(url, "application/json", sink, mgnify::http::StreamOptions(),
                     mgnify::CallOptions());
  CHECK(streamed == whole.text);
  CHECK(accept_sent() == "application/json");

  // Without an accepted type: any.
  streamed.clear();
  rig.server.clear_requests();
  client.stream_text(url, sink);
  CHECK(streamed == whole.text);
  CHECK(accept_sent() == "*/*");
}

TEST_CASE("deprecated: stream_text(url, sink, accept) still streams with that type",
          "[v2][integration][text][deprecated]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const std::string url = rig.url("studies/MGYS00000001");
  std::string streamed;
  const auto sink = [&](const mgnify::http::Response&, const char* data, std::size_t n) {
    streamed.append(data, n);
    return true;
  };
  rig.server.clear_requests();
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  client.stream_text(url, sink, "application/json");
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  CHECK(streamed == client.read_text(url, "application/json").text);
  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 2);
  const auto accept = requests[0].headers.find("accept");
  REQUIRE(accept != requests[0].headers.end());
  CHECK(accept->second == "application/json");
}

namespace {

/// Fetches three studies whose answers each take 300 ms, as `batch` says: how long it took.
Clock::duration timed_batch(mgnify::test::V2Rig& rig, const mgnify::v2::V2Client& client,
                            const mgnify::BatchOptions& batch) {
  const std::vector<std::string> ids = {"MGYS00000001", "MGYS00000002", "MGYS00000003"};
  for (const auto& id : ids)
    rig.server.push_fault(rig.path("studies/" + id), mock::Fault::slow(300ms));
  const auto started = Clock::now();
  for (const auto& result : client.get_studies(ids, batch)) CHECK(result.ok());
  return Clock::now() - started;
}

}  // namespace

TEST_CASE("one rule: BatchOptions::concurrency is how many requests of a v2 batch are in flight",
          "[v2][integration][batch][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  mgnify::BatchOptions one_at_a_time;
  one_at_a_time.concurrency = 1;
  // The client's default (8) would overlap the three waits.
  CHECK(timed_batch(rig, client, one_at_a_time) >= 900ms);
}

TEST_CASE("deprecated: V2Options::concurrency is still the v2 batches' default",
          "[v2][integration][batch][deprecated]") {
  mgnify::test::V2Rig rig;
  mgnify::v2::V2Options v2;
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  v2.concurrency = 1;
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  const mgnify::v2::V2Client client(rig.options(), v2);
  CHECK(timed_batch(rig, client, mgnify::BatchOptions()) >= 900ms);
}

TEST_CASE(
    "one rule: CallOptions alone follow the ids: a list, a list with a query, a batch and a "
    "genome lookup need no {} for the options between",
    "[v2][integration][cancel][deadline][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();

  // Unstopped, the shorter form walks what the full one does.
  const auto catalogues = client.genome_catalogues(mgnify::CallOptions()).collect();
  REQUIRE_FALSE(catalogues.empty());
  CHECK(catalogues.size() == client.genome_catalogues(mgnify::ListOptions(), {}).collect().size());
  // A lone {} is still the options before the CallOptions.
  CHECK(client.assemblies({}).collect().size() == client.assemblies().collect().size());

  // A cancelled token stops each form before its first request.
  const mgnify::CancelToken stopped;
  stopped.cancel();
  rig.server.clear_requests();
  CHECK_THROWS_AS(client.genome_catalogues(stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.studies(stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.studies(mgnify::v2::StudyQuery().search("soil"), stopped).collect(),
                  mgnify::CancelledError);
  CHECK_THROWS_AS(client.study_samples("MGYS00000001", stopped).collect(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.catalogue_genomes("human-gut-v2-0", stopped).collect(),
                  mgnify::CancelledError);
  CHECK_THROWS_AS(client.genome("MGYG000000002", stopped), mgnify::CancelledError);
  const auto batch = client.get_studies({"MGYS00000001", "MGYS00000002"}, stopped);
  REQUIRE(batch.size() == 2);
  for (const auto& entry : batch) CHECK(entry.error_as<mgnify::CancelledError>() != nullptr);
  CHECK(rig.server.requests().empty());

  // A deadline already passed ends them with DeadlineExceededError.
  mgnify::CallOptions past;
  past.deadline = Clock::now() - 1s;
  CHECK_THROWS_AS(client.assemblies(past).collect(), mgnify::DeadlineExceededError);
  CHECK_THROWS_AS(client.genome_catalogues(past).collect(), mgnify::DeadlineExceededError);
  const auto late = client.get_genomes({"MGYG000000002"}, past);
  REQUIRE(late.size() == 1);
  CHECK(late[0].error_as<mgnify::DeadlineExceededError>() != nullptr);
}

TEST_CASE(
    "one rule: a call of one accession kind takes that kind's typed accession or text, and another "
    "kind's does not compile (tests/compile_fail)",
    "[v2][integration][accession][one-rule]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const mgnify::RunAccession run("err3000001");
  mgnify::test::check_run_spellings(client, "err3000001", "ERR3000001");
  const mgnify::SampleAccession sample(" ers2000005 ");
  CHECK(client.sample(sample).accession == client.sample("ERS2000005").accession);

  // Related lists and batches alike; a batch's braced list may mix typed and text.
  const mgnify::StudyAccession study("mgys1");
  CHECK(client.study_samples(study).collect().size() ==
        client.study_samples("MGYS00000001").collect().size());
  const auto batch = client.get_runs({run, "ERR3000001"});
  REQUIRE(batch.size() == 2);
  CHECK(batch[0]->accession == "ERR3000001");
  CHECK(batch[1]->accession == "ERR3000001");
  const auto typed = client.get_samples(std::vector<mgnify::SampleAccession>{sample});
  REQUIRE(typed.size() == 1);
  CHECK(typed[0].ok());
}
