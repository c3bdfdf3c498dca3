// Adaptive pacing of the shared rate limiter, on a fake clock: a throttled
// response halves the rate once per episode, accepted responses win it back
// step by step up to the configured rate, and a Retry-After holds everyone.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/http/rate_limiter.hpp"
#include "mgnify/testing/fake_clock.hpp"

using namespace std::chrono_literals;
using mgnify::http::RateLimiter;
using mgnify::http::RateLimitOptions;
using mgnify::test::paced;
using mgnify::testing::FakeClock;

namespace {

bool close_to(std::chrono::nanoseconds a, std::chrono::nanoseconds b) {
  return std::chrono::abs(a - b) <= 1us;
}

// A fake clock that runs a hook (once) when something starts sleeping on it:
// another thread's report arriving while a request waits for its slot.
class HookClock final : public mgnify::http::Clock {
 public:
  std::function<void()> on_first_sleep;

  std::chrono::steady_clock::time_point now() override { return inner_.now(); }
  std::chrono::system_clock::time_point wall_now() override { return inner_.wall_now(); }
  void sleep_for(std::chrono::nanoseconds d) override {
    if (on_first_sleep) {
      auto hook = std::move(on_first_sleep);
      on_first_sleep = nullptr;
      hook();
    }
    inner_.sleep_for(d);
  }
  std::vector<std::chrono::nanoseconds> sleeps() const { return inner_.sleeps(); }

 private:
  FakeClock inner_;
};

mgnify::http::Response status_only(int status) {
  mgnify::http::Response r;
  r.status = status;
  return r;
}

}  // namespace

TEST_CASE("adaptive pacing is on by default and reports the configured rate", "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  CHECK(RateLimitOptions{}.adaptive);
  RateLimiter limiter(paced(10, 10), clock);
  CHECK(limiter.current_rate() == 10.0);
  CHECK(limiter.floor_rate() == 10.0 / 64);
}

TEST_CASE("a throttled response halves the shared rate and later slots follow it",
          "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(10, 1), clock);
  const auto ticket = limiter.acquire();
  limiter.on_throttled(ticket);
  CHECK(limiter.current_rate() == 5.0);
  limiter.acquire();
  limiter.acquire();
  const auto sleeps = clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(close_to(sleeps[0], 200ms));
  CHECK(close_to(sleeps[1], 200ms));
}

TEST_CASE("reports of one throttling episode from many threads halve the rate once",
          "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(16, 16), clock);
  std::vector<RateLimiter::Ticket> sent;
  for (int i = 0; i < 8; ++i) sent.push_back(limiter.acquire());
  // All eight were on their way before the first 429 came back.
  for (const auto& t : sent) limiter.on_throttled(t);
  CHECK(limiter.current_rate() == 8.0);
  // A request paced at the new rate and still throttled: another halving.
  const auto later = limiter.acquire();
  limiter.on_throttled(later);
  limiter.on_throttled(later);
  CHECK(limiter.current_rate() == 4.0);
}

TEST_CASE("accepted responses win the rate back step by step, never above the configured one",
          "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(64, 1), clock);
  const auto first = limiter.acquire();
  limiter.on_throttled(first);
  REQUIRE(limiter.current_rate() == 32.0);
  // Answers to requests sent before the decrease do not count.
  limiter.on_accepted(first);
  CHECK(limiter.current_rate() == 32.0);
  for (int k = 1; k <= 32; ++k) {
    limiter.on_accepted(limiter.acquire());
    INFO("accepted " << k);
    CHECK(limiter.current_rate() == 32.0 + k);  // configured / 64 = 1 per response
  }
  for (int k = 0; k < 10; ++k) limiter.on_accepted(limiter.acquire());
  CHECK(limiter.current_rate() == 64.0);
}

TEST_CASE("the rate never falls below its floor", "[rate][adaptive]") {
  struct Case {
    double configured;
    double floor;
  };
  // configured / 64, but at least 0.1 per second unless the configured rate is lower.
  for (const auto& c : {Case{10, 10.0 / 64}, Case{1, 0.1}, Case{0.05, 0.05}}) {
    INFO("configured " << c.configured);
    auto clock = std::make_shared<FakeClock>();
    RateLimiter limiter(paced(c.configured, 1), clock);
    CHECK(limiter.floor_rate() == c.floor);
    for (int i = 0; i < 20; ++i) limiter.on_throttled(limiter.acquire());
    CHECK(limiter.current_rate() == c.floor);
  }
}

