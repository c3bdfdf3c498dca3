#include "mgnify/concurrency/parallel_map.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "core/test_support.hpp"

using namespace std::chrono_literals;
using mgnify::parallel_map;

TEST_CASE("results come back in index order whatever the finishing order", "[executor]") {
  const auto results = parallel_map(40, 8, [](std::size_t i) {
    // Later indexes finish first.
    std::this_thread::sleep_for(std::chrono::microseconds((40 - i) * 50));
    return static_cast<int>(i * i);
  });
  REQUIRE(results.size() == 40);
  for (std::size_t i = 0; i < results.size(); ++i) {
    INFO(i);
    REQUIRE(results[i].ok());
    CHECK(*results[i] == static_cast<int>(i * i));
  }
}

TEST_CASE("one failure does not abort the batch, and keeps its type", "[executor]") {
  const auto results = parallel_map(10, 3, [](std::size_t i) -> std::string {
    if (i == 3) {
      mgnify::ApiErrorInfo info;
      info.status = 404;
      info.method = "GET";
      info.url = "https://h/x/3";
      throw mgnify::NotFoundError(info);
    }
    if (i == 7) throw std::runtime_error("plain failure");
    return "item-" + std::to_string(i);
  });
  REQUIRE(results.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) {
    INFO(i);
    if (i == 3) {
      REQUIRE(results[i].error_as<mgnify::NotFoundError>() != nullptr);
      CHECK(results[i].error_as<mgnify::NotFoundError>()->url() == "https://h/x/3");
    } else if (i == 7) {
      REQUIRE_FALSE(results[i].ok());
      CHECK(std::string(results[i].error().what()) == "plain failure");
    } else {
      REQUIRE(results[i].ok());
      CHECK(*results[i] == "item-" + std::to_string(i));
    }
  }
}

TEST_CASE("concurrency is bounded, and reached", "[executor]") {
  for (std::size_t limit : {1u, 2u, 5u}) {
    INFO("limit " << limit);
    std::atomic<int> in_flight{0};
    std::atomic<int> peak{0};
    std::mutex ids_mutex;
    std::set<std::thread::id> ids;
    const auto results = parallel_map(30, limit, [&](std::size_t i) {
      const int now = ++in_flight;
      int seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {
      }
      {
        std::lock_guard<std::mutex> lock(ids_mutex);
        ids.insert(std::this_thread::get_id());
      }
      // The first calls wait (bounded) for the pool to fill, so the peak is
      // deterministic instead of depending on thread start-up timing.
      const auto deadline = std::chrono::steady_clock::now() + 1s;
      while (i < limit && in_flight.load() < static_cast<int>(limit) &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100us);
      }
      std::this_thread::sleep_for(200us);
      --in_flight;
      return i;
    });
    CHECK(results.size() == 30);
    CHECK(peak.load() == static_cast<int>(limit));
    CHECK(ids.size() <= limit);
    for (std::size_t i = 0; i < results.size(); ++i) CHECK(*results[i] == i);
  }
}

TEST_CASE("concurrency 1 runs on the calling thread; edge sizes", "[executor]") {
  const auto caller = std::this_thread::get_id();
  const auto serial =
      parallel_map(5, 1, [&](std::size_t) { return std::this_thread::get_id() == caller; });
  for (const auto& r : serial) CHECK(*r);

  CHECK(parallel_map(0, 4, [](std::size_t i) { return i; }).empty());
  const auto few = parallel_map(2, 64, [](std::size_t i) { return i + 1; });
  REQUIRE(few.size() == 2);
  CHECK(*few[1] == 2);
  CHECK_THROWS_AS(parallel_map(3, 0, [](std::size_t i) { return i; }), mgnify::InvalidArgument);
}

TEST_CASE("a batch asking for 100000 threads starts at most kMaxBatchThreads", "[executor]") {
  std::mutex ids_mutex;
  std::set<std::thread::id> ids;
  const auto results = parallel_map(1000, 100000, [&](std::size_t i) {
    {
      std::lock_guard<std::mutex> lock(ids_mutex);
      ids.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(1ms);
    return i;
  });
  REQUIRE(results.size() == 1000);
  for (std::size_t i = 0; i < results.size(); ++i) CHECK(*results[i] == i);
  CHECK(ids.size() <= mgnify::kMaxBatchThreads);
}

TEST_CASE("a thread that cannot be started leaves the batch to the threads that did",
          "[executor]") {
  std::atomic<int> started{0};
  auto spawn_two_then_fail = [&](auto& worker) {
    if (started.load() == 2) {
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    }
    ++started;
    return std::thread(std::ref(worker));
  };
  std::mutex ids_mutex;
  std::set<std::thread::id> ids;
  const auto results =
      mgnify::detail::parallel_map_with(spawn_two_then_fail, 50, 8, [&](std::size_t i) {
        std::lock_guard<std::mutex> lock(ids_mutex);
        ids.insert(std::this_thread::get_id());
        return i * 2;
      });
  REQUIRE(results.size() == 50);
  for (std::size_t i = 0; i < results.size(); ++i) CHECK(*results[i] == i * 2);
  CHECK(started.load() == 2);
  CHECK(ids.size() <= 3);  // two started threads and the caller
}

TEST_CASE("parallel calls through one session share its transport and limiter",
          "[executor][session]") {
  mgnify::test::FakeRig rig;
  rig.transport->fallback([](const mgnify::http::Request& req) {
    mgnify::http::Response r;
    r.status = req.url.find("/7") != std::string::npos ? 404 : 200;
    r.body = req.url;
    return r;
  });
  auto session = rig.session();
  const auto results = parallel_map(16, 4, [&](std::size_t i) {
    return session->get(mgnify::test::FakeRig::url("items/" + std::to_string(i))).body;
  });
  REQUIRE(results.size() == 16);
  for (std::size_t i = 0; i < 16; ++i) {
    INFO(i);
    if (i == 7) {
      CHECK(results[i].error_as<mgnify::NotFoundError>() != nullptr);
    } else {
      CHECK(*results[i] == mgnify::test::FakeRig::url("items/" + std::to_string(i)));
    }
  }
  CHECK(rig.transport->request_count() == 16);
}
