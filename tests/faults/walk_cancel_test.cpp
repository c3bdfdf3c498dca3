// Leaving a walk early, or cancelling it, while its next page hangs on the
// server: the caller gets control back within half a second and no transfer
// stays open, whatever the server does.

#include <httplib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "faults/tcp_state.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock_server.hpp"
#include "skip.hpp"
#include "support/allow_deprecated.hpp"
#include "support/gate.hpp"

namespace {

using namespace std::chrono_literals;
using mgnify::mock::MockServer;
using Clock = std::chrono::steady_clock;

using mgnify::test::Gate;

// A v1 and a v2 list of two pages each; every page after the first hangs.
class HangingLists {
 public:
  HangingLists() {
    const std::string v2 = std::string(mgnify::mock::kV2Prefix) + "/studies/";
    mock_.server().Get(v2, [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_param_value("page") != "1") gate_.hold(req.remote_port);
      res.set_content(R"({"count": 4, "items": [{"accession": "MGYS00000001"},)"
                      R"({"accession": "MGYS00000002"}]})",
                      "application/json");
    });
    const std::string v1 = std::string(mgnify::mock::kV1Prefix) + "/studies";
    mock_.server().Get(v1, [this](const httplib::Request& req, httplib::Response& res) {
      const bool first = !req.has_param("page") || req.get_param_value("page") == "1";
      if (!first) gate_.hold(req.remote_port);
      const std::string next = mock_.v1_url() + "/studies?page=2";
      res.set_content(R"({"data": [{"type": "studies", "id": "MGYS00000001", "attributes": {}}],)"
                      R"( "links": {"next": )" +
                          (first ? "\"" + next + "\"" : std::string("null")) +
                          R"(}, "meta": {"pagination": {"page": 1, "pages": 2, "count": 2}}})",
                      "application/vnd.api+json");
    });
    mock_.start();
  }
  ~HangingLists() { gate_.open(); }

  mgnify::ClientOptions options(bool read_ahead, std::size_t parallel_pages) {
    mgnify::ClientOptions o;
    o.read_ahead = read_ahead;
    o.parallel_pages = parallel_pages;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.transport = transport_;
    return o;
  }
  std::string v1_url() const { return mock_.v1_url(); }
  std::string v2_url() const { return mock_.v2_url(); }
  Gate& gate() { return gate_; }
  std::size_t open_transfers() const { return transport_->transfers_in_flight(); }
  /// Whether the first held request's connection is established now.
  std::optional<bool> held_connection_open_now() {
    const auto ports = gate_.held_client_ports();
    if (ports.empty()) return false;
    return mgnify::test::faults::tcp_established(mock_.port(), ports.front());
  }
  /// Held requests whose connection the client has not closed, as the kernel
  /// sees it (nullopt where it cannot be read). A closed connection may take
  /// the kernel a moment to show, hence the short wait.
  std::optional<std::size_t> connections_left_open() {
    const auto deadline = Clock::now() + 500ms;
    for (;;) {
      std::size_t open = 0;
      for (const int port : gate_.held_client_ports()) {
        const auto established = mgnify::test::faults::tcp_established(mock_.port(), port);
        if (!established) return std::nullopt;
        if (*established) ++open;
      }
      if (open == 0 || Clock::now() > deadline) return open;
      std::this_thread::sleep_for(10ms);
    }
  }

 private:
  Gate gate_;
  MockServer mock_;
  std::shared_ptr<mgnify::http::CurlTransport> transport_ =
      std::make_shared<mgnify::http::CurlTransport>();
};

// Every held request's connection was closed by the client: counted on the
// server's side of the socket, not by the client.
// Each test that uses it skips first where the table cannot be read: a skip
// reported after checks would report their failures as skipped too.
void check_no_connection_left(HangingLists& lists) {
  const auto open = lists.connections_left_open();
  REQUIRE(open);
  CHECK(*open == 0);
}