TEST_CASE("a Retry-After holds the next request of every thread until it has passed",
          "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  RateLimiter limiter(paced(10, 10), clock);
  limiter.on_throttled(limiter.acquire(), 3s);
  CHECK(limiter.current_rate() == 5.0);
  limiter.acquire();  // the first slot after the hold
  limiter.acquire();  // then paced at the halved rate, with nothing saved up
  const auto sleeps = clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(close_to(sleeps[0], 3s));
  CHECK(close_to(sleeps[1], 200ms));
}

TEST_CASE("a Retry-After arriving while a request waits for its slot extends that wait",
          "[rate][adaptive]") {
  auto clock = std::make_shared<HookClock>();
  RateLimiter limiter(paced(1, 1), clock);
  const auto first = limiter.acquire();
  clock->on_first_sleep = [&] { limiter.on_throttled(first, 5s); };
  limiter.acquire();  // its slot is 1 s away; the hold ends 5 s from now
  const auto sleeps = clock->sleeps();
  REQUIRE(sleeps.size() == 2);
  CHECK(close_to(sleeps[0], 1s));
  CHECK(close_to(sleeps[1], 4s));
}

TEST_CASE("without adaptive pacing, or without a limit, throttling changes nothing",
          "[rate][adaptive]") {
  auto clock = std::make_shared<FakeClock>();
  auto fixed = paced(10, 1);
  fixed.adaptive = false;
  RateLimiter steady(fixed, clock);
  steady.on_throttled(steady.acquire(), 5s);
  CHECK(steady.current_rate() == 10.0);
  steady.acquire();
  REQUIRE(clock->sleeps().size() == 1);
  CHECK(close_to(clock->sleeps()[0], 100ms));

  auto clock2 = std::make_shared<FakeClock>();
  RateLimiter off(RateLimitOptions::unlimited(), clock2);
  off.on_throttled(off.acquire(), 5s);
  for (int i = 0; i < 100; ++i) off.on_accepted(off.acquire());
  CHECK(std::isinf(off.current_rate()));
  CHECK(clock2->sleeps().empty());
}

TEST_CASE("a session slows its limiter on 429 and on 503 with Retry-After, not on other errors",
          "[rate][adaptive][session]") {
  mgnify::test::FakeRig rig;
  auto session = rig.session([](mgnify::ClientOptions& o) { o.rate_limit = paced(8, 1); });
  auto& limiter = session->rate_limiter();

  rig.transport->respond(rig.url("plain"), 503).respond(rig.url("plain"), 500);
  rig.transport->respond(rig.url("plain"), 404);
  CHECK_THROWS_AS(session->get(rig.url("plain")), mgnify::NotFoundError);
  CHECK(limiter.current_rate() == 8.0);

  rig.transport->respond(rig.url("busy"), 429).respond(rig.url("busy"), 200);
  session->get(rig.url("busy"));
  // Halved, then one step (8 / 64) back for the accepted retry.
  CHECK(limiter.current_rate() == 4.125);

  mgnify::http::Headers later;
  later.set("Retry-After", "2");
  rig.transport->respond(rig.url("down"), 503, "", later).respond(rig.url("down"), 200);
  session->get(rig.url("down"));
  CHECK(limiter.current_rate() == 2.0625 + 0.125);
  const auto sleeps = rig.sleeps();
  CHECK(std::count(sleeps.begin(), sleeps.end(), std::chrono::nanoseconds(2s)) == 1);
}

TEST_CASE("an unlimited session keeps unlimited after a 429", "[rate][adaptive][session]") {
  mgnify::test::FakeRig rig;
  rig.transport->fallback([](const mgnify::http::Request&) { return status_only(200); });
  auto session = rig.session();
  rig.transport->respond(rig.url("busy"), 429);
  session->get(rig.url("busy"));
  CHECK(std::isinf(session->rate_limiter().current_rate()));
  CHECK(rig.transport->request_count() == 2);
}
