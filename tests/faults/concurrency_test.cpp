// Concurrency: batches, read-ahead walks, one rate limiter shared by many
// threads, and one client shared by several threads (with token changes in
// between). scripts/tsan.sh runs these under ThreadSanitizer.

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "faults/fault_support.hpp"
#include "mgnify/default_transport.hpp"

using namespace mgnify::test::faults;
namespace pdata = mgnify::mock::proteins_data;
namespace v1d = mgnify::mock::v1data;
namespace v2d = mgnify::mock::v2data;

namespace {

/// Failures seen on worker threads, reported from the test's thread
/// (Catch's macros are not thread-safe).
class Failures {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(what);
  }
  std::vector<std::string> messages() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return messages_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

}  // namespace

TEST_CASE("concurrency: get_many with faults on several items, 8 in flight", "[concurrency]") {
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  INFO(service_name(service));
  auto h = make_harness(service);
  // Items 1, 4, 7, 10 fail once (retried), item 6 fails for good.
  for (std::size_t i : {1, 4, 7, 10})
    h->server->push_fault(h->item_path(i), Fault::status_only(503));
  h->server->push_faults(h->item_path(6), Fault::status_only(500), kBudget);
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < h->items.size(); ++i) all.push_back(i);
  for (int round = 0; round < 3; ++round) {
    const auto results = h->get_many(all);
    REQUIRE(results.size() == all.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (round == 0 && i == 6) {
        REQUIRE(results[i].error_as<mgnify::ServerError>() != nullptr);
        CHECK(results[i].error_as<mgnify::ServerError>()->attempts() == kBudget);
      } else {
        REQUIRE(results[i].ok());
        CHECK(results[i].value() == h->items[i]);
      }
    }
  }
}

TEST_CASE("concurrency: read-ahead walks stay complete and ordered, also across a failed page",
          "[concurrency]") {
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  auto options = [&](const std::string& base) {
    mgnify::ClientOptions o;
    o.base_url = base;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.max_attempts = 2;
    o.retry.initial_backoff = std::chrono::milliseconds(1);
    o.clock = clock;
    o.read_ahead = true;
    return o;
  };
  SECTION("v1: links.next with one page in flight") {
    MockServer server;
    mgnify::mock::register_v1_routes(server);
    server.start();
    mgnify::v1::LegacyClient client(options(server.v1_url()));
    const std::string path = std::string(mgnify::mock::kV1Prefix) + "/studies/MGYS00000001/samples";
    auto paged = client.study_samples("MGYS00000001", {}, mgnify::ListOptions{25, 1, std::nullopt});
    std::vector<std::string> ids;
    int failures = 0;
    for (auto it = paged.begin(); it != paged.end();) {
      ids.push_back(it->id());
      // Mid-walk, with a page possibly in flight already: two 503s in a row
      // exhaust the budget of 2 for whichever page meets them.
      if (ids.size() == 30) server.push_faults(path, Fault::status_only(503), 2);
      try {
        ++it;
      } catch (const mgnify::ServerError&) {
        REQUIRE(++failures == 1);
        it = paged.begin();
      }
    }
    CHECK(ids == v1_big_study_samples());
    CHECK(failures == 1);
  }
  SECTION("v2: counted mode, 4 pages in flight") {
    MockServer server;
    mgnify::mock::register_v2_routes(server);
    server.start();
    auto o = options(server.v2_url());
    o.parallel_pages = 4;
    mgnify::v2::V2Client client(o);
    mgnify::ListOptions list;
    list.page_size = 10;
    auto paged = client.studies({}, list);
    std::vector<std::string> ids;
    std::size_t max_in_flight = 0;
    for (const auto& s : paged) {
      ids.push_back(s.accession);
      max_in_flight = std::max(max_in_flight, paged.pages_in_flight());
    }
    CHECK(ids == v2_public_studies());
    CHECK(max_in_flight >= 2);
    CHECK(server.hits(std::string(mgnify::mock::kV2Prefix) + "/studies/") == 12);
  }
  SECTION("an abandoned walk joins its fetches in flight") {
    MockServer server;
    mgnify::mock::register_v2_routes(server);
    server.start();
    auto o = options(server.v2_url());
    o.parallel_pages = 4;
    mgnify::v2::V2Client client(o);
    mgnify::ListOptions list;
    list.page_size = 5;
    for (int round = 0; round < 5; ++round) {
      auto paged = client.studies({}, list);
      auto it = paged.begin();
      CHECK(it->accession == v2_public_studies()[0]);
    }  // each Paged is destroyed with pages in flight
  }
}

