// Counted walks (v2, and v1 page-number lists) against servers whose pages do
// not match what was asked for: a page size clamped below the requested one,
// a page shorter than its neighbours, a total that changes mid-walk, and walks
// resumed at a later page. A walk either yields every item exactly once or
// throws ListChangedError; it never ends quietly short.

#include <httplib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/options.hpp"
#include "mgnify/v1.hpp"
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

// The same list as v2 (`{"count", "items"}`, an empty page past the end) and
// as v1 (DRF page-number pagination: links built from the request with
// `page` replaced, meta.pagination, 404 past the last page).
class Server {
 public:
  explicit Server(ScriptedList list) : list_(std::move(list)) {
    mock_.server().Get(std::string(mgnify::mock::kV2Prefix) + "/studies/",
                       [this](const httplib::Request& req, httplib::Response& res) {
                         ++requests_;
                         const std::int64_t page = std::stoll(req.get_param_value("page"));
                         const std::int64_t asked = std::stoll(req.get_param_value("page_size"));
                         const Slice slice = slice_of(page, asked, list_.count());
                         std::string body =
                             "{\"count\": " + std::to_string(slice.count) + ", \"items\": [";
                         for (std::int64_t i = 0; i < slice.items; ++i) {
                           if (i > 0) body += ",";
                           body += "{\"accession\": \"" + accession(slice.first + i) + "\"}";
                         }
                         body += "]}";
                         res.set_content(body, "application/json");
                       });
    mock_.server().Get(
        std::string(mgnify::mock::kV1Prefix) + "/studies",
        [this](const httplib::Request& req, httplib::Response& res) {
          ++requests_;
          const std::int64_t page =
              req.has_param("page") ? std::stoll(req.get_param_value("page")) : 1;
          const std::int64_t asked =
              req.has_param("page_size") ? std::stoll(req.get_param_value("page_size")) : 25;
          const Slice slice = slice_of(page, asked, list_.count());
          if (page > slice.pages) {
            res.status = 404;
            res.set_content(R"({"errors": [{"detail": "Invalid page.", "status": "404"}]})",
                            "application/vnd.api+json");
            return;
          }
          const std::string size_param =
              req.has_param("page_size") ? "&page_size=" + req.get_param_value("page_size") : "";
          auto link = [&](std::int64_t p) {
            return p < 1 || p > slice.pages
                       ? std::string("null")
                       : "\"" + mock_.v1_url() + "/studies?page=" + std::to_string(p) + size_param +
                             "\"";
          };
          std::string body = "{\"data\": [";
          for (std::int64_t i = 0; i < slice.items; ++i) {
            if (i > 0) body += ",";
            body += "{\"type\": \"studies\", \"id\": \"" + accession(slice.first + i) +
                    "\", \"attributes\": {\"accession\": \"" + accession(slice.first + i) + "\"}}";
          }
          body += "], \"links\": {\"first\": " + link(1) + ", \"last\": " + link(slice.pages) +
                  ", \"next\": " + link(page + 1) + ", \"prev\": " + link(page - 1) +
                  "}, \"meta\": {\"pagination\": {\"page\": " + std::to_string(page) +
                  ", \"pages\": " + std::to_string(slice.pages) +
                  ", \"count\": " + std::to_string(slice.count) + "}}}";
          res.set_content(body, "application/vnd.api+json");
        });
    mock_.start();
  }

  mgnify::ClientOptions options(bool read_ahead, std::size_t parallel_pages) const {
    mgnify::ClientOptions o;
    o.read_ahead = read_ahead;
    o.parallel_pages = parallel_pages;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    return o;
  }
  mgnify::v2::V2Client client(bool read_ahead, std::size_t parallel_pages = 4) {
    auto o = options(read_ahead, parallel_pages);
    o.base_url = mock_.v2_url();
    return mgnify::v2::V2Client(o);
  }
  mgnify::v1::LegacyClient v1_client(bool read_ahead, std::size_t parallel_pages) {
    auto o = options(read_ahead, parallel_pages);
    o.base_url = mock_.v1_url();
    return mgnify::v1::LegacyClient(o);
  }
  /// The v1 URL of `page` as the server's links name it.
  std::string v1_page_url(std::int64_t page, int page_size) const {
    return mock_.v1_url() + "/studies?page=" + std::to_string(page) +
           "&page_size=" + std::to_string(page_size);
  }
  int requests() const { return requests_.load(); }