constexpr const char* kNoTcpTable = "the kernel's TCP table (/proc/net/tcp) cannot be read here";

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Leaves the loop over the walk `make_walk()` returns after its first item while
// a later page hangs at the gate (the `held`-th request held): the loop, and the
// walk with it, end at once and leave nothing open.
template <class MakeWalk, class CheckItem>
void check_leaving_loop(HangingLists& lists, MakeWalk make_walk, int held, CheckItem check_item) {
  const auto start = Clock::now();
  int seen = 0;
  for (const auto& item : make_walk()) {
    check_item(item);
    ++seen;
    // A later page is in flight (read-ahead) and hangs on the server.
    REQUIRE(lists.gate().wait_held(held));
    break;
  }
  CHECK(seen == 1);
  CHECK(seconds_since(start) < 0.5);
  CHECK(lists.open_transfers() == 0);
  check_no_connection_left(lists);
}

// Cancels the walk `make_walk(token)` returns (it hands the walk the token,
// through the list call's CallOptions or the deprecated cancel_with) once a page hangs at the gate:
// the walk ends at once with CancelledError after the first page's
// `page_items`, closing the hung request's connection.
template <class MakeWalk, class CheckItem>
void check_cancel_on_hung_page(HangingLists& lists, MakeWalk make_walk, int page_items,
                               CheckItem check_item) {
  mgnify::CancelToken token;
  auto walk = make_walk(token);
  Clock::time_point cancelled_at{};
  std::optional<bool> open_while_held;
  std::thread canceller([&] {
    if (lists.gate().wait_held(1)) {
      // The kernel shows the hung request's connection open, so that the
      // check after the cancel has something to see closed.
      open_while_held = lists.held_connection_open_now();
      cancelled_at = Clock::now();
      token.cancel();
    }
  });
  int seen = 0;
  bool threw = false;
  try {
    for (const auto& item : walk) {
      check_item(item);
      ++seen;
    }
  } catch (const mgnify::CancelledError&) {
    threw = true;
  }
  const auto returned_at = Clock::now();
  canceller.join();
  CHECK(threw);
  CHECK(seen == page_items);  // page 1 in full; page 2 never came
  REQUIRE(cancelled_at != Clock::time_point{});
  CHECK(std::chrono::duration<double>(returned_at - cancelled_at).count() < 0.5);
  CHECK(lists.open_transfers() == 0);
  CHECK(open_while_held != std::optional<bool>(false));
  check_no_connection_left(lists);
}

// A walk `make_walk(call)` returns, given 300 ms in its CallOptions, while
// its second page hangs: DeadlineExceededError (a timeout TransportError) once
// the time is up, not before and not much after, after the first page's `page_items`.
template <class MakeWalk>
void check_deadline_on_hung_page(HangingLists& lists, MakeWalk make_walk, int page_items) {
  const auto budget = 300ms;
  const auto started = Clock::now();
  auto walk = make_walk(mgnify::CallOptions().timeout(budget));
  int seen = 0;
  bool timed_out = false;
  try {
    for (const auto& item : walk) {
      (void)item;
      ++seen;
    }
  } catch (const mgnify::DeadlineExceededError& e) {
    timed_out = e.kind() == mgnify::TransportError::Kind::timeout;
    CHECK_THAT(e.what(), Catch::Contains("deadline"));
  }
  const auto took = Clock::now() - started;
  CHECK(timed_out);
  CHECK(seen == page_items);
  CHECK(took >= budget);
  CHECK(took < budget + 500ms);
  CHECK(lists.gate().wait_held(1));  // the page did reach the server
  CHECK(lists.open_transfers() == 0);
  check_no_connection_left(lists);
}

// How a v1 walk fetches: serially, one page ahead, or guessing page numbers.
struct V1WalkMode {
  bool read_ahead;
  std::size_t parallel_pages;
};
const V1WalkMode kV1WalkModes[] = {{false, 1}, {true, 1}, {true, 4}};

}  // namespace