TEST_CASE("concurrency: one rate limiter paces every thread of a shared session", "[concurrency]") {
  mgnify::mock::MockServer server;
  mgnify::mock::register_proteins_routes(server);
  server.start();
  mgnify::ClientOptions o;
  o.base_url = server.proteins_url();
  o.rate_limit.requests_per_second = 100;
  o.rate_limit.burst = 5;
  auto session = std::make_shared<mgnify::http::Session>(mgnify::with_default_transport(o), "");
  mgnify::proteins::ProteinClient a(session);
  mgnify::proteins::ProteinClient b(session);
  std::vector<std::string> accs;
  for (std::size_t i = 0; i < 20; ++i)
    accs.push_back(pdata::accession(pdata::representative_numbers()[i]));
  const auto started = std::chrono::steady_clock::now();
  std::vector<mgnify::Result<mgnify::proteins::Protein>> ra, rb;
  mgnify::BatchOptions batch;
  batch.concurrency = 4;
  std::thread other([&] { rb = b.get_proteins(accs, batch); });
  ra = a.get_proteins(accs, batch);
  other.join();
  const auto elapsed = std::chrono::steady_clock::now() - started;
  for (const auto* results : {&ra, &rb}) {
    REQUIRE(results->size() == accs.size());
    for (std::size_t i = 0; i < accs.size(); ++i) CHECK((*results)[i]->mgyp == accs[i]);
  }
  // 40 requests, 5 free, 35 at 100/s: at least 350 ms whatever the thread count.
  CHECK(elapsed >= std::chrono::milliseconds(340));
  CHECK(server.requests().size() == 40);
}

TEST_CASE("concurrency: one client shared by several threads while the token changes",
          "[concurrency]") {
  auto h = make_harness(Service::v2, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v2_url();
  mgnify::v2::V2Client client(o);
  client.login(v2d::kUser, v2d::kPassword);
  const auto expected = v2_public_studies();
  Failures failures;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (int k = 0; k < 6; ++k) {
          const auto& acc = expected[static_cast<std::size_t>((t * 7 + k) % 120)];
          if (client.study(acc).accession != acc) failures.add("wrong study for " + acc);
          // Private studies need the token; a concurrent refresh must not break them.
          if (client.study(v2d::kPrivateStudies[static_cast<std::size_t>(k % 3)]).accession.empty())
            failures.add("empty private study");
        }
        mgnify::ListOptions list;
        list.page_size = 30;
        std::vector<std::string> ids;
        for (const auto& s : client.studies({}, list)) ids.push_back(s.accession);
        if (ids != expected) failures.add("incomplete walk");
      } catch (const std::exception& e) {
        failures.add(e.what());
      }
    });
  }
  std::thread refresher([&] {
    for (int k = 0; k < 5 && !stop; ++k) {
      try {
        client.refresh();
      } catch (const std::exception& e) {
        failures.add(e.what());
      }
    }
  });
  for (auto& t : threads) t.join();
  stop = true;
  refresher.join();
  CHECK(failures.messages() == std::vector<std::string>{});
}

TEST_CASE("concurrency: v1 and proteins clients shared by several threads", "[concurrency]") {
  const auto service = GENERATE(Service::proteins, Service::v1);
  INFO(service_name(service));
  auto h = make_harness(service);
  Failures failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (std::size_t k = 0; k < h->items.size(); ++k) {
          const std::size_t i = (k + static_cast<std::size_t>(t) * 3) % h->items.size();
          if (h->detail(i) != h->items[i]) failures.add("wrong item " + h->items[i]);
        }
        if (h->walk({}).ids != h->list_ids) failures.add("incomplete walk");
      } catch (const std::exception& e) {
        failures.add(e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures.messages() == std::vector<std::string>{});
}

TEST_CASE("concurrency: 32 threads on one client for a bounded time", "[concurrency][stress]") {
  // Each pooled transfer slot owns its connections; with 32 threads the pool
  // grows to 32 slots, every one reused by whichever thread takes it next.
  auto h = make_harness(Service::v2, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v2_url();
  mgnify::v2::V2Client client(o);
  const auto expected = v2_public_studies();
  constexpr int kThreads = 32;
  constexpr int kMaxRoundsPerThread = 40;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  Failures failures;
  std::atomic<int> requests{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (int k = 0; k < kMaxRoundsPerThread && std::chrono::steady_clock::now() < deadline;
             ++k) {
          const auto& acc = expected[static_cast<std::size_t>((t * 13 + k) % 120)];
          if (client.study(acc).accession != acc) failures.add("wrong study for " + acc);
          ++requests;
          if (k % 8 == 0) {
            mgnify::ListOptions list;
            list.page_size = 50;
            list.max_items = 100;
            std::size_t n = 0;
            for (const auto& s : client.studies({}, list)) {
              if (s.accession != expected[n])
                failures.add("walk out of order at " + std::to_string(n));
              ++n;
            }
            if (n != 100) failures.add("walk returned " + std::to_string(n) + " of 100");
            requests += 2;
          }
        }
      } catch (const std::exception& e) {
        failures.add(e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures.messages() == std::vector<std::string>{});
  CHECK(requests.load() >= kThreads);
}