 private:
  struct Slice {
    std::int64_t count = 0;
    std::int64_t pages = 1;  // as DRF counts them: an empty list has one page
    std::int64_t first = 0;  // index of the page's first item
    std::int64_t items = 0;
  };
  Slice slice_of(std::int64_t page, std::int64_t asked, std::int64_t count) const {
    Slice out;
    out.count = count;
    const std::int64_t size = std::min(asked, list_.server_size);
    out.pages = count == 0 ? 1 : (count + size - 1) / size;
    // Saturated: tests ask for pages near the int64 limit.
    out.first = page - 1 > count / size ? count : (page - 1) * size;
    const std::int64_t full = out.first >= count ? 0 : std::min(size, count - out.first);
    out.items = list_.items_on(page, full);
    return out;
  }

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

template <class Studies, class Id>
Walked walk_list(Studies studies, Id id) {
  Walked out;
  try {
    for (const auto& s : studies) {
      out.accessions.push_back(id(s));
      if (out.accessions.size() > 10'000) break;  // bounded whatever the walk believes
    }
  } catch (const mgnify::ListChangedError& e) {
    out.threw = true;
    out.resume_token = e.resume_token();
    out.message = e.what();
  }
  return out;
}

mgnify::ListOptions list_of(int page_size, std::int64_t start_page = 1) {
  mgnify::ListOptions list;
  list.page_size = page_size;
  list.start_page = start_page;
  return list;
}

Walked walk(mgnify::v2::V2Client& client, int page_size, std::int64_t start_page = 1) {
  return walk_list(client.studies({}, list_of(page_size, start_page)),
                   [](const mgnify::v2::Study& s) { return s.accession; });
}

Walked walk(mgnify::v1::LegacyClient& client, int page_size, std::int64_t start_page = 1) {
  return walk_list(client.studies({}, list_of(page_size, start_page)),
                   [](const mgnify::v1::Study& s) { return s.resource.id; });
}

// The ways a v1 page-number walk runs: serially, one page ahead, and with
// later pages' URLs guessed (parallel_pages).
struct V1Mode {
  bool read_ahead;
  std::size_t parallel_pages;
};
const V1Mode kV1Modes[] = {{false, 1}, {true, 1}, {true, 4}};

// A server that clamps the page size: 11 items in pages of 10 asked for in
// pages of 100 is the reported loss (10 of 11); the others clamp to several
// sizes, with totals on and off a page boundary.
struct ClampCase {
  std::int64_t count;
  std::int64_t server_size;
  int requested;
};
const ClampCase kClampCases[] = {{11, 10, 100}, {25, 7, 100}, {30, 10, 50},
                                 {1, 10, 100},  {0, 10, 100}, {250, 25, 100}};

// 25 items, resumed at page 3 in pages of 10. Clamped to 5, page 3 holds
// items 10-14 and has as many items as an unclamped last page: only what
// follows tells the two apart. Clamped to 4, page 3 holds items 8-11.
struct ResumeCase {
  std::int64_t server_size;
  std::int64_t first_item;
};
const ResumeCase kResumeCases[] = {{100, 20}, {5, 10}, {4, 8}};

std::vector<std::string> expected_accessions(std::int64_t count) {
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < count; ++i) out.push_back(accession(i));
  return out;
}

// A list that changes under a walk, and what the walk must report: `message` in
// the error's text, the page to resume at, and the items handed over before it.
struct ListChange {
  std::function<ScriptedList()> list;  // a fresh list (and its state) per walk
  const char* message;
  std::int64_t resume_page;
  std::int64_t items_before;
};

// `count` items in pages of 10, page `page` holding `items` instead.
ScriptedList one_page_off(std::int64_t count, std::int64_t page, std::int64_t items) {
  ScriptedList list;
  list.count = [count] { return count; };
  list.items_on = [page, items](std::int64_t p, std::int64_t full) {
    return p == page ? items : full;
  };
  return list;
}

// Page 3 of 5 comes back with 4 items instead of 10.
const ListChange kShortPage{[] { return one_page_off(50, 3, 4); }, "page 3 held 4 items", 3, 20};
// The first answer says 30, every later one 31: an item was added.
const ListChange kChangingTotal{[] {
                                  auto calls = std::make_shared<std::atomic<int>>(0);
                                  ScriptedList list;
                                  list.count = [calls] { return (*calls)++ == 0 ? 30 : 31; };
                                  return list;
                                },
                                "the total went from 30 to 31", 2, 10};
const ListChange kEmptyPage{[] { return one_page_off(30, 2, 0); }, "page 2 held 0 items", 2, 10};

// The walk failed as `change` says, naming `resume_token`; every item before
// the change came, in order, and nothing after it.
void check_failed(const Walked& got, const ListChange& change, const std::string& resume_token) {
  REQUIRE(got.threw);
  CHECK(got.resume_token == resume_token);
  CHECK(got.message.find(change.message) != std::string::npos);
  CHECK(got.accessions == expected_accessions(change.items_before));
}

}  // namespace

TEST_CASE("walks: a server that clamps the page size still yields every item once",
          "[faults][walks]") {
  for (const ClampCase& c : kClampCases) {
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
    Server server(kShortPage.list());
    auto client = server.client(read_ahead);
    INFO("read-ahead " << read_ahead);
    check_failed(walk(client, 100), kShortPage, std::to_string(kShortPage.resume_page));
  }
}

TEST_CASE("walks: a total that changes mid-walk fails the walk", "[faults][walks]") {
  for (const bool read_ahead : {false, true}) {
    Server server(kChangingTotal.list());
    auto client = server.client(read_ahead);
    INFO("read-ahead " << read_ahead);
    check_failed(walk(client, 10), kChangingTotal, std::to_string(kChangingTotal.resume_page));
  }
}

