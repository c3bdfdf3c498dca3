#pragma once

// Paged<T>: one lazy, single-pass range over any paginated MGnify list. The
// clients only supply "fetch the page named by this token" (a links.next URL
// for v1, a page number for v2); walking, stopping, limits, resumption and
// read-ahead are written once, here.
//
// Read-ahead: while the caller consumes page N, page N+1 is fetched on a
// background thread (std::async). A walk over a high-latency service then
// costs max(fetch, consume) per page instead of fetch + consume. It is off for
// a bare Paged, because a fetch function handed in by a caller need not be
// thread-safe; the clients switch it on (ClientOptions::read_ahead) since
// their fetchers only use the thread-safe Session.
//
// Counted mode: when the first page tells how many pages follow (v2's
// `count`), the token of every page is known up front, so up to k pages can be
// in flight at once. Items still come out in list order.
//
// Memory is bounded by the pages in flight: the current page plus at most one
// (read-ahead) or k (counted mode) more.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

/// One page as the service sent it.
template <class T>
struct Page {
  std::vector<T> items;
  /// Token of the following page (absent on the last page).
  std::optional<std::string> next;
  /// Total number of items in the list, when the service says.
  std::optional<std::int64_t> total;
  /// The envelope's links/meta as sent, for callers who need them.
  nlohmann::json meta;
  /// The URL this page came from.
  std::string url;
};

template <class T>
using PageFetcher = std::function<Page<T>(const std::string& token)>;

/// Counted mode: the token of the page at `page_index` (0 is the first page of
/// the walk), or nullopt when the list has no such page. `first` is the first
/// page's envelope (total, meta, url, next); its items are not kept for this.
template <class T>
using PageTokenAt =
    std::function<std::optional<std::string>(std::size_t page_index, const Page<T>& first)>;

template <class T>
class Paged {
  struct InFlight {
    std::string token;
    std::size_t page_index = 0;
    std::future<Page<T>> page;
  };

  struct State {
    // Futures from std::async join their thread when destroyed, so a State
    // dropped mid-walk waits for the fetches in flight (at most one request
    // each, bounded by the request timeout) and leaks nothing.
    ~State() { drop_ahead(); }

    std::shared_ptr<const PageFetcher<T>> fetch;
    std::optional<std::string> next_token;  // page still to fetch; nullopt when exhausted
    std::optional<std::size_t> max_items;
    Page<T> current;
    std::size_t index = 0;
    std::size_t yielded = 0;
    std::size_t pages_fetched = 0;
    std::optional<std::int64_t> total;
    bool started = false;
    bool done = false;

    bool read_ahead = false;
    PageTokenAt<T> token_at;          // counted mode when set
    std::size_t parallel_pages = 1;   // counted mode: pages in flight
    std::size_t next_index = 0;       // page index that next_token names
    std::size_t first_page_items = 0; // counted mode: items per full page
    Page<T> first_envelope;           // counted mode: the first page minus its items
    std::deque<InFlight> ahead;       // fetches in flight, in list order

    bool counted() const noexcept { return static_cast<bool>(token_at); }

    void launch(std::string token, std::size_t page_index) {
      auto fetcher = fetch;  // the thread keeps the fetch function alive
      InFlight f;
      f.token = token;
      f.page_index = page_index;
      // launch::async | deferred: if no thread can be started the fetch runs
      // when its page is needed, so read-ahead degrades to a plain walk.
      f.page = std::async(std::launch::async | std::launch::deferred,
                          [fetcher, token = std::move(token)] { return (*fetcher)(token); });
      ahead.push_back(std::move(f));
    }

    // Destroying an async future joins its thread; a deferred one (no thread
    // could be started) is dropped without running.
    void drop_ahead() noexcept { ahead.clear(); }

    // Would the caller stop before an item that follows `items_before` others?
    bool limit_reached_before(std::size_t items_before) const noexcept {
      return max_items && items_before >= *max_items;
    }

    // Starts the fetches the caller will need next, as far as the mode allows.
    void top_up() {
      if (done || current.items.empty()) return;
      if (counted()) {
        while (ahead.size() < parallel_pages) {
          const std::size_t i = next_index + ahead.size();
          if (limit_reached_before(i * first_page_items)) return;
          auto token = ahead.empty() && next_index == i ? next_token : token_at(i, first_envelope);
          if (!token) return;
          launch(std::move(*token), i);
        }
        return;
      }
      if (read_ahead && ahead.empty() && next_token &&
          !limit_reached_before(yielded + current.items.size())) {
        launch(*next_token, next_index);
      }
    }

    Page<T> next_page() {
      // After a failure in counted mode, the window restarts at the failed page.
      if (ahead.empty() && counted() && pages_fetched > 0) top_up();
      if (ahead.empty()) return (*fetch)(*next_token);
      InFlight f = std::move(ahead.front());
      ahead.pop_front();
      try {
        return f.page.get();
      } catch (...) {
        // next_token still names the failed page; pages fetched after it are
        // dropped so that a retry starts cleanly from there.
        drop_ahead();
        throw;
      }
    }

