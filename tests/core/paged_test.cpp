#include "mgnify/paged.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"

using mgnify::Page;
using mgnify::Paged;

namespace {

// A scripted list: token -> page, with every fetch recorded. A token listed
// in `failing` throws (once, or always).
struct Pages {
  std::map<std::string, Page<int>> pages;
  std::vector<std::string> fetched;
  std::map<std::string, int> failing;  // token -> failures left (-1: forever)

  void add(const std::string& token, std::vector<int> items, std::optional<std::string> next,
           std::optional<std::int64_t> total = std::nullopt) {
    Page<int> p;
    p.items = std::move(items);
    p.next = std::move(next);
    p.total = total;
    p.url = "https://h/list?page=" + token;
    p.page = std::stoll(token);
    pages[token] = std::move(p);
  }

  mgnify::PageFetcher<int> fetcher() {
    return [this](const std::string& token) {
      fetched.push_back(token);
      if (auto it = failing.find(token); it != failing.end() && it->second != 0) {
        if (it->second > 0) --it->second;
        mgnify::ApiErrorInfo info;
        info.status = 503;
        info.method = "GET";
        info.url = "https://h/list?page=" + token;
        throw mgnify::ServerError(info);
      }
      return pages.at(token);
    };
  }
};

Pages three_pages() {
  Pages p;
  p.add("1", {1, 2, 3}, "2", 8);
  p.add("2", {4, 5, 6}, "3", 8);
  p.add("3", {7, 8}, std::nullopt, 8);
  return p;
}

}  // namespace

TEST_CASE("nothing is fetched before the walk starts", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  CHECK(pages.fetched.empty());
  CHECK(list.pages_fetched() == 0);
  CHECK(list.items_yielded() == 0);
  CHECK(list.resume_token() == std::optional<std::string>("1"));
  auto it = list.begin();
  CHECK(pages.fetched == std::vector<std::string>{"1"});
  CHECK(*it == 1);
}