TEST_CASE("walks: an empty page before the total is reached fails the walk", "[faults][walks]") {
  Server server(kEmptyPage.list());
  auto client = server.client(true);
  check_failed(walk(client, 10), kEmptyPage, std::to_string(kEmptyPage.resume_page));
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

TEST_CASE("walks: an empty page before the total is reached fails a serial walk",
          "[faults][walks]") {
  Server server(kEmptyPage.list());
  auto client = server.client(false);
  check_failed(walk(client, 10), kEmptyPage, std::to_string(kEmptyPage.resume_page));
  CHECK(server.requests() == 2);
}

TEST_CASE("walks: a walk resumed at a short last page ends there, clamped or not",
          "[faults][walks]") {
  for (const ResumeCase c : kResumeCases) {
    for (const bool read_ahead : {false, true}) {
      ScriptedList list;
      list.count = [] { return 25; };
      list.server_size = c.server_size;
      Server server(list);
      auto client = server.client(read_ahead);
      const Walked got = walk(client, 10, 3);
      INFO("server pages of " << c.server_size << ", read-ahead " << read_ahead << ": "
                              << got.message);
      CHECK_FALSE(got.threw);
      const auto all = expected_accessions(25);
      CHECK(got.accessions == std::vector<std::string>(all.begin() + c.first_item, all.end()));
      // Unclamped: page 3 and the empty page 4 that shows it was the last.
      if (c.server_size == 100) CHECK(server.requests() == 2);
    }
  }
}

TEST_CASE("walks: a v1 server that clamps the page size still yields every item once",
          "[faults][walks]") {
  for (const ClampCase& c : kClampCases) {
    for (const V1Mode mode : kV1Modes) {
      ScriptedList list;
      list.count = [n = c.count] { return n; };
      list.server_size = c.server_size;
      Server server(list);
      auto client = server.v1_client(mode.read_ahead, mode.parallel_pages);
      const Walked got = walk(client, c.requested);
      INFO("count " << c.count << ", server pages of " << c.server_size << ", asked " << c.requested
                    << ", read-ahead " << mode.read_ahead << ", parallel_pages "
                    << mode.parallel_pages << ": " << got.message);
      CHECK_FALSE(got.threw);
      CHECK(got.accessions == expected_accessions(c.count));
      // One request per page: guesses beyond the last page are never made.
      const std::int64_t pages = c.count == 0 ? 1 : (c.count + c.server_size - 1) / c.server_size;
      CHECK(server.requests() == pages);
    }
  }
}

TEST_CASE("walks: a v1 page shorter than its neighbours fails the walk, naming where to resume",
          "[faults][walks]") {
  for (const V1Mode mode : kV1Modes) {
    Server server(kShortPage.list());
    auto client = server.v1_client(mode.read_ahead, mode.parallel_pages);
    INFO("read-ahead " << mode.read_ahead << ", parallel_pages " << mode.parallel_pages);
    check_failed(walk(client, 10), kShortPage, server.v1_page_url(kShortPage.resume_page, 10));
  }
}

TEST_CASE("walks: a v1 total that changes mid-walk fails the walk", "[faults][walks]") {
  for (const V1Mode mode : kV1Modes) {
    Server server(kChangingTotal.list());
    auto client = server.v1_client(mode.read_ahead, mode.parallel_pages);
    INFO("read-ahead " << mode.read_ahead << ", parallel_pages " << mode.parallel_pages);
    check_failed(walk(client, 10), kChangingTotal,
                 server.v1_page_url(kChangingTotal.resume_page, 10));
  }
}

TEST_CASE("walks: a v1 empty page before the total is reached fails the walk", "[faults][walks]") {
  for (const V1Mode mode : kV1Modes) {
    Server server(kEmptyPage.list());
    auto client = server.v1_client(mode.read_ahead, mode.parallel_pages);
    INFO("read-ahead " << mode.read_ahead << ", parallel_pages " << mode.parallel_pages);
    check_failed(walk(client, 10), kEmptyPage, server.v1_page_url(kEmptyPage.resume_page, 10));
  }
}

TEST_CASE("walks: a v1 walk resumed at a short last page ends there, clamped or not",
          "[faults][walks]") {
  for (const ResumeCase c : kResumeCases) {
    for (const V1Mode mode : kV1Modes) {
      ScriptedList list;
      list.count = [] { return 25; };
      list.server_size = c.server_size;
      Server server(list);
      auto client = server.v1_client(mode.read_ahead, mode.parallel_pages);
      const Walked got = walk(client, 10, 3);
      INFO("server pages of " << c.server_size << ", read-ahead " << mode.read_ahead
                              << ", parallel_pages " << mode.parallel_pages << ": " << got.message);
      CHECK_FALSE(got.threw);
      const auto all = expected_accessions(25);
      CHECK(got.accessions == std::vector<std::string>(all.begin() + c.first_item, all.end()));
    }
  }
}
