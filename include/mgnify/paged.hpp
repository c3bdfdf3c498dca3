#pragma once

// Paged<T>: one lazy, single-pass range over any paginated MGnify list.
//
//   for (const auto& study : client.studies()) { ... }   // items, fetched page by page
//   auto walk = client.studies();
//   walk.total();                 // the list's count (fetches the first page)
//   walk.current_page();          // the page being read, with its envelope (page.hpp)
//   walk.resume_token();          // where to continue after a failure
//
// A walk is stopped as every call is, through the CallOptions of the list
// call that made it (its cancel token, from any thread, and its deadline);
// leaving the loop early ends it too.
//
// The clients supply only "fetch the page named by this token" (a links.next
// URL for v1, a page number for v2); walking, stopping, limits, resumption,
// fetching ahead and the checks that no item is lost are written once, in
// detail/page_engine.hpp, once for every item type. What a walk promises while the list changes
// underneath it is in docs/reliability.md.
//
// Leaving a walk early (break, an exception, destroying the range) aborts
// its requests in flight within CancelToken::kPollInterval and leaves no
// thread behind. A failure is thrown from the iterator after every item
// before it was yielded; begin() then retries the page that failed.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/detail/page_engine.hpp"
#include "mgnify/error.hpp"
#include "mgnify/page.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

template <class T>
class Paged;

namespace detail {

/// The part of a walk that knows T: the PageKind of Page<T> and the fetch
/// function's pages handed to the engine, which keeps them as PageEnvelope.
template <class T>
struct TypedPages {
  static std::shared_ptr<PageEnvelope> blank() { return std::make_shared<Page<T>>(); }
  static void move(PageEnvelope& to, PageEnvelope& from) {
    static_cast<Page<T>&>(to) = std::move(static_cast<Page<T>&>(from));
  }
  static void release_items(PageEnvelope& page) {
    std::vector<T>().swap(static_cast<Page<T>&>(page).items);
  }
  static ErasedPageFetcher erase(StagedPageFetcher<T> fetch) {
    if (!fetch) return {};
    return [fetch = std::move(fetch)](const std::string& token, const PageProgress& progress) {
      auto page = std::make_shared<Page<T>>(fetch(token, progress));
      const std::size_t items = page->items.size();
      return FetchedPage{std::move(page), items};
    };
  }
  static std::unique_ptr<PageEngine> engine(WalkSpec spec, StagedPageFetcher<T> fetch) {
    return std::make_unique<PageEngine>(std::move(spec), erase(std::move(fetch)),
                                        PageKind{&blank, &TypedPages::move, &release_items});
  }
};

/// Builds a walk; see detail/make_walk.hpp.
template <class T>
Paged<T> make_walk(WalkSpec spec, StagedPageFetcher<T> fetch);

/// The engine of a walk, read-only, for tests and diagnostics.
template <class T>
const PageEngine& walk_engine(const Paged<T>& paged);

}  // namespace detail

