// TokenAuth's refresh of a rejected token when several calls hold it: one
// refreshes, the others wait for it, and a waiter's own cancel and deadline
// end its wait.

#include "mgnify/http/token_auth.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

mgnify::AuthError rejected() {
  mgnify::ApiErrorInfo info;
  info.status = 401;
  info.url = "https://example.org/api/studies/";
  return mgnify::AuthError(info);
}

/// A TokenAuth holding "old" whose refresh hangs until released (at most 3 s).
struct HangingRefresh {
  mgnify::http::TokenAuth auth{std::string("old")};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> refreshing{false};
  std::thread first;

  HangingRefresh() {
    mgnify::http::TokenRefresh policy;
    policy.refresh = [this](const std::string&, const mgnify::CancelToken&) {
      refreshing = true;
      released.wait_for(3s);
      return std::string("new");
    };
    auth.set_refresh(policy);
    first = std::thread([this] {
      auth.repeat_after_rejection("old", rejected(), 1, mgnify::CancelToken::never());
    });
    for (int i = 0; i < 200 && !refreshing; ++i) std::this_thread::sleep_for(5ms);
    CHECK(refreshing);
  }
  ~HangingRefresh() {
    release.set_value();
    first.join();
  }
};

}  // namespace

TEST_CASE("a call waiting for another call's token refresh can be cancelled", "[auth][cancel]") {
  HangingRefresh rig;
  const mgnify::CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(100ms);
    cancel.cancel();
  });
  const auto start = Clock::now();
  CHECK_THROWS_AS(rig.auth.repeat_after_rejection("old", rejected(), 1, cancel),
                  mgnify::CancelledError);
  CHECK(Clock::now() - start < 1s);
  canceller.join();
  // The refresh under way is not disturbed.
  CHECK(rig.auth.get() == std::optional<std::string>("old"));
}

TEST_CASE("a call waiting for another call's token refresh stops at its deadline",
          "[auth][cancel]") {
  HangingRefresh rig;
  const auto stop = mgnify::CallOptions().timeout(150ms).token();
  const auto start = Clock::now();
  try {
    rig.auth.repeat_after_rejection("old", rejected(), 1, stop);
    FAIL("expected a timeout");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == mgnify::TransportError::Kind::timeout);
  }
  CHECK(Clock::now() - start < 1s);
}

TEST_CASE("a call that waited for another call's refresh repeats with the new token", "[auth]") {
  HangingRefresh rig;
  std::thread releaser([&rig] {
    std::this_thread::sleep_for(100ms);
    rig.release.set_value();
  });
  CHECK(rig.auth.repeat_after_rejection("old", rejected(), 1, mgnify::CancelToken()));
  CHECK(rig.auth.get() == std::optional<std::string>("new"));
  releaser.join();
  rig.release = std::promise<void>();  // the destructor's release has nothing left to wake
}
