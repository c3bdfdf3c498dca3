// Adaptive pacing against a server that throttles above a fixed rate: eight
// threads share one client, and the 429s they provoke are counted with the
// client's adaptive pacing on and off. Real time on loopback, a few seconds.

#include <httplib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mgnify/default_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mock_server.hpp"

namespace {

using PacingClock = std::chrono::steady_clock;

// Answers 429 whenever it already accepted `limit` requests within the last
// `window`: a sliding-window limiter like those in front of public APIs.
class ThrottlingServer {
 public:
  ThrottlingServer(std::size_t limit, std::chrono::milliseconds window)
      : limit_(limit), window_(window) {
    server_.server().Get("/paced", [this](const httplib::Request&, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto now = PacingClock::now();
      while (!accepted_.empty() && now - accepted_.front() >= window_) accepted_.pop_front();
      if (accepted_.size() >= limit_) {
        ++throttled_;
        res.status = 429;
        res.set_content(R"({"detail":"Request was throttled."})", "application/json");
        return;
      }
      accepted_.push_back(now);
      ++served_;
      res.set_content("{}", "application/json");
    });
    server_.start();
  }

  std::string url() const { return server_.origin() + "/paced"; }
  std::size_t throttled() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return throttled_;
  }
  std::size_t served() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return served_;
  }

 private:
  mgnify::mock::MockServer server_;
  const std::size_t limit_;
  const std::chrono::milliseconds window_;
  mutable std::mutex mutex_;
  std::deque<PacingClock::time_point> accepted_;
  std::size_t throttled_ = 0;
  std::size_t served_ = 0;
};

struct PacingOutcome {
  std::size_t throttled = 0;
  std::size_t served = 0;
  std::size_t succeeded = 0;
  std::vector<std::string> errors;
  double final_rate = 0;
  double seconds = 0;
};

constexpr int kPacingThreads = 8;
constexpr int kPerThread = 10;

// 8 threads x 10 requests on one session allowed 100/s, against a server that
// accepts 10 per 200 ms (50/s).
PacingOutcome run_paced_batch(bool adaptive) {
  ThrottlingServer server(10, std::chrono::milliseconds(200));
  mgnify::ClientOptions o;
  o.base_url = server.url();
  o.rate_limit.requests_per_second = 100;
  o.rate_limit.burst = 8;
  o.rate_limit.adaptive = adaptive;
  // Short per-thread backoff and a deep budget, so that every request gets
  // through in both runs and the difference lies in the pacing alone.
  o.retry.max_attempts = 60;
  o.retry.initial_backoff = std::chrono::milliseconds(10);
  o.retry.max_backoff = std::chrono::milliseconds(100);
  o.connect_timeout = std::chrono::milliseconds(2000);
  o.request_timeout = std::chrono::milliseconds(5000);
  mgnify::http::Session session(mgnify::with_default_transport(o), "");

  std::mutex mutex;
  PacingOutcome out;
  const auto start = PacingClock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kPacingThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) {
        try {
          session.get(server.url());
          std::lock_guard<std::mutex> lock(mutex);
          ++out.succeeded;
        } catch (const std::exception& e) {
          std::lock_guard<std::mutex> lock(mutex);
          out.errors.emplace_back(e.what());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  out.seconds = std::chrono::duration<double>(PacingClock::now() - start).count();
  out.throttled = server.throttled();
  out.served = server.served();
  out.final_rate = session.rate_limiter().current_rate();
  return out;
}

}  // namespace

TEST_CASE("pacing: 8 threads slow down together after 429s, provoking far fewer of them",
          "[faults][ratelimit][pacing]") {
  const auto fixed = run_paced_batch(false);
  const auto adaptive = run_paced_batch(true);
  INFO("429s fixed " << fixed.throttled << " in " << fixed.seconds << " s, adaptive "
                     << adaptive.throttled << " in " << adaptive.seconds << " s, rate after "
                     << adaptive.final_rate << "/s");
  constexpr std::size_t kTotal = kPacingThreads * kPerThread;
  CHECK(adaptive.errors.empty());
  CHECK(adaptive.succeeded == kTotal);
  CHECK(adaptive.served == kTotal);
  CHECK(adaptive.final_rate <= 100.0);
  // The fixed rate keeps sending twice what the server takes.
  CHECK(fixed.succeeded == kTotal);
  CHECK(adaptive.throttled <= 25);
  CHECK(adaptive.throttled * 2 < fixed.throttled);
}
