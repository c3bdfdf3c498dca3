// Counted walks against servers whose pages do not match what was asked for:
// a page size clamped below the requested one, a page shorter than its
// neighbours, and a total that changes mid-walk. A walk either yields every
// item exactly once or throws ListChangedError; it never ends quietly short.

#include <httplib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/options.hpp"
#include "mgnify/v2.hpp"
#include "mock_server.hpp"

namespace {

using mgnify::mock::MockServer;

// A v2 list of `count()` studies MGYS00000000.., served in pages of at most
// `server_size` items whatever page_size asks for. `items_on(page, size)` may
// shorten a page.
struct ScriptedList {
  std::function<std::int64_t()> count = [] { return 11; };
  std::int64_t server_size = 10;
  std::function<std::int64_t(std::int64_t page, std::int64_t full)> items_on =
      [](std::int64_t, std::int64_t full) { return full; };
};

std::string accession(std::int64_t i) {
  std::string digits = std::to_string(i);
  return "MGYS" + std::string(8 - digits.size(), '0') + digits;
}

class Server {
 public:
  explicit Server(ScriptedList list) : list_(std::move(list)) {
    mock_.server().Get(
        std::string(mgnify::mock::kV2Prefix) + "/studies/",
        [this](const httplib::Request& req, httplib::Response& res) {
          ++requests_;
          const std::int64_t page = std::stoll(req.get_param_value("page"));
          const std::int64_t asked = std::stoll(req.get_param_value("page_size"));
          const std::int64_t size = std::min(asked, list_.server_size);
          const std::int64_t count = list_.count();
          // Saturated: tests ask for pages near the int64 limit.
          const std::int64_t first = page - 1 > count / size ? count : (page - 1) * size;
          const std::int64_t full = first >= count ? 0 : std::min(size, count - first);
          const std::int64_t n = list_.items_on(page, full);
          std::string body = "{\"count\": " + std::to_string(count) + ", \"items\": [";
          for (std::int64_t i = 0; i < n; ++i) {
            if (i > 0) body += ",";
            body += "{\"accession\": \"" + accession(first + i) + "\"}";
          }
          body += "]}";
          res.set_content(body, "application/json");
        });
    mock_.start();
  }

  mgnify::v2::V2Client client(bool read_ahead, std::size_t parallel_pages = 4) {
    mgnify::ClientOptions o;
    o.base_url = mock_.v2_url();
    o.read_ahead = read_ahead;
    o.parallel_pages = parallel_pages;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    return mgnify::v2::V2Client(o);
  }
  int requests() const { return requests_.load(); }

 private:
  ScriptedList list_;
  MockServer mock_;
  std::atomic<int> requests_{0};
};

struct Walked {
  std::vector<std::string> accessions;
  bool threw = false;
  std::string resume_token;
  std::string message;
};

Walked walk(mgnify::v2::V2Client& client, int page_size) {
  Walked out;
  mgnify::ListOptions list;
  list.page_size = page_size;
  auto studies = client.studies({}, list);
  try {
    for (const auto& s : studies) out.accessions.push_back(s.accession);
  } catch (const mgnify::ListChangedError& e) {
    out.threw = true;
    out.resume_token = e.resume_token();
    out.message = e.what();
  }
  return out;
}

std::vector<std::string> expected_accessions(std::int64_t count) {
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < count; ++i) out.push_back(accession(i));
  return out;
}

}  // namespace

TEST_CASE("walks: a server that clamps the page size still yields every item once",
          "[faults][walks]") {
  struct Case {
    std::int64_t count;
    std::int64_t server_size;
    int requested;
  };
  // 11 items in pages of 10 asked for in pages of 100 is the reported loss
  // (10 of 11); the others clamp to several sizes, with totals on and off a
  // page boundary.
  const std::vector<Case> cases = {{11, 10, 100}, {25, 7, 100}, {30, 10, 50},
                                   {1, 10, 100},  {0, 10, 100}, {250, 25, 100}};
  for (const Case& c : cases) {
    for (const bool read_ahead : {false, true}) {
      ScriptedList list;
      list.count = [n = c.count] { return n; };
      list.server_size = c.server_size;
      Server server(list);
      auto client = server.client(read_ahead);
      const Walked got = walk(client, c.requested);
      INFO("count " << c.count << ", server pages of " << c.server_size << ", asked " << c.requested
                    << ", read-ahead " << read_ahead);
      CHECK_FALSE(got.threw);
      CHECK(got.accessions == expected_accessions(c.count));
    }
  }
}

