// Paged's parallel modes: predicted tokens checked against each page's own
// next token (v1 page-number lists), staged fetches that announce their
// envelope before decoding, and the bound on pages held ahead of the caller.

#include <algorithm>
#include <atomic>
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
using mgnify::detail::PageProgress;

using mgnify::test::iota_vector;
using mgnify::test::kPatience;

namespace {

using List = mgnify::test::ScriptedPages;

constexpr const char* kListUrl = "https://h/";

// Pages "p1".."p<count>" of `per_page` consecutive numbers from 1, each with its page number.
std::shared_ptr<List> listed(int count, int per_page) {
  return List::numbered(kListUrl, "p", count, per_page, List::Report::page_number);
}

// Guesses "p<i+1>" for page i, like the v1 client rewriting `page` in links.next.
mgnify::detail::PageTokenAt guess_p(int pages) {
  return [pages](std::size_t index, const mgnify::PageEnvelope&) -> std::optional<std::string> {
    if (static_cast<int>(index) + 1 > pages) return std::nullopt;
    return "p" + std::to_string(index + 1);
  };
}
// The page must say it is the page the guess meant.
bool page_number_matches(std::size_t index, const mgnify::PageEnvelope& page,
                         const mgnify::PageEnvelope&) {
  return page.page == static_cast<std::int64_t>(index) + 1;
}

// A walk from "p1" in `mode`, `window` pages at once.
mgnify::detail::WalkSpec spec_of(mgnify::detail::WalkMode mode, mgnify::detail::PageTokenAt tokens,
                                 std::size_t window, mgnify::detail::PageCheck check = {}) {
  mgnify::detail::WalkSpec spec;
  spec.first_token = "p1";
  spec.mode = mode;
  spec.token_at = std::move(tokens);
  spec.window = window;
  spec.check = std::move(check);
  return spec;
}

mgnify::detail::WalkSpec predicted(mgnify::detail::PageTokenAt guess, std::size_t window,
                                   mgnify::detail::PageCheck check = {}) {
  return spec_of(mgnify::detail::WalkMode::predicted, std::move(guess), window, std::move(check));
}

// A link walk from "p1" that reads `window` pages ahead.
mgnify::detail::WalkSpec read_ahead(std::size_t window) {
  mgnify::detail::WalkSpec spec;
  spec.first_token = "p1";
  spec.read_ahead = true;
  spec.window = window;
  return spec;
}

Paged<int> walk_list(const std::shared_ptr<List>& list, mgnify::detail::WalkSpec spec) {
  return mgnify::detail::make_walk<int>(std::move(spec), List::staged_fetcher(list));
}

}  // namespace

TEST_CASE("predicted mode: k guessed pages in flight, items in order, each page fetched once",
          "[paged][predicted]") {
  auto list = listed(12, 4);
  auto spec = predicted(guess_p(12), 3, page_number_matches);
  spec.read_ahead = true;
  auto paged = walk_list(list, std::move(spec));
  CHECK(mgnify::detail::walk_engine(paged).predicting_now());
  std::vector<int> seen;
  std::size_t most_ahead = 0;
  for (int v : paged) {
    seen.push_back(v);
    most_ahead = std::max(most_ahead, paged.pages_in_flight());
  }
  CHECK(seen == iota_vector(1, 48));
  CHECK(mgnify::detail::walk_engine(paged).predicting_now());  // every guess was right
  CHECK(paged.pages_fetched() == 12);
  CHECK(most_ahead <= 3);
  auto started = list->started();
  CHECK(started.size() == 12);
  CHECK(std::set<std::string>(started.begin(), started.end()).size() == 12);
  CHECK_FALSE(paged.resume_token().has_value());
}

TEST_CASE("predicted mode: the following pages are requested before page 1 is decoded",
          "[paged][predicted]") {
  auto list = listed(6, 2);
  list->gate("p1");
  auto paged = walk_list(list, predicted(guess_p(6), 2));
  std::thread walker([&] { paged.begin(); });
  // Page 1 is held after announcing its envelope; pages 2 and 3 already left.
  CHECK(list->wait_started("p2"));
  CHECK(list->wait_started("p3"));
  list->open("p1");
  walker.join();
  CHECK(paged.collect() == iota_vector(1, 12));
}

