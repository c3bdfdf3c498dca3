#pragma once

// Paged<T>: one lazy, single-pass range over any paginated MGnify list. The
// clients only supply "fetch the page named by this token" (a links.next URL
// for v1, a page number for v2); walking, stopping, limits and resumption are
// written once, here.

#include <cstddef>
#include <cstdint>
#include <functional>
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

template <class T>
class Paged {
  struct State {
    PageFetcher<T> fetch;
    std::optional<std::string> next_token;  // page still to fetch; nullopt when exhausted
    std::optional<std::size_t> max_items;
    Page<T> current;
    std::size_t index = 0;
    std::size_t yielded = 0;
    std::size_t pages_fetched = 0;
    std::optional<std::int64_t> total;
    bool started = false;
    bool done = false;

    // Fetches pages until one has an item to show (or the list ends). On
    // failure the token stays in next_token, so resume_token() names the page to retry.
    void fill() {
      while (!done && index >= current.items.size()) {
        if (!next_token) {
          done = true;
          return;
        }
        Page<T> page = fetch(*next_token);
        ++pages_fetched;
        if (page.total) total = page.total;
        const bool empty = page.items.empty();
        next_token = page.next;  // a copy: current_page().next stays readable
        current = std::move(page);
        index = 0;
        // An empty page ends the walk even if it names a next page: that is how
        // v2 signals "past the end", and it bounds a server that loops.
        if (empty) done = true;
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
      ++index;
      ++yielded;
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
    /// May fetch the next page; a failure is thrown from here, after every
    /// item before it was yielded.
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
    state_->fetch = std::move(fetch);
    state_->next_token = std::move(first_token);
    state_->max_items = max_items;
  }

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