TEST_CASE("walks: a page shorter than its neighbours fails the walk, naming where to resume",
          "[faults][walks]") {
  for (const bool read_ahead : {false, true}) {
    ScriptedList list;
    list.count = [] { return 50; };
    list.server_size = 10;
    // Page 3 of 5 comes back with 4 items instead of 10.
    list.items_on = [](std::int64_t page, std::int64_t full) { return page == 3 ? 4 : full; };
    Server server(list);
    auto client = server.client(read_ahead);
    const Walked got = walk(client, 100);
    INFO("read-ahead " << read_ahead);
    REQUIRE(got.threw);
    CHECK(got.resume_token == "3");
    CHECK(got.message.find("page 3 held 4 items") != std::string::npos);
    // Every item before the short page came, in order, and nothing after it.
    const auto all = expected_accessions(50);
    CHECK(got.accessions == std::vector<std::string>(all.begin(), all.begin() + 20));
  }
}

TEST_CASE("walks: a total that changes mid-walk fails the walk", "[faults][walks]") {
  for (const bool read_ahead : {false, true}) {
    std::atomic<int> calls{0};
    ScriptedList list;
    // The first answer says 30, every later one 31: an item was added.
    list.count = [&calls] { return calls++ == 0 ? 30 : 31; };
    list.server_size = 10;
    Server server(list);
    auto client = server.client(read_ahead);
    const Walked got = walk(client, 10);
    INFO("read-ahead " << read_ahead);
    REQUIRE(got.threw);
    CHECK(got.message.find("the total went from 30 to 31") != std::string::npos);
    CHECK(got.resume_token == "2");
    CHECK(got.accessions == expected_accessions(10));
  }
}

TEST_CASE("walks: an empty page before the total is reached fails the walk", "[faults][walks]") {
  ScriptedList list;
  list.count = [] { return 30; };
  list.server_size = 10;
  list.items_on = [](std::int64_t page, std::int64_t full) { return page == 2 ? 0 : full; };
  Server server(list);
  auto client = server.client(true);
  const Walked got = walk(client, 10);
  REQUIRE(got.threw);
  CHECK(got.resume_token == "2");
  CHECK(got.accessions == expected_accessions(10));
}

TEST_CASE("walks: an implausible total is a DecodeError, not billions of planned pages",
          "[faults][walks]") {
  for (const bool read_ahead : {false, true}) {
    ScriptedList list;
    list.count = [] { return std::int64_t{1'000'000'000'000'000'000}; };
    Server server(list);
    auto client = server.client(read_ahead);
    mgnify::ListOptions options;
    options.page_size = 10;
    std::size_t yielded = 0;
    try {
      for (const auto& s : client.studies({}, options)) {
        (void)s;
        if (++yielded > 100) break;
      }
      FAIL("the walk believed a total of 10^18");
    } catch (const mgnify::DecodeError& e) {
      CHECK(std::string(e.what()).find("1000000000000000000") != std::string::npos);
    }
    CHECK(yielded == 0);
    CHECK(server.requests() == 1);
  }
}

TEST_CASE("walks: a start page at the int64 limit ends cleanly", "[faults][walks]") {
  // Page arithmetic on the last representable page must not overflow (UBSan
  // aborts the sanitizer build on signed overflow).
  for (const bool read_ahead : {false, true}) {
    ScriptedList list;
    Server server(list);
    auto client = server.client(read_ahead);
    mgnify::ListOptions options;
    options.start_page = std::numeric_limits<std::int64_t>::max();
    std::size_t yielded = 0;
    for (const auto& s : client.studies({}, options)) {
      (void)s;
      ++yielded;
    }
    CHECK(yielded == 0);
    CHECK(server.requests() == 1);
  }
}