TEST_CASE("predicted mode: a guess that is not the previous page's next link falls back to links",
          "[paged][predicted]") {
  // The service switches scheme after page 3: its links.next names q4, not p4.
  auto list = std::make_shared<List>(kListUrl);
  list->add("p1", {1, 2}, "p2", std::nullopt, 1);
  list->add("p2", {3, 4}, "p3", std::nullopt, 2);
  list->add("p3", {5, 6}, "q4", std::nullopt, 3);
  list->add("q4", {7, 8}, "q5", std::nullopt, 4);
  list->add("q5", {9}, std::nullopt, std::nullopt, 5);
  // What the guesses fetch instead: never to be yielded.
  list->add("p4", {-1, -1}, "p5", std::nullopt, 4);
  list->add("p5", {-2}, std::nullopt, std::nullopt, 5);
  auto paged = walk_list(list, predicted(guess_p(5), 4, page_number_matches));
  CHECK(paged.collect() == iota_vector(1, 9));
  CHECK_FALSE(mgnify::detail::walk_engine(paged).predicting_now());
  CHECK(paged.pages_fetched() == 5);
  for (const char* t : {"p1", "p2", "p3", "q4", "q5"}) CHECK(list->count(t) == 1);
  // Wasted guesses stay within the window.
  CHECK(list->count("p4") + list->count("p5") <= 2);
  CHECK(list->started().size() <= 7);
}

TEST_CASE("predicted mode: a page whose meta disagrees with the guess is fetched again serially",
          "[paged][predicted]") {
  auto list = listed(5, 2);
  list->add("p3", {5, 6}, "p4", std::nullopt, 7);  // says it is page 7
  auto paged = walk_list(list, predicted(guess_p(5), 3, page_number_matches));
  CHECK(paged.collect() == iota_vector(1, 10));
  CHECK_FALSE(mgnify::detail::walk_engine(paged).predicting_now());
  // p3 once as a guess, once from p2's link; p4 and p5 perhaps as guesses too.
  CHECK(list->count("p3") == 2);
  for (const char* t : {"p1", "p2"}) CHECK(list->count(t) == 1);
  for (const char* t : {"p4", "p5"}) CHECK(list->count(t) >= 1);
  for (const char* t : {"p4", "p5"}) CHECK(list->count(t) <= 2);
}

TEST_CASE("predicted mode: a failed page surfaces after the items before it and the walk resumes",
          "[paged][predicted]") {
  auto list = listed(6, 3);
  list->fail("p4", 1);
  auto paged = walk_list(list, predicted(guess_p(6), 4, page_number_matches));
  std::vector<int> seen;
  REQUIRE(mgnify::test::walk_until_failure(paged, seen) ==
          std::optional<std::string>("https://h/p4"));
  CHECK(seen == iota_vector(1, 9));  // pages 1-3, even if 5 and 6 arrived
  CHECK(paged.resume_token() == std::optional<std::string>("p4"));
  CHECK(paged.pages_in_flight() == 0);
  for (int v : paged) seen.push_back(v);
  CHECK(seen == iota_vector(1, 18));
  CHECK(mgnify::detail::walk_engine(paged).predicting_now());  // a failure is not a wrong guess
  CHECK(list->count("p4") == 2);
  CHECK(list->count("p1") == 1);
}

TEST_CASE("predicted mode without a usable guess walks the links", "[paged][predicted]") {
  auto list = listed(4, 2);
  auto paged = walk_list(
      list, predicted([](std::size_t,
                         const mgnify::PageEnvelope&) { return std::optional<std::string>(); },
                      3));
  CHECK(paged.collect() == iota_vector(1, 8));
  CHECK(list->started() == std::vector<std::string>{"p1", "p2", "p3", "p4"});
}

TEST_CASE("link mode: page N+1 is requested as soon as page N's envelope is read",
          "[paged][readahead]") {
  auto list = listed(5, 2);
  list->gate("p2");
  auto paged = walk_list(list, read_ahead(2));
  auto it = paged.begin();
  CHECK(*it == 1);
  // Page 2 is held after announcing its envelope (while it would be decoded),
  // yet page 3, named there, is already requested; page 4 is not: the caller
  // is on page 1 and two pages ahead is the window.
  REQUIRE(list->wait_started("p3"));
  REQUIRE(list->wait_blocked(1));
  CHECK(list->count("p4") == 0);
  CHECK(paged.pages_in_flight() == 2);
  list->open("p2");
  std::vector<int> seen{*it};
  for (++it; it != paged.end(); ++it) seen.push_back(*it);
  CHECK(seen == iota_vector(1, 10));
  CHECK(list->started() == std::vector<std::string>{"p1", "p2", "p3", "p4", "p5"});
}

TEST_CASE("one-page read-ahead requests page N+1 only once page N is decoded",
          "[paged][readahead]") {
  // A second request during the decoding would need a second thread, whose
  // allocator arena was measured to keep about two pages more memory.
  auto list = listed(3, 2);
  list->gate("p2");
  auto paged = walk_list(list, read_ahead(1));
  std::vector<int> seen;
  std::thread walker([&] {
    for (int v : paged) seen.push_back(v);
  });
  // The caller waits for page 2, which is "decoding" with its envelope out.
  REQUIRE(list->wait_blocked(1));
  CHECK(list->count("p3") == 0);
  list->open("p2");
  walker.join();
  CHECK(seen == iota_vector(1, 6));
  CHECK(list->started() == std::vector<std::string>{"p1", "p2", "p3"});
}

