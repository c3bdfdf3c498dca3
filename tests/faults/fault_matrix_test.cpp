// The fault matrix (fault_cases.hpp) against a detail call, a list walk and a
// batch of each client, through libcurl to the mock on loopback.

#include <catch2/catch.hpp>

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "faults/fault_cases.hpp"
#include "faults/fault_support.hpp"

using namespace mgnify::test::faults;

namespace {

std::size_t pages_of(const Harness& h) {
  return h.service == Service::proteins ? 1 : (h.list_ids.size() + h.page_size - 1) / h.page_size;
}

}  // namespace

TEST_CASE("fault matrix: detail call", "[faults][matrix]") {
  const auto cases = fault_cases();
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  const auto index = GENERATE_COPY(range<std::size_t>(0, fault_cases().size()));
  const Case& c = cases[index];
  INFO(service_name(service) << " detail: " << c.name);
  auto h = make_harness(service);
  const std::size_t item = 3;
  const Shot shot = h->shot_item(item);
  c.inject(shot);
  std::exception_ptr error;
  std::string got;
  try {
    got = h->detail(item);
  } catch (...) {
    error = std::current_exception();
  }
  if (c.recovers) {
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        FAIL("unexpected failure: " << e.what());
      }
    }
    CHECK(got == h->items[item]);
  } else {
    REQUIRE(error);
    c.check_error(error, shot);
  }
  CHECK(h->server->hits(shot.path) == static_cast<std::size_t>(c.hits));
  if (c.check_after) c.check_after(shot);
}

TEST_CASE("fault matrix: list walk (v1 links.next, v2 pages, proteins search)", "[faults][matrix]") {
  const auto cases = fault_cases();
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  const auto index = GENERATE_COPY(range<std::size_t>(0, fault_cases().size()));
  const Case& c = cases[index];
  if (service == Service::v1 && c.skip_v1_walk) return;
  INFO(service_name(service) << " walk: " << c.name);
  auto h = make_harness(service);
  std::optional<Shot> shot;
  const WalkOutcome out = h->walk([&](const std::string& next_url) {
    shot.emplace(h->shot_list(next_url));
    c.inject(*shot);
  });
  REQUIRE(shot);
  // Whatever happened, the walk, continued after the failure, yields every
  // item exactly once and in the service's order.
  CHECK(out.ids == h->list_ids);
  if (c.recovers) {
    if (out.error) {
      try {
        std::rethrow_exception(out.error);
      } catch (const std::exception& e) {
        FAIL("unexpected failure: " << e.what());
      }
    }
  } else {
    REQUIRE(out.error);
    c.check_error(out.error, *shot);
    REQUIRE(out.resume_token);
    if (service == Service::v2) {
      CHECK(*out.resume_token == "2");
    } else {
      CHECK(*out.resume_token == shot->url);  // the failed page's own link
    }
    CHECK(out.items_before_error == (service == Service::proteins ? 0 : h->page_size));
  }
  const std::size_t pages = pages_of(*h);
  const std::size_t expected_hits = pages - 1 + static_cast<std::size_t>(c.hits) +
                                     (c.recovers ? 0 : static_cast<std::size_t>(c.leftover) + 1);
  CHECK(h->server->hits(h->list_path) == expected_hits);
  if (c.check_after) c.check_after(*shot);
}

TEST_CASE("fault matrix: get_many reports exactly the failed item", "[faults][matrix]") {
  const auto cases = fault_cases();
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  const auto index = GENERATE_COPY(range<std::size_t>(0, fault_cases().size()));
  const Case& c = cases[index];
  INFO(service_name(service) << " get_many: " << c.name);
  auto h = make_harness(service);
  const std::size_t faulted = 5;
  const Shot shot = h->shot_item(faulted);
  c.inject(shot);
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < h->items.size(); ++i) all.push_back(i);
  const auto results = h->get_many(all);
  REQUIRE(results.size() == all.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    INFO("item " << i);
    if (i == faulted && !c.recovers) {
      REQUIRE_FALSE(results[i].ok());
      c.check_error(results[i].exception(), shot);
    } else {
      if (!results[i].ok()) FAIL("unexpected failure: " << results[i].error().what());
      CHECK(results[i].value() == h->items[i]);
      if (i != faulted) CHECK(h->server->hits(h->item_path(i)) == 1);
    }
  }
  CHECK(h->server->hits(shot.path) == static_cast<std::size_t>(c.hits));
  if (c.check_after) c.check_after(shot);
}