template <class T>
class Paged {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    iterator() = default;
    reference operator*() const {
      return static_cast<Page<T>&>(engine_->current()).items[engine_->index()];
    }
    pointer operator->() const { return &**this; }
    /// May fetch (or wait for) the next page; a failure is thrown from here,
    /// after every item before it was yielded.
    iterator& operator++() {
      engine_->advance();
      return *this;
    }
    void operator++(int) { ++*this; }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_end() == b.at_end();
    }
    friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

   private:
    friend class Paged;
    explicit iterator(detail::PageEngine* engine) : engine_(engine) {}
    bool at_end() const { return engine_ == nullptr || engine_->finished(); }
    detail::PageEngine* engine_ = nullptr;
  };

  /// A walk over pages that `fetch` returns, starting at `first_token` and
  /// following each page's `next` token. Nothing is fetched until begin(),
  /// total() or current_page(). The clients' lists are built the same way
  /// (with their own fetch functions, and fetching ahead when their options
  /// allow it).
  Paged(std::string first_token, PageFetcher<T> fetch,
        std::optional<std::size_t> max_items = std::nullopt)
      : Paged(link_walk(std::move(first_token), max_items), staged(std::move(fetch))) {}

  /// Starts (or continues: the range is single-pass) the walk. After a page
  /// failed to load, calling begin() again retries that page.
  iterator begin() {
    engine_->start();
    return iterator(engine_.get());
  }
  iterator end() { return iterator(); }

  /// Total items in the list as reported by the service (fetches the first
  /// page if nothing was fetched yet). Unknown for lists that do not say.
  std::optional<std::int64_t> total() {
    engine_->start();
    return engine_->total();
  }

  /// The token of the page that would be fetched next: after a failure, the
  /// page that failed. Set it as ListOptions::resume_token of the same list
  /// call to continue the walk there, in this process or another.
  const std::optional<std::string>& resume_token() const noexcept {
    return engine_->resume_token();
  }

  /// The page whose items are being yielded now, with its envelope. With
  /// fetching ahead, the items of a page the walk has moved past are
  /// released; its envelope stays.
  const Page<T>& current_page() {
    engine_->start();
    return static_cast<const Page<T>&>(engine_->current());
  }

  /// Walks page by page instead of item by item: fn(page) for each page, the
  /// current one first. Use either this or item iteration on one Paged.
  template <class Fn>
  void for_each_page(Fn fn) {
    engine_->start();
    while (!engine_->finished()) {
      fn(static_cast<const Page<T>&>(engine_->current()));
      engine_->next_page();
    }
  }

  /// Every remaining item in a vector (bounded by max_items when set).
  std::vector<T> collect() {
    std::vector<T> out;
    for (auto& item : *this) out.push_back(std::move(item));
    return out;
  }

  /// Deprecated: cancel the token of the list call's CallOptions instead.
  /// Ends the walk from any thread: requests in flight are aborted within
  /// CancelToken::kPollInterval, and the next step of the walk throws
  /// CancelledError. Destroying the range (leaving a range-for over a
  /// temporary, for one) does the same, so leaving early never waits for a
  /// slow server.
  [[deprecated("cancel the token of the list call's CallOptions")]] void cancel() const noexcept {
    engine_->cancel();
  }

  /// Deprecated: pass the token in the list call's CallOptions instead.
  /// Cancels the walk when `token` is cancelled. Call before the walk starts.
  [[deprecated("pass the token in the list call's CallOptions")]] void cancel_with(
      const CancelToken& token) {
    engine_->cancel_with(token);
  }

  std::size_t pages_fetched() const noexcept { return engine_->pages_fetched(); }
  std::size_t items_yielded() const noexcept { return engine_->items_yielded(); }
  /// Pages fetched (or being fetched) ahead of the caller right now: what
  /// reading ahead costs in memory at this moment.
  std::size_t pages_in_flight() const { return engine_->pages_in_flight(); }

 private:
  template <class U>
  friend Paged<U> detail::make_walk(detail::WalkSpec spec, detail::StagedPageFetcher<U> fetch);
  template <class U>
  friend const detail::PageEngine& detail::walk_engine(const Paged<U>& paged);

  Paged(detail::WalkSpec spec, detail::StagedPageFetcher<T> fetch)
      : engine_(detail::TypedPages<T>::engine(std::move(spec), std::move(fetch))) {}

  static detail::WalkSpec link_walk(std::string first_token, std::optional<std::size_t> max_items) {
    detail::WalkSpec spec;
    spec.first_token = std::move(first_token);
    spec.max_items = max_items;
    return spec;
  }

  static detail::StagedPageFetcher<T> staged(PageFetcher<T> fetch) {
    if (!fetch) throw InvalidArgument("Paged needs a fetch function");
    return [fetch = std::move(fetch)](const std::string& token, const detail::PageProgress&) {
      return fetch(token);
    };
  }

  std::unique_ptr<detail::PageEngine> engine_;
};

MGNIFY_NAMESPACE_END