TEST_CASE("a page whose response is in frees its request slot, not its page slot",
          "[paged][counted]") {
  auto list = listed(8, 1);
  for (int t = 2; t <= 8; ++t) list->gate("p" + std::to_string(t));
  auto paged = walk_list(list, spec_of(mgnify::detail::WalkMode::counted, guess_p(8), 2));
  std::thread walker([&] {
    auto it = paged.begin();
    ++it;  // waits for page 2
  });
  // Pages 2 and 3 were received and are "decoding", so two more requests
  // could leave, but only one page more than k may be held while the caller
  // waits: page 4 starts, page 5 does not.
  REQUIRE(list->wait_started("p4"));
  // Page 2 cannot be handed over while gated, so nothing frees a page slot.
  CHECK(list->count("p5") == 0);
  CHECK(paged.pages_in_flight() == 3);
  for (int t = 2; t <= 8; ++t) list->open("p" + std::to_string(t));
  walker.join();
  std::vector<int> rest;
  for (int v : paged) rest.push_back(v);
  CHECK(rest == iota_vector(2, 8));
}

namespace {
std::atomic<long> g_alive{0};
std::atomic<long> g_most_alive{0};
struct Tracked {
  int value = 0;
  explicit Tracked(int v) : value(v) { bump(); }
  Tracked(const Tracked& o) : value(o.value) { bump(); }
  Tracked(Tracked&& o) noexcept : value(o.value) { bump(); }
  Tracked& operator=(const Tracked&) = default;
  Tracked& operator=(Tracked&&) = default;
  ~Tracked() { --g_alive; }
  static void bump() {
    const long now = ++g_alive;
    long most = g_most_alive.load();
    while (now > most && !g_most_alive.compare_exchange_weak(most, now)) {
    }
  }
};
}  // namespace

TEST_CASE("memory stays bounded by the pages in flight", "[paged][counted][predicted]") {
  constexpr int kPages = 30;
  constexpr long kPerPage = 50;
  constexpr std::size_t kWindow = 3;
  const bool predicted = GENERATE(false, true);
  g_alive = 0;
  g_most_alive = 0;
  {
    mgnify::detail::StagedPageFetcher<Tracked> fetch = [](const std::string& token,
                                                          const PageProgress& progress) {
      const int n = std::stoi(token.substr(1));
      Page<Tracked> page;
      page.items.reserve(kPerPage);
      for (long k = 0; k < kPerPage; ++k)
        page.items.emplace_back(static_cast<int>((n - 1) * kPerPage + k));
      if (n < kPages) page.next = "p" + std::to_string(n + 1);
      page.total = kPages * kPerPage;
      page.page = n;
      progress.received();
      return page;
    };
    auto guess = [](std::size_t index, const mgnify::PageEnvelope&) -> std::optional<std::string> {
      if (index >= static_cast<std::size_t>(kPages)) return std::nullopt;
      return "p" + std::to_string(index + 1);
    };
    auto paged = mgnify::detail::make_walk<Tracked>(
        spec_of(predicted ? mgnify::detail::WalkMode::predicted : mgnify::detail::WalkMode::counted,
                guess, kWindow),
        fetch);
    long expected = 0;
    for (const auto& t : paged) {
      REQUIRE(t.value == expected);
      ++expected;
      // A slow caller lets the fetches fill every place they may take.
      if (t.value % kPerPage == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK(expected == kPages * kPerPage);
  }
  CHECK(g_alive == 0);
  // The page being read plus `window` pages ahead (while the caller waits, its
  // finished page is released before another is fetched in its place).
  CHECK(g_most_alive <= static_cast<long>(kWindow + 1) * kPerPage);
}

TEST_CASE("the engine rejects a read-ahead or prediction window of 0", "[paged][predicted]") {
  auto list = listed(2, 2);
  CHECK_THROWS_AS(walk_list(list, read_ahead(0)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(walk_list(list, predicted(guess_p(2), 0)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(walk_list(list, predicted({}, 2)), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Paged<int>("p1", mgnify::PageFetcher<int>()), mgnify::InvalidArgument);
  CHECK_THROWS_AS(mgnify::detail::make_walk<int>("p1", mgnify::detail::StagedPageFetcher<int>()),
                  mgnify::InvalidArgument);
  CHECK(list->started().empty());
}
