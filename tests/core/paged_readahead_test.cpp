#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/paged.hpp"
#include "support/scripted_pages.hpp"

using mgnify::Page;
using mgnify::Paged;

using mgnify::test::iota_vector;
using mgnify::test::kPatience;

namespace {

using Script = mgnify::test::ScriptedPages;

constexpr const char* kScriptUrl = "https://h/list?page=";

// `count` pages "1".."count" of `per_page` items each, numbered from 1, each
// reporting the total.
std::shared_ptr<Script> scripted(int count, int per_page) {
  return Script::numbered(kScriptUrl, "", count, per_page, Script::Report::total);
}

// v2-style tokens: page numbers, the count known from the first page.
mgnify::detail::PageTokenAt numbered_tokens(int first_page, int per_page) {
  return [first_page, per_page](std::size_t index,
                                const mgnify::PageEnvelope& first) -> std::optional<std::string> {
    const auto page = static_cast<std::int64_t>(first_page) + static_cast<std::int64_t>(index);
    if (!first.total || (page - 1) * per_page >= *first.total) return std::nullopt;
    return std::to_string(page);
  };
}

// A link walk from `first` that reads one page ahead.
mgnify::detail::WalkSpec read_ahead(std::string first,
                                    std::optional<std::size_t> max_items = std::nullopt) {
  mgnify::detail::WalkSpec spec;
  spec.first_token = std::move(first);
  spec.max_items = max_items;
  spec.read_ahead = true;
  return spec;
}

// A counted walk from `first`, `window` pages at once.
mgnify::detail::WalkSpec counted(std::string first, mgnify::detail::PageTokenAt tokens,
                                 std::size_t window,
                                 std::optional<std::size_t> max_items = std::nullopt) {
  mgnify::detail::WalkSpec spec;
  spec.first_token = std::move(first);
  spec.max_items = max_items;
  spec.mode = mgnify::detail::WalkMode::counted;
  spec.token_at = std::move(tokens);
  spec.window = window;
  return spec;
}

// The script's pages walked as `spec` says, fetched without progress reports.
Paged<int> walk(const std::shared_ptr<Script>& script, mgnify::detail::WalkSpec spec) {
  auto fetch = Script::fetcher(script);
  return mgnify::detail::make_walk<int>(
      std::move(spec), [fetch](const std::string& token, const mgnify::detail::PageProgress&) {
        return fetch(token);
      });
}

}  // namespace

TEST_CASE("read-ahead is off for a bare Paged: nothing runs on another thread",
          "[paged][readahead]") {
  auto script = scripted(3, 3);
  Paged<int> list("1", Script::fetcher(script));
  CHECK_FALSE(mgnify::detail::walk_engine(list).parallel());
  auto it = list.begin();
  CHECK(*it == 1);
  CHECK(script->started() == std::vector<std::string>{"1"});
  CHECK(list.pages_in_flight() == 0);
}

TEST_CASE("read-ahead fetches page N+1 while the caller is still on page N", "[paged][readahead]") {
  auto script = scripted(3, 3);
  script->gate("2");
  auto list = walk(script, read_ahead("1"));
  CHECK(mgnify::detail::walk_engine(list).parallel());
  CHECK(script->started().empty());  // still lazy

  auto it = list.begin();
  CHECK(*it == 1);
  // The caller has not moved past item 1, yet page 2's fetch is running (it
  // is held at the gate, so it cannot have been a synchronous fetch).
  REQUIRE(script->wait_started("2"));
  CHECK(list.pages_in_flight() == 1);
  CHECK(list.pages_fetched() == 1);
  CHECK(list.resume_token() == std::optional<std::string>("2"));

  std::vector<int> seen{*it};
  ++it;
  seen.push_back(*it);
  ++it;
  seen.push_back(*it);
  script->open("2");
  for (++it; it != list.end(); ++it) seen.push_back(*it);
  CHECK(seen == iota_vector(1, 9));
  CHECK(script->started() == std::vector<std::string>{"1", "2", "3"});
  CHECK(script->max_running() == 1);  // one page ahead, never more
  CHECK(list.pages_fetched() == 3);
  CHECK(list.pages_in_flight() == 0);
  CHECK_FALSE(list.resume_token().has_value());
}