    // Fetches pages until one has an item to show (or the list ends). On
    // failure the token stays in next_token, so resume_token() names the page to retry.
    void fill() {
      while (!done && index >= current.items.size()) {
        if (!next_token) {
          done = true;
          return;
        }
        Page<T> page = next_page();
        ++pages_fetched;
        if (page.total) total = page.total;
        const bool empty = page.items.empty();
        const std::size_t this_index = next_index++;
        if (counted()) {
          if (this_index == 0) {
            first_page_items = page.items.size();
            first_envelope.next = page.next;
            first_envelope.total = page.total;
            first_envelope.meta = page.meta;
            first_envelope.url = page.url;
          }
          next_token = ahead.empty() ? token_at(next_index, first_envelope) : ahead.front().token;
        } else {
          next_token = page.next;  // copied: current_page().next must still name it
        }
        current = std::move(page);
        index = 0;
        // An empty page ends the walk even if it names a next page: that is how
        // v2 signals "past the end", and it bounds a server that loops.
        if (empty) {
          done = true;
          drop_ahead();
          return;
        }
        top_up();
      }
    }
    // Also the way back in after a failed fetch: fill() retries the page
    // named by next_token (it does nothing while the current page has items).
    void start() {
      if (!started) {
        started = true;
        if (max_items && *max_items == 0) {
          done = true;
          return;
        }
      }
      fill();
    }
    void advance() {
      // After a failed fetch the current page is already used up: a second ++
      // is a retry of that fetch, not another item.
      if (index < current.items.size()) {
        ++index;
        ++yielded;
      }
      if (max_items && yielded >= *max_items) {
        done = true;
        return;
      }
      fill();
    }
  };

 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    iterator() = default;
    reference operator*() const { return state_->current.items[state_->index]; }
    pointer operator->() const { return &**this; }
    /// May fetch (or wait for) the next page; a failure is thrown from here,
    /// after every item before it was yielded.
    iterator& operator++() {
      state_->advance();
      return *this;
    }
    void operator++(int) { ++*this; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_end() == b.at_end(); }
    friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

   private:
    friend class Paged;
    explicit iterator(State* state) : state_(state) {}
    bool at_end() const { return state_ == nullptr || state_->done; }
    State* state_ = nullptr;
  };

  /// Nothing is fetched until begin(), total() or pages are first asked for.
  Paged(std::string first_token, PageFetcher<T> fetch,
        std::optional<std::size_t> max_items = std::nullopt)
      : state_(std::make_unique<State>()) {
    state_->fetch = std::make_shared<const PageFetcher<T>>(std::move(fetch));
    state_->next_token = std::move(first_token);
    state_->max_items = max_items;
  }

  /// Fetch page N+1 in the background while page N is consumed. The fetch
  /// function must then be safe to call from another thread. Takes effect
  /// from the next page on; switching it off lets a fetch in flight finish.
  void set_read_ahead(bool on) noexcept { state_->read_ahead = on; }
  bool read_ahead() const noexcept { return state_->read_ahead || state_->counted(); }

  /// Counted mode: once the first page is in, up to `parallel_pages` pages are
  /// fetched at once, tokens from `token_at`, and items still come in order.
  /// Call before the walk starts. The fetch function must be thread-safe.
  void set_counted(PageTokenAt<T> token_at, std::size_t parallel_pages) {
    if (!token_at) throw InvalidArgument("counted mode needs a token function");
    if (parallel_pages == 0) throw InvalidArgument("parallel_pages must be at least 1");
    if (state_->started) throw InvalidArgument("counted mode must be chosen before the walk starts");
    state_->token_at = std::move(token_at);
    state_->parallel_pages = parallel_pages;
  }
  /// Pages being fetched ahead of the caller right now.
  std::size_t pages_in_flight() const noexcept { return state_->ahead.size(); }

  /// Starts (or continues: the range is single-pass) the walk. After a page
  /// failed to load, calling begin() again retries that page.
  iterator begin() {
    state_->start();
    return iterator(state_.get());
  }
  iterator end() { return iterator(); }

  /// Total items in the list as reported by the service (fetches the first
  /// page if nothing was fetched yet). Unknown for lists that do not say.
  std::optional<std::int64_t> total() {
    state_->start();
    return state_->total;
  }

  /// The token of the page that would be fetched next: after a failure, the
  /// page that failed. Pass it to the client's resume call to continue a walk.
  const std::optional<std::string>& resume_token() const noexcept { return state_->next_token; }

  std::size_t pages_fetched() const noexcept { return state_->pages_fetched; }
  std::size_t items_yielded() const noexcept { return state_->yielded; }

  /// The page whose items are being yielded now (links and meta included).
  const Page<T>& current_page() {
    state_->start();
    return state_->current;
  }

  /// Walks page by page instead of item by item: fn(page) for each page, the
  /// current one first. Use either this or item iteration on one Paged.
  template <class Fn>
  void for_each_page(Fn fn) {
    state_->start();
    while (!state_->done) {
      fn(static_cast<const Page<T>&>(state_->current));
      state_->index = state_->current.items.size();
      state_->yielded += state_->current.items.size();
      if (state_->max_items && state_->yielded >= *state_->max_items) {
        state_->done = true;
        break;
      }
      state_->fill();
    }
  }

  /// Every remaining item in a vector (bounded by max_items when set).
  std::vector<T> collect() {
    std::vector<T> out;
    for (auto& item : *this) out.push_back(std::move(item));
    return out;
  }

 private:
  std::unique_ptr<State> state_;
};

}  // namespace v0
}  // namespace mgnify
