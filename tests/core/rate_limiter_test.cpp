#include "mgnify/http/rate_limiter.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/testing/fake_clock.hpp"

using namespace std::chrono_literals;
using mgnify::http::RateLimiter;
using mgnify::http::RateLimitOptions;
using mgnify::test::paced;
using mgnify::testing::FakeClock;

namespace {

// A clock that never moves, even when slept on: every wait a limiter computes
// is then its queue position, whatever the thread interleaving.
class FrozenClock final : public mgnify::http::Clock {
 public:
  std::chrono::steady_clock::time_point now() override {
    return std::chrono::steady_clock::time_point{};
  }
  std::chrono::system_clock::time_point wall_now() override { return {}; }
  void sleep_for(std::chrono::nanoseconds d) override {
    std::lock_guard<std::mutex> lock(mutex_);
    sleeps_.push_back(d);
  }
  std::vector<std::chrono::nanoseconds> sleeps() {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleeps_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::chrono::nanoseconds> sleeps_;
};

bool near(std::chrono::nanoseconds a, std::chrono::nanoseconds b) {
  return std::chrono::abs(a - b) <= 1us;  // double arithmetic may be a few ns off
}

}  // namespace

TEST_CASE("the default rate limit is on and conservative", "[rate]") {
  const RateLimitOptions d;
  CHECK(d.enabled);
  CHECK(d.requests_per_second == 10.0);
  CHECK(d.burst == 10.0);
  CHECK_FALSE(RateLimitOptions::unlimited().enabled);
}

TEST_CASE("an unlimited limiter never sleeps", "[rate]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(RateLimitOptions::unlimited(), clock);
  for (int i = 0; i < 1000; ++i) limiter.acquire();
  CHECK(clock->sleeps().empty());
}

TEST_CASE("invalid rate limits are refused unless the limiter is off", "[rate]") {
  auto clock = std::make_shared<FakeClock>();
  CHECK_THROWS_AS(RateLimiter(paced(0, 1), clock), mgnify::InvalidArgument);
  CHECK_THROWS_AS(RateLimiter(paced(-1, 1), clock), mgnify::InvalidArgument);
  CHECK_THROWS_AS(RateLimiter(paced(1, 0.5), clock), mgnify::InvalidArgument);
  CHECK_THROWS_AS(RateLimiter(paced(std::numeric_limits<double>::quiet_NaN(), 1), clock),
                  mgnify::InvalidArgument);
  auto off = paced(0, 0);
  off.enabled = false;
  CHECK_NOTHROW(RateLimiter(off, clock));
}

TEST_CASE("a burst goes out at once, then requests are paced at the rate", "[rate]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(2, 5), clock);
  for (int i = 0; i < 5; ++i) limiter.acquire();
  CHECK(clock->sleeps().empty());
  limiter.acquire();
  limiter.acquire();
  limiter.acquire();
  const auto sleeps = clock->sleeps();
  REQUIRE(sleeps.size() == 3);
  for (auto s : sleeps) CHECK(near(s, 500ms));
}

TEST_CASE("pacing holds the sustained rate exactly over many requests", "[rate]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(10, 1), clock);
  const auto start = clock->now();
  for (int i = 0; i < 21; ++i) limiter.acquire();
  // The first is free, the next 20 are 100 ms apart.
  CHECK(clock->sleeps().size() == 20);
  CHECK(near(clock->now() - start, 2s));
  CHECK(near(clock->total_slept(), 2s));
}

TEST_CASE("idle time refills tokens, but never beyond the burst", "[rate]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(2, 3), clock);
  for (int i = 0; i < 3; ++i) limiter.acquire();
  CHECK(clock->sleeps().empty());

  clock->advance(1s);  // two tokens back
  limiter.acquire();
  limiter.acquire();
  CHECK(clock->sleeps().empty());
  limiter.acquire();
  REQUIRE(clock->sleeps().size() == 1);
  CHECK(near(clock->sleeps()[0], 500ms));

  clock->advance(100s);  // would be 200 tokens without the cap
  for (int i = 0; i < 3; ++i) limiter.acquire();
  CHECK(clock->sleeps().size() == 1);
  limiter.acquire();
  REQUIRE(clock->sleeps().size() == 2);
  CHECK(near(clock->sleeps()[1], 500ms));
}

TEST_CASE("threads sharing one limiter queue behind each other", "[rate][threads]") {
  auto clock = std::make_shared<FrozenClock>();
  RateLimiter limiter(paced(10, 10), clock);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) limiter.acquire();
    });
  }
  for (auto& th : threads) th.join();
  // 100 requests, 10 free: the others each got their own slot, 100 ms apart,
  // with no two threads handed the same one.
  auto sleeps = clock->sleeps();
  REQUIRE(sleeps.size() == 90);
  std::sort(sleeps.begin(), sleeps.end());
  for (std::size_t k = 0; k < sleeps.size(); ++k) {
    INFO("slot " << k);
    CHECK(near(sleeps[k], std::chrono::milliseconds(100 * (k + 1))));
  }
}

TEST_CASE("a shared limiter paces real threads at the combined rate", "[rate][threads]") {
  // Real time, kept short: 40 requests at 200/s with burst 1 need >= 195 ms
  // together; four private limiters would need only about 45 ms.
  auto clock = std::make_shared<mgnify::http::SystemClock>();
  RateLimiter limiter(paced(200, 1), clock);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) limiter.acquire();
    });
  }
  for (auto& th : threads) th.join();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed >= 190ms);
  CHECK(elapsed < 2s);
}

TEST_CASE("a session paces its requests through its limiter", "[rate][session]") {
  mgnify::test::FakeRig rig;
  rig.transport->fallback([](const mgnify::http::Request&) {
    mgnify::http::Response r;
    r.status = 200;
    return r;
  });
  auto session = rig.session([](mgnify::ClientOptions& o) { o.rate_limit = paced(5, 1); });
  for (int i = 0; i < 3; ++i) session->get(rig.url("x"));
  const auto sleeps = rig.sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(near(sleeps[0], 200ms));
  CHECK(near(sleeps[1], 200ms));
  CHECK(rig.transport->request_count() == 3);
  CHECK(session->rate_limiter().options().requests_per_second == 5.0);
}