TEST_CASE("a failing prefetched page is thrown from ++ after the items before it",
          "[paged][readahead]") {
  auto script = scripted(3, 3);
  script->fail("2", 1);
  auto list = walk(script, read_ahead("1"));
  std::vector<int> seen;
  REQUIRE(mgnify::test::walk_until_failure(list, seen) ==
          std::optional<std::string>("https://h/list?page=2"));
  CHECK(seen == iota_vector(1, 3));
  CHECK(list.items_yielded() == 3);
  CHECK(list.pages_fetched() == 1);
  CHECK(list.resume_token() == std::optional<std::string>("2"));
  CHECK(list.pages_in_flight() == 0);

  // Starting again retries the failed page and goes on, each item once.
  for (int v : list) seen.push_back(v);
  CHECK(seen == iota_vector(1, 9));
  CHECK(script->started() == std::vector<std::string>{"1", "2", "2", "3"});
}

TEST_CASE("read-ahead does not fetch pages max_items will never reach", "[paged][readahead]") {
  SECTION("limit on a page boundary") {
    auto script = scripted(3, 3);
    auto list = walk(script, read_ahead("1", 3));
    CHECK(list.collect() == iota_vector(1, 3));
    CHECK(script->started() == std::vector<std::string>{"1"});
    CHECK(list.resume_token() == std::optional<std::string>("2"));
  }
  SECTION("limit inside the next page") {
    auto script = scripted(3, 3);
    auto list = walk(script, read_ahead("1", 4));
    CHECK(list.collect() == iota_vector(1, 4));
    CHECK(script->started() == std::vector<std::string>{"1", "2"});
  }
}

TEST_CASE("read-ahead walks past an empty page and stops on the last page", "[paged][readahead]") {
  auto script = std::make_shared<Script>(kScriptUrl);
  script->add("1", {1, 2}, "2");
  script->add("2", {}, "3");
  script->add("3", {3}, std::nullopt);
  auto list = walk(script, read_ahead("1"));
  CHECK(list.collect() == std::vector<int>{1, 2, 3});
  CHECK(script->started() == std::vector<std::string>{"1", "2", "3"});
}

TEST_CASE("for_each_page overlaps the next fetch with the caller's work on a page",
          "[paged][readahead]") {
  auto script = scripted(4, 2);
  auto list = walk(script, read_ahead("1"));
  std::vector<std::string> urls;
  bool overlapped = true;
  list.for_each_page([&](const Page<int>& page) {
    urls.push_back(page.url);
    // While this page is handled, the next one is already on its way.
    if (page.next) overlapped = overlapped && script->wait_started(*page.next);
  });
  CHECK(overlapped);
  CHECK(urls.size() == 4);
  CHECK(urls.back() == "https://h/list?page=4");
  CHECK(list.items_yielded() == 8);
}

TEST_CASE("destroying a Paged mid-walk waits for the fetch in flight", "[paged][readahead]") {
  auto script = scripted(3, 3);
  script->gate("2");
  {
    auto list = std::make_unique<Paged<int>>(walk(script, read_ahead("1")));
    auto it = list->begin();
    CHECK(*it == 1);
    REQUIRE(script->wait_started("2"));
    std::thread opener([script] { script->open("2"); });
    list.reset();  // returns only once page 2's fetch has finished
    CHECK(script->finished() == 2);
    opener.join();
  }
  // Nothing kept running behind the caller's back.
  CHECK(script->started() == std::vector<std::string>{"1", "2"});
}