TEST_CASE("walks: leaving a loop while later pages hang returns at once", "[faults][walks]") {
  if (!mgnify::test::faults::tcp_table_readable()) MGNIFY_SKIP_TEST(kNoTcpTable);
  for (const std::size_t parallel : {std::size_t{1}, std::size_t{4}}) {
    HangingLists lists;
    INFO("parallel_pages " << parallel);
    {
      auto o = lists.options(true, parallel);
      o.base_url = lists.v2_url();
      mgnify::v2::V2Client client(o);
      check_leaving_loop(
          lists, [&client] { return client.studies(); }, 1,
          [](const auto& study) { CHECK(study.accession == "MGYS00000001"); });
    }
    {
      auto o = lists.options(true, parallel);
      o.base_url = lists.v1_url();
      mgnify::v1::LegacyClient client(o);
      check_leaving_loop(
          lists, [&client] { return client.studies(); }, 2,
          [](const auto& study) { CHECK(study.resource.id == "MGYS00000001"); });
    }
  }
}

namespace {

// Runs check(lists, studies, page_items) for the v2 client (serial and one
// page ahead) and the v1 client in every kV1WalkModes, each on lists of its
// own; studies(call) is client.studies({}, {}, call), whose first page holds
// page_items items.
template <class Check>
void for_each_walk_mode(Check check) {
  for (const bool read_ahead : {false, true}) {
    HangingLists lists;
    INFO("v2, read-ahead " << read_ahead);
    auto o = lists.options(read_ahead, 1);
    o.base_url = lists.v2_url();
    mgnify::v2::V2Client client(o);
    check(
        lists, [&client](const mgnify::CallOptions& call) { return client.studies({}, {}, call); },
        2);
  }
  for (const V1WalkMode mode : kV1WalkModes) {
    HangingLists lists;
    INFO("v1, read-ahead " << mode.read_ahead << ", parallel_pages " << mode.parallel_pages);
    auto o = lists.options(mode.read_ahead, mode.parallel_pages);
    o.base_url = lists.v1_url();
    mgnify::v1::LegacyClient client(o);
    check(
        lists, [&client](const mgnify::CallOptions& call) { return client.studies({}, {}, call); },
        1);
  }
}

}  // namespace

TEST_CASE("walks: the deprecated Paged::cancel_with still stops a walk waiting on a hung page",
          "[faults][walks][deprecated]") {
  if (!mgnify::test::faults::tcp_table_readable()) MGNIFY_SKIP_TEST(kNoTcpTable);
  for_each_walk_mode([](HangingLists& lists, auto studies, int page_items) {
    check_cancel_on_hung_page(
        lists,
        [&](const mgnify::CancelToken& token) {
          auto walk = studies(mgnify::CallOptions{});
          MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
          walk.cancel_with(token);
          MGNIFY_TEST_ALLOW_DEPRECATED_END
          return walk;
        },
        page_items, [](const auto&) {});
  });
}

TEST_CASE("walks: the list call's cancel token stops a walk waiting on a hung page",
          "[faults][walks][call-options]") {
  if (!mgnify::test::faults::tcp_table_readable()) MGNIFY_SKIP_TEST(kNoTcpTable);
  for_each_walk_mode([](HangingLists& lists, auto studies, int page_items) {
    check_cancel_on_hung_page(
        lists,
        [&](const mgnify::CancelToken& token) { return studies(mgnify::CallOptions(token)); },
        page_items, [](const auto&) {});
  });
}

TEST_CASE("walks: the list call's deadline ends a walk on a hung page with DeadlineExceededError",
          "[faults][walks][call-options]") {
  if (!mgnify::test::faults::tcp_table_readable()) MGNIFY_SKIP_TEST(kNoTcpTable);
  for_each_walk_mode([](HangingLists& lists, auto studies, int page_items) {
    check_deadline_on_hung_page(lists, studies, page_items);
  });
}