TEST_CASE("items come across pages in order, each page fetched once", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  std::vector<int> seen;
  for (int v : list) seen.push_back(v);
  CHECK(seen == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(pages.fetched == std::vector<std::string>{"1", "2", "3"});
  CHECK(list.pages_fetched() == 3);
  CHECK(list.items_yielded() == 8);
  CHECK_FALSE(list.resume_token().has_value());
  // Single pass: a second walk yields nothing and fetches nothing.
  CHECK(list.begin() == list.end());
  CHECK(pages.fetched.size() == 3);
}

TEST_CASE("max_items stops the walk without fetching further pages", "[paged]") {
  SECTION("inside a page") {
    auto pages = three_pages();
    Paged<int> list("1", pages.fetcher(), 5);
    CHECK(list.collect() == std::vector<int>{1, 2, 3, 4, 5});
    CHECK(pages.fetched == std::vector<std::string>{"1", "2"});
  }
  SECTION("on a page boundary") {
    auto pages = three_pages();
    Paged<int> list("1", pages.fetcher(), 3);
    CHECK(list.collect() == std::vector<int>{1, 2, 3});
    CHECK(pages.fetched == std::vector<std::string>{"1"});
    CHECK(list.resume_token() == std::optional<std::string>("2"));
  }
  SECTION("zero fetches nothing") {
    auto pages = three_pages();
    Paged<int> list("1", pages.fetcher(), 0);
    CHECK(list.collect().empty());
    CHECK(pages.fetched.empty());
  }
  SECTION("more than the list holds") {
    auto pages = three_pages();
    Paged<int> list("1", pages.fetcher(), 100);
    CHECK(list.collect().size() == 8);
  }
}

TEST_CASE("a link walk ends only where no next page is named", "[paged]") {
  SECTION("an empty page in the middle is walked past") {
    Pages pages;
    pages.add("1", {1, 2}, "2");
    pages.add("2", {}, "3");
    pages.add("3", {3}, std::nullopt);
    Paged<int> list("1", pages.fetcher());
    CHECK(list.collect() == std::vector<int>{1, 2, 3});
    CHECK(pages.fetched == std::vector<std::string>{"1", "2", "3"});
  }
  SECTION("an empty first page naming a next page") {
    Pages pages;
    pages.add("1", {}, "2", 1);
    pages.add("2", {7}, std::nullopt, 1);
    Paged<int> list("1", pages.fetcher());
    CHECK(list.collect() == std::vector<int>{7});
    CHECK(pages.fetched == std::vector<std::string>{"1", "2"});
  }
  SECTION("an empty last page") {
    Pages pages;
    pages.add("1", {}, std::nullopt, 0);
    Paged<int> list("1", pages.fetcher());
    CHECK(list.begin() == list.end());
    CHECK(list.total() == std::optional<std::int64_t>(0));
    CHECK(pages.fetched == std::vector<std::string>{"1"});
  }
}

TEST_CASE("a link walk that leads back to a page it read throws instead of looping", "[paged]") {
  for (const bool read_ahead : {false, true}) {
    Pages pages;
    pages.add("1", {1, 2}, "2");
    pages.add("2", {}, "3");
    pages.add("3", {3}, "2");
    mgnify::detail::WalkSpec spec;
    spec.first_token = "1";
    spec.read_ahead = read_ahead;
    auto fetch = pages.fetcher();
    auto list = mgnify::detail::make_walk<int>(
        std::move(spec), [fetch](const std::string& token, const mgnify::detail::PageProgress&) {
          return fetch(token);
        });
    std::vector<int> seen;
    bool threw = false;
    try {
      for (int v : list) seen.push_back(v);
    } catch (const mgnify::ListChangedError& e) {
      threw = true;
      CHECK(e.resume_token() == "2");
    }
    INFO("read-ahead " << read_ahead);
    CHECK(threw);
    CHECK(seen == std::vector<int>{1, 2, 3});
  }
}

TEST_CASE("a failure mid-walk is thrown from ++ after the earlier items, and resume works",
          "[paged]") {
  auto pages = three_pages();
  pages.failing["2"] = 1;
  Paged<int> list("1", pages.fetcher());
  std::vector<int> seen;
  auto it = list.begin();
  bool threw = false;
  try {
    for (; it != list.end(); ++it) seen.push_back(*it);
  } catch (const mgnify::ServerError& e) {
    threw = true;
    CHECK(e.url() == "https://h/list?page=2");
  }
  CHECK(threw);
  CHECK(seen == std::vector<int>{1, 2, 3});
  CHECK(list.items_yielded() == 3);
  CHECK(list.pages_fetched() == 1);
  // The failed page is the one to resume from.
  CHECK(list.resume_token() == std::optional<std::string>("2"));

  // Starting again on the same range retries the failed page and goes on.
  for (int v : list) seen.push_back(v);
  CHECK(seen == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(pages.fetched == std::vector<std::string>{"1", "2", "2", "3"});

  // Or a fresh range from the resume token.
  auto again = three_pages();
  Paged<int> resumed("2", again.fetcher());
  CHECK(resumed.collect() == std::vector<int>{4, 5, 6, 7, 8});
}

TEST_CASE("++ again after a failed fetch retries that page without counting an item", "[paged]") {
  auto pages = three_pages();
  pages.failing["2"] = 2;
  Paged<int> list("1", pages.fetcher(), 5);
  auto it = list.begin();
  std::vector<int> seen{*it};
  ++it;
  seen.push_back(*it);
  ++it;
  seen.push_back(*it);
  CHECK_THROWS_AS(++it, mgnify::ServerError);
  CHECK_THROWS_AS(++it, mgnify::ServerError);
  CHECK(list.items_yielded() == 3);
  ++it;  // third try succeeds
  for (; it != list.end(); ++it) seen.push_back(*it);
  // max_items = 5 still counts only real items.
  CHECK(seen == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(list.items_yielded() == 5);
  CHECK(pages.fetched == std::vector<std::string>{"1", "2", "2", "2"});
}

TEST_CASE("a failing first page is thrown from begin() and leaves the first token", "[paged]") {
  auto pages = three_pages();
  pages.failing["1"] = 1;
  Paged<int> list("1", pages.fetcher());
  CHECK_THROWS_AS(list.begin(), mgnify::ServerError);
  CHECK(list.resume_token() == std::optional<std::string>("1"));
  CHECK(list.pages_fetched() == 0);
  CHECK(list.collect() == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("total() fetches the first page once and reports the service's count", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  CHECK(list.total() == std::optional<std::int64_t>(8));
  CHECK(list.total() == std::optional<std::int64_t>(8));
  CHECK(pages.fetched == std::vector<std::string>{"1"});
  CHECK(list.collect().size() == 8);
  CHECK(pages.fetched == std::vector<std::string>{"1", "2", "3"});

  Pages unknown;
  unknown.add("1", {1}, std::nullopt);
  Paged<int> no_total("1", unknown.fetcher());
  CHECK_FALSE(no_total.total().has_value());
}

TEST_CASE("current_page() exposes the page being walked, with its URL and envelope", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  CHECK(list.current_page().url == "https://h/list?page=1");
  auto it = list.begin();
  for (int i = 0; i < 3; ++i) ++it;
  CHECK(*it == 4);
  CHECK(list.current_page().url == "https://h/list?page=2");
  CHECK(list.current_page().page == 2);
  CHECK(list.current_page().next == std::optional<std::string>("3"));
}

TEST_CASE("for_each_page walks whole pages and honours max_items", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  std::vector<std::size_t> sizes;
  list.for_each_page([&](const Page<int>& p) { sizes.push_back(p.items.size()); });
  CHECK(sizes == std::vector<std::size_t>{3, 3, 2});
  CHECK(list.items_yielded() == 8);

  auto limited_pages = three_pages();
  Paged<int> limited("1", limited_pages.fetcher(), 4);
  std::vector<std::string> urls;
  limited.for_each_page([&](const Page<int>& p) { urls.push_back(p.url); });
  CHECK(urls == std::vector<std::string>{"https://h/list?page=1", "https://h/list?page=2"});
  CHECK(limited_pages.fetched == std::vector<std::string>{"1", "2"});
}

TEST_CASE("the iterator works with the standard algorithms it promises", "[paged]") {
  auto pages = three_pages();
  Paged<int> list("1", pages.fetcher());
  static_assert(std::is_same_v<std::iterator_traits<Paged<int>::iterator>::iterator_category,
                               std::input_iterator_tag>);
  int sum = 0;
  for (auto it = list.begin(); it != list.end(); it++) sum += *it;
  CHECK(sum == 36);
}