TEST_CASE("counted mode fetches up to k pages at once and yields items in order",
          "[paged][counted]") {
  auto script = scripted(10, 5);
  for (int t = 2; t <= 10; ++t) script->gate(std::to_string(t));
  auto list = walk(script, counted("1", numbered_tokens(1, 5), 3));
  CHECK(mgnify::detail::walk_engine(list).parallel());

  auto it = list.begin();
  CHECK(*it == 1);
  // Pages 2, 3 and 4 are all running at the same time; page 5 waits for room.
  REQUIRE(script->wait_running(3));
  CHECK(list.pages_in_flight() == 3);
  auto started = script->started();
  CHECK(started.size() == 4);
  CHECK(std::set<std::string>(started.begin() + 1, started.end()) ==
        std::set<std::string>{"2", "3", "4"});

  // Open the pages in reverse: the order of arrival must not matter.
  for (int t = 10; t >= 2; --t) script->open(std::to_string(t));
  std::vector<int> seen;
  std::size_t max_in_flight = 0;
  for (; it != list.end(); ++it) {
    seen.push_back(*it);
    max_in_flight = std::max(max_in_flight, list.pages_in_flight());
  }
  CHECK(seen == iota_vector(1, 50));
  CHECK(max_in_flight <= 3);
  CHECK(script->max_running() == 3);
  CHECK(script->started().size() == 10);  // every page exactly once
  CHECK(list.pages_fetched() == 10);
  CHECK_FALSE(list.resume_token().has_value());
}

TEST_CASE("counted mode: a failed page is thrown in order and the walk resumes there",
          "[paged][counted]") {
  auto script = scripted(6, 4);
  script->fail("4", 1);
  auto list = walk(script, counted("1", numbered_tokens(1, 4), 4));
  std::vector<int> seen;
  REQUIRE(mgnify::test::walk_until_failure(list, seen) ==
          std::optional<std::string>("https://h/list?page=4"));
  CHECK(seen == iota_vector(1, 12));  // pages 1-3, even though 5 and 6 may have arrived
  CHECK(list.resume_token() == std::optional<std::string>("4"));
  CHECK(list.pages_fetched() == 3);
  CHECK(list.pages_in_flight() == 0);

  for (int v : list) seen.push_back(v);
  CHECK(seen == iota_vector(1, 24));
  const auto started = script->started();
  CHECK(std::count(started.begin(), started.end(), "4") == 2);
  CHECK(std::count(started.begin(), started.end(), "1") == 1);
}

TEST_CASE("counted mode respects max_items, the empty page rule and a failing first page",
          "[paged][counted]") {
  SECTION("max_items: no page beyond the limit is requested") {
    auto script = scripted(10, 5);
    auto list = walk(script, counted("1", numbered_tokens(1, 5), 8, 12));
    CHECK(list.collect() == iota_vector(1, 12));
    auto started = script->started();
    std::sort(started.begin(), started.end());
    CHECK(started == std::vector<std::string>{"1", "2", "3"});
  }
  SECTION("an empty page ends the walk") {
    auto script = std::make_shared<Script>(kScriptUrl);
    script->add("1", {1, 2}, "2", 6);
    script->add("2", {}, "3", 6);
    script->add("3", {5, 6}, std::nullopt, 6);
    auto list = walk(script, counted("1", numbered_tokens(1, 2), 2));
    CHECK(list.collect() == std::vector<int>{1, 2});
  }
  SECTION("a failing first page leaves the first token and can be retried") {
    auto script = scripted(3, 2);
    script->fail("1", 1);
    auto list = walk(script, counted("1", numbered_tokens(1, 2), 2));
    CHECK_THROWS_AS(list.begin(), mgnify::ServerError);
    CHECK(list.resume_token() == std::optional<std::string>("1"));
    CHECK(list.collect() == iota_vector(1, 6));
  }
  SECTION("starting from a later page (a resume token)") {
    auto script = scripted(5, 2);
    auto list = walk(script, counted("3", numbered_tokens(3, 2), 2));
    CHECK(list.collect() == iota_vector(5, 10));
  }
  SECTION("total() reports the count before the walk") {
    auto script = scripted(4, 2);
    auto list = walk(script, counted("1", numbered_tokens(1, 2), 2));
    CHECK(list.total() == std::optional<std::int64_t>(8));
    CHECK(list.collect().size() == 8);
  }
}

TEST_CASE("counted mode rejects bad settings before any request", "[paged][counted]") {
  auto script = scripted(2, 2);
  CHECK_THROWS_AS(walk(script, counted("1", numbered_tokens(1, 2), 0)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(walk(script, counted("1", {}, 2)), mgnify::InvalidArgument);
  CHECK(script->started().empty());
}
