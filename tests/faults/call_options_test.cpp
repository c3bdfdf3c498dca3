// Per-call options (mgnify/call_options.hpp) given to a call that has already
// been told to stop: a cancelled token or a deadline in the past ends it
// before anything is sent, with the error a stop in flight gives; and a
// walk's (the list call's CallOptions) stopped between two pages requests no other.

#include "mgnify/call_options.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "support/protein_rig.hpp"
#include "support/v1_rig.hpp"
#include "support/v2_rig.hpp"

namespace {

mgnify::CallOptions cancelled() {
  mgnify::CallOptions call;
  call.cancel = mgnify::CancelToken();
  call.cancel.cancel();
  return call;
}

mgnify::CallOptions past_deadline() {
  mgnify::CallOptions call;
  call.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  return call;
}

bool is_timeout(const mgnify::TransportError& e) {
  return e.kind() == mgnify::TransportError::Kind::timeout;
}

}  // namespace

TEST_CASE("call options: a protein get cancelled before it starts sends nothing",
          "[faults][call-options]") {
  const mgnify::test::ProteinRig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.protein("MGYP000000000013", cancelled()), mgnify::CancelledError);
  CHECK_THROWS_MATCHES(client.protein("MGYP000000000013", past_deadline()), mgnify::TransportError,
                       Catch::Predicate<mgnify::TransportError>(is_timeout));
  CHECK(rig.hits("protein/MGYP000000000013") == 0);
  // The same client still answers a call that was not stopped.
  CHECK(client.protein("MGYP000000000013").mgyp == "MGYP000000000013");
  CHECK(rig.hits("protein/MGYP000000000013") == 1);
}

TEST_CASE("call options: a v1 get and batch cancelled before they start send nothing",
          "[faults][call-options]") {
  const mgnify::test::V1Rig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.study("MGYS00000001", cancelled()), mgnify::CancelledError);
  CHECK_THROWS_MATCHES(client.study("MGYS00000001", past_deadline()), mgnify::TransportError,
                       Catch::Predicate<mgnify::TransportError>(is_timeout));
  const auto results = client.get_studies({"MGYS00000001", "MGYS00000002"}, {}, cancelled());
  REQUIRE(results.size() == 2);
  for (const auto& r : results) CHECK_THROWS_AS(r.value(), mgnify::CancelledError);
  CHECK_THROWS_AS(client.list_csv("studies", {}, cancelled()), mgnify::CancelledError);
  CHECK(rig.hits("studies/MGYS00000001") == 0);
  CHECK(rig.hits("studies/MGYS00000002") == 0);
  CHECK(rig.hits("studies") == 0);
}

TEST_CASE("call options: a v2 get, batch and text read cancelled before they start send nothing",
          "[faults][call-options]") {
  const mgnify::test::V2Rig rig;
  const auto client = rig.client();
  CHECK_THROWS_AS(client.study("MGYS00000001", cancelled()), mgnify::CancelledError);
  CHECK_THROWS_MATCHES(client.study("MGYS00000001", past_deadline()), mgnify::TransportError,
                       Catch::Predicate<mgnify::TransportError>(is_timeout));
  const auto results = client.get_studies({"MGYS00000001", "MGYS00000002"}, {}, past_deadline());
  REQUIRE(results.size() == 2);
  for (const auto& r : results) {
    CHECK_THROWS_MATCHES(r.value(), mgnify::TransportError,
                         Catch::Predicate<mgnify::TransportError>(is_timeout));
  }
  CHECK_THROWS_AS(client.openapi_text(cancelled()), mgnify::CancelledError);
  CHECK(rig.hits("studies/MGYS00000001") == 0);
  CHECK(rig.hits("studies/MGYS00000002") == 0);
  CHECK(rig.hits("openapi.json") == 0);
}

namespace {

// A walk in pages of two, fetched one at a time, whose CallOptions'
// token is cancelled while the caller reads the first page: the rest of that
// page still comes out, then the walk ends with CancelledError without
// another request, and stays ended when begun again.
template <class Client>
void check_walk_cancelled_between_pages(const Client& client,
                                        const std::function<std::size_t()>& list_hits) {
  mgnify::ListOptions list;
  list.page_size = 2;
  const mgnify::CancelToken stop;
  auto walk = client.studies({}, list, stop);
  std::size_t seen = 0;
  bool threw = false;
  try {
    for (const auto& study : walk) {
      (void)study;
      if (++seen == 1) stop.cancel();
    }
  } catch (const mgnify::CancelledError&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(seen == 2);
  CHECK(list_hits() == 1);
  CHECK_THROWS_AS(walk.begin(), mgnify::CancelledError);
  CHECK(list_hits() == 1);
  // The walk failed at its second page, which resume_token names.
  CHECK(walk.resume_token().has_value());
}

}  // namespace

TEST_CASE("call options: a v1 walk cancelled through its CallOptions requests no further page",
          "[faults][call-options][walks]") {
  const mgnify::test::V1Rig rig;
  auto o = rig.options();
  o.read_ahead = false;  // so that the requests counted are the pages the walk asked for
  const mgnify::v1::LegacyClient client(o);
  check_walk_cancelled_between_pages(client, [&] { return rig.hits("studies"); });
}

TEST_CASE("call options: a v2 walk cancelled through its CallOptions requests no further page",
          "[faults][call-options][walks]") {
  const mgnify::test::V2Rig rig;
  const auto client = rig.client();
  check_walk_cancelled_between_pages(client, [&] { return rig.hits("studies/"); });
}

TEST_CASE("call options: a walk whose deadline passed sends nothing",
          "[faults][call-options][walks]") {
  const mgnify::test::V2Rig rig;
  const auto client = rig.client();
  CHECK_THROWS_MATCHES(client.studies({}, {}, past_deadline()).collect(), mgnify::TransportError,
                       Catch::Predicate<mgnify::TransportError>(is_timeout));
  CHECK(rig.hits("studies/") == 0);
  const mgnify::test::V1Rig v1_rig;
  const auto v1_client = v1_rig.client();
  CHECK_THROWS_MATCHES(v1_client.studies({}, {}, past_deadline()).collect(), mgnify::TransportError,
                       Catch::Predicate<mgnify::TransportError>(is_timeout));
  CHECK(v1_rig.hits("studies") == 0);
}
