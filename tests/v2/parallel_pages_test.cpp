// ClientOptions::parallel_pages on v2 lists (counted walks), the same option
// the v1 client reads.

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "support/v2_rig.hpp"

using mgnify::v2::V2Client;
using mgnify::v2::V2Options;

namespace {

std::string sample_accession(std::size_t i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "SAMEA%07d", static_cast<int>(1000000 + i));
  return buf;
}

}  // namespace

TEST_CASE("v2: ClientOptions::parallel_pages drives the counted walk",
          "[v2][integration][parallel]") {
  mgnify::test::V2Rig rig;
  auto options = rig.options();
  options.read_ahead = true;
  options.parallel_pages = 4;
  V2Client client(options);
  mgnify::ListOptions opts;
  opts.page_size = 30;
  auto paged = client.samples({}, opts);
  std::vector<std::string> order;
  std::size_t most_ahead = 0;
  for (const auto& s : paged) {
    order.push_back(s.accession);
    most_ahead = std::max(most_ahead, paged.pages_in_flight());
    REQUIRE(order.size() <= 2000);
  }
  REQUIRE(order.size() == 2000);
  for (std::size_t i = 0; i < order.size(); ++i) REQUIRE(order[i] == sample_accession(i));
  CHECK(rig.hits("samples/") == 67);  // ceil(2000 / 30), each page once
  CHECK(most_ahead <= 4);
}

TEST_CASE("v2: a failed page in a parallel walk surfaces in order and resumes from its number",
          "[v2][integration][parallel]") {
  mgnify::test::V2Rig rig;
  auto options = rig.options();
  options.read_ahead = true;
  options.parallel_pages = 4;
  options.retry.max_attempts = 1;
  V2Client client(options);
  // Page 1 passes; whichever page is requested next fails.
  mgnify::mock::Fault pass;
  pass.action = mgnify::mock::Fault::Action::pass;
  rig.server.push_fault(rig.path("samples/"), pass);
  rig.server.push_fault(rig.path("samples/"), mgnify::mock::Fault::status_only(500));
  mgnify::ListOptions opts;
  opts.page_size = 100;
  auto paged = client.samples({}, opts);
  std::vector<std::string> order;
  bool threw = false;
  try {
    for (const auto& s : paged) {
      order.push_back(s.accession);
      REQUIRE(order.size() <= 2000);
    }
  } catch (const mgnify::ServerError&) {
    threw = true;
  }
  REQUIRE(threw);
  REQUIRE(paged.resume_token());
  const int failed_page = std::stoi(*paged.resume_token());
  CHECK(failed_page >= 2);
  CHECK(order.size() == static_cast<std::size_t>(failed_page - 1) * 100);
  // A new walk of the same call with the saved token completes the list,
  // as start_page = the token's page number does.
  std::vector<std::string> by_start_page = order;
  opts.resume_token = paged.resume_token();
  for (const auto& s : client.samples({}, opts)) order.push_back(s.accession);
  REQUIRE(order.size() == 2000);
  for (std::size_t i = 0; i < order.size(); ++i) REQUIRE(order[i] == sample_accession(i));
  opts.resume_token.reset();
  opts.start_page = failed_page;
  for (const auto& s : client.samples({}, opts)) by_start_page.push_back(s.accession);
  CHECK(by_start_page == order);
  // A token that is no v2 page, or one beside start_page, is refused before any request.
  rig.server.clear_requests();
  mgnify::ListOptions foreign;
  foreign.resume_token = rig.server.v2_url() + "/samples/?page=2";
  CHECK_THROWS_AS(client.samples({}, foreign), mgnify::InvalidArgument);
  foreign.resume_token = "0";
  CHECK_THROWS_AS(client.samples({}, foreign), mgnify::InvalidArgument);
  foreign.resume_token = "2";
  foreign.start_page = 2;
  CHECK_THROWS_AS(client.samples({}, foreign), mgnify::InvalidArgument);
  CHECK(rig.server.requests().empty());
}

TEST_CASE("v2: ClientOptions::parallel_pages drives v2 lists, and 0 pages in flight is refused",
          "[v2][parallel]") {
  mgnify::test::V2Rig rig;
  auto options = rig.options();
  options.read_ahead = true;
  options.parallel_pages = 0;
  CHECK_THROWS_AS(V2Client(options), mgnify::InvalidArgument);
  options.parallel_pages = 3;
  V2Client client(options);
  mgnify::ListOptions opts;
  opts.page_size = 100;
  opts.max_items = 450;
  CHECK(client.samples({}, opts).collect().size() == 450);
  CHECK(rig.hits("samples/") == 5);
}
