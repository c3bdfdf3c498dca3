#pragma once

// The engine behind Paged<T> (paged.hpp): it fetches the pages of one walk,
// on background threads when the walk reads ahead, and hands them to the
// caller's thread in list order. It is built from one WalkSpec (the clients
// do it through detail/make_walk.hpp; callers only see Paged<T>) and keeps
// its state to itself. It does not know the item type: a page is a
// PageEnvelope (in fact a Page<T>) with an item count, and the few things
// that need T (a blank page, moving a page, releasing its items) come in a
// PageKind. So the scheduling below is compiled once, not once per model;
// what each model compiles is the thin typed layer in paged.hpp.
//
// Fetching ahead (off for a bare Paged, because a fetch function handed in by
// a caller need not be thread-safe; the clients switch it on through
// ClientOptions::read_ahead since their fetchers only use the thread-safe
// Session). Up to `window` pages beyond the one the caller is on are fetched
// on background threads, and items still come out in list order. Where the
// next token comes from decides how far ahead a walk can get:
//
//  - Link mode (v1 links.next, cursors): the token of page N+1 is in page N.
//    With a window of 2 or more, a staged fetch function announces it
//    (PageProgress::envelope) as soon as it has read the envelope, before
//    decoding the items, so the request for page N+1 leaves while page N is
//    still being decoded. A walk then costs one round trip per page and the
//    decoding hides behind the next one. With a window of 1, page N+1 is
//    fetched while the caller consumes page N.
//  - Counted mode (v2's `count`): every page number is known once the first
//    page is in, so `window` requests run at once.
//  - Predicted mode (v1 page-number lists): the tokens of later pages are
//    guessed from the first page (its links.next with another `page`). A
//    guess is only trusted after the fact: a page is used only if its token
//    is exactly the links.next of the page before it, i.e. the URL a serial
//    walk would have requested. On the first mismatch the guesses are dropped
//    and the walk goes on in link mode from the last page it used, so items
//    are never duplicated or skipped.
//
// In every mode a walk may also check each page in list order on the
// caller's thread (PageVerify: v1 counts its page-number lists this way,
// whichever thread fetched a page and in whatever order pages arrived).
//
// Requests in flight are bounded by `window`, and so are the pages held ahead
// of the caller: once a response is in (PageProgress::received) its slot
// stops counting as a request, so the next request can leave while that page
// is decoded, but it still counts as a page. Memory is therefore bounded by
// the current page plus `window` pages; while the caller waits for a page, the
// page it finished is released first and that page's place is lent to the
// walk, so the bound holds then too.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/page.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

class PageEngine;

/// Handed to a staged fetch function, which tells the walk how far it got.
/// Both calls are optional hints; a fetch that makes neither behaves like a
/// PageFetcher. Either may be called from any thread, at most once each.
class PageProgress {
 public:
  PageProgress() = default;

  /// The response is in: the network part of this fetch is over. Another
  /// request may now leave while this page is decoded. Returns when this
  /// page may be decoded: at most one page per core decodes at once, the
  /// page the walk needs next first.
  void received() const {
    if (on_received_) on_received_();
  }
  /// The page's envelope, read before the items are decoded, so that the
  /// following pages can be requested early. It must agree with the page
  /// the fetch then returns.
  void envelope(PageEnvelope envelope) const {
    if (on_envelope_) on_envelope_(std::move(envelope));
  }
  /// Whether envelope() would be used: false when the walk already knows
  /// the following pages (or fetches nothing ahead), so a fetch can skip
  /// reading the envelope early.
  bool wants_envelope() const noexcept { return wants_envelope_; }
  /// The options a fetch passes to this page's requests: the walk's token,
  /// so that ending the walk (or cancelling it, or its deadline passing)
  /// aborts them, and the list call's bypass_cache.
  const CallOptions& call() const noexcept { return call_; }

 private:
  friend class PageEngine;
  bool wants_envelope_ = false;
  CallOptions call_;
  std::function<void()> on_received_;
  std::function<void(PageEnvelope)> on_envelope_;
};

/// Fetches the page a token names, reporting progress (see PageProgress).
template <class T>
using StagedPageFetcher =
    std::function<Page<T>(const std::string& token, const PageProgress& progress)>;

/// Counted and predicted modes: the token of the page at `page_index` (0 is
/// the first page of the walk), or nullopt when it is not known. `first` is
/// the first page's envelope.
using PageTokenAt =
    std::function<std::optional<std::string>(std::size_t page_index, const PageEnvelope& first)>;

/// Predicted mode: an extra check that a page fetched by a guessed token is
/// the page the guess meant (for v1: its page number).
using PageCheck = std::function<bool(std::size_t page_index, const PageEnvelope& page,
                                     const PageEnvelope& first)>;

/// Checks each page (its envelope and how many items it holds) in list
/// order, on the caller's thread, before any of its items is yielded,
/// whichever thread fetched it; throwing (a ListChangedError, say) fails the
/// walk at that page, which resume_token() then names.
using PageVerify =
    std::function<void(const std::string& token, const PageEnvelope& page, std::size_t items)>;

/// How a walk learns the token of its next page: from the page before it
/// (link), from the first page's count (counted), or guessed and checked
/// (predicted); see the top of this file.
enum class WalkMode { link, counted, predicted };

/// Everything a walk is set up with, in one place. Fixed once the walk is built.
struct WalkSpec {
  /// The token of the first page.
  std::string first_token;
  /// Stop after this many items.
  std::optional<std::size_t> max_items;
  /// Fetch ahead of the caller on background threads (link mode); the fetch
  /// function must then be safe to call from several threads at once.
  bool read_ahead = false;
  /// Pages fetched at once when reading ahead or in counted and predicted
  /// modes; at least 1.
  std::size_t window = 1;
  /// Counted mode: once the first page is in, up to `window` pages are
  /// fetched at once, tokens from `token_at`, and items still come in order.
  /// Predicted mode: the same, but `token_at` only guesses. A page is used
  /// only if its token is the next token of the page before it (and `check`,
  /// when given, accepts it); otherwise the guesses are dropped and the walk
  /// follows next tokens one by one (with read-ahead) from the last page it
  /// used. Both need a thread-safe fetch function.
  WalkMode mode = WalkMode::link;
  PageTokenAt token_at;
  PageCheck check;
  /// Checks every page in list order before it is used (see PageVerify).
  PageVerify verify;
  /// The list call's CallOptions: its token and deadline end
  /// the whole walk, and every page request goes with its bypass_cache.
  CallOptions call{};
};

/// What a fetch hands the engine: the page (a Page<T>) and its item count.
struct FetchedPage {
  std::shared_ptr<PageEnvelope> page;
  std::size_t items = 0;
};

using ErasedPageFetcher =
    std::function<FetchedPage(const std::string& token, const PageProgress& progress)>;

/// What the engine does to pages that needs their item type.
struct PageKind {
  std::shared_ptr<PageEnvelope> (*blank)();
  /// Moves the page `from` into `to` (both Page<T>).
  void (*move)(PageEnvelope& to, PageEnvelope& from);
  /// Frees the page's items; its envelope stays.
  void (*release_items)(PageEnvelope& page);
};

class PageEngine {
 public:
  /// Throws InvalidArgument for a spec that cannot walk (a window of 0, a
  /// counted or predicted mode without token_at, no fetch function).
  MGNIFY_DECL PageEngine(WalkSpec spec, ErasedPageFetcher fetch, PageKind kind);
  PageEngine(const PageEngine&) = delete;
  PageEngine& operator=(const PageEngine&) = delete;
  /// Aborts every fetch still running (their requests end within
  /// CancelToken::kPollInterval, whatever the server does), waits for them
  /// and joins the threads, so nothing outlives the range.
  MGNIFY_DECL ~PageEngine();

  // ---- the caller's side ----------------------------------------------------

  /// Starts the walk, or continues it: after a failed fetch, retries the
  /// page named by resume_token() (nothing happens while the current page
  /// still has items).
  MGNIFY_DECL void start();
  /// Moves past one item; may fetch (or wait for) the next page.
  void advance() {
    // After a failed fetch the current page is already used up: a second ++
    // is a retry of that fetch, not another item.
    if (index_ < current_items_) {
      ++index_;
      ++yielded_;
      if (index_ < current_items_ && !(spec_.max_items && yielded_ >= *spec_.max_items)) return;
    }
    settle();
  }
  /// Moves past every remaining item of the current page at once.
  MGNIFY_DECL void next_page();
  /// No item is left (the list ended, or max_items was reached).
  bool finished() const noexcept { return done_; }
  /// The page whose items are being yielded (a Page<T>).
  PageEnvelope& current() noexcept { return *current_; }
  /// The position of the current item in current().
  std::size_t index() const noexcept { return index_; }

  /// Ends the walk from any thread (see Paged::cancel()).
  void cancel() noexcept { cancel_.cancel(); }
  /// Cancels the walk with `token` too (WalkSpec::call's token still does).
  /// Call before the walk starts.
  MGNIFY_DECL void cancel_with(const CancelToken& token);

  // ---- what the walk reports -----------------------------------------------

  const std::optional<std::int64_t>& total() const noexcept { return total_; }
  /// The token of the page to fetch next; after a failure, the page that failed.
  const std::optional<std::string>& resume_token() const noexcept { return next_token_; }
  std::size_t pages_fetched() const noexcept { return pages_fetched_; }
  std::size_t items_yielded() const noexcept { return yielded_; }
  /// Pages fetched (or being fetched) ahead of the caller right now.
  MGNIFY_DECL std::size_t pages_in_flight() const;
  /// Predicted mode: false once a guess was wrong and the walk follows links.
  MGNIFY_DECL bool predicting_now() const;
  /// Whether pages are fetched on background threads.
  bool parallel() const noexcept { return spec_.read_ahead || spec_.mode != WalkMode::link; }

 private:
  // One page being fetched (or fetched and waiting for the caller).
  struct Slot {
    std::string token;
    std::size_t page_index = 0;
    bool started = false;                            // a thread (or the caller) took it up
    bool guessed = false;                            // the token came from token_at
    bool received = false;                           // the network part is over
    bool decoding = false;                           // holds one of the decoding turns
    bool done = false;                               // page or error is set
    bool abandoned = false;                          // dropped; its result is ignored
    std::optional<std::optional<std::string>> next;  // the next token, once known
    FetchedPage page;                                // set once fetched
    std::exception_ptr error;
  };
  using SlotPtr = std::shared_ptr<Slot>;

  // Scheduling: every *_locked function runs with `mutex_` held.
  std::vector<SlotPtr> take_slots_locked();
  void wait_for(std::unique_lock<std::mutex>& lock, std::vector<SlotPtr>& dropped);
  void work_loop();
  bool launch_locked(const SlotPtr& slot);
  bool guessing_locked() const noexcept;
  std::optional<std::string> token_for_locked(std::size_t i, bool& guessed) const;
  bool may_need_locked(std::size_t i) const;
  void top_up_locked();
  PageProgress progress_for(const SlotPtr& slot);
  bool decoding_turn_locked(const Slot& slot) const;
  void received_locked(Slot& slot);
  void envelope_locked(Slot& slot, PageEnvelope envelope, bool decoded);
  void finish_locked(Slot& slot, FetchedPage page, std::exception_ptr error);
  std::pair<FetchedPage, std::exception_ptr> fetch_one(const SlotPtr& slot);

  // The caller's side.
  FetchedPage take_next_page();
  void finish_walk(bool wait);
  void fill();
  void settle();

  // ---- set up once, then read-only ------------------------------------------
  const WalkSpec spec_;
  const std::shared_ptr<const ErasedPageFetcher> fetch_;
  const PageKind kind_;
  CancelToken cancel_;  // the walk's own; a child of spec_.call's and of cancel_with's

  // ---- the caller's thread only ---------------------------------------------
  std::shared_ptr<PageEnvelope> current_;  // a Page<T>, the same object all walk long
  std::size_t current_items_ = 0;
  std::size_t index_ = 0;
  std::size_t yielded_ = 0;
  std::size_t pages_fetched_ = 0;
  std::optional<std::int64_t> total_;
  std::set<std::string> read_tokens_;  // link and predicted modes
  bool started_ = false;

  // ---- shared with the fetch threads: guarded by `mutex_` -------------------
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a slot finished, or a decoding turn came free
  std::condition_variable work_;     // a fetch was queued, or the walk ended
  // Fetch threads live as long as the walk: a thread per page would cost
  // its creation, a fresh stack and page faults every time, which on small
  // pages outweighs the fetching (docs/performance.md).
  std::vector<std::thread> workers_;
  std::deque<SlotPtr> queue_;  // launched, not yet taken up by a thread
  std::size_t idle_ = 0;       // threads waiting for work
  std::size_t finishing_ = 0;  // threads handing in a page; they take queued work next
  std::deque<SlotPtr> slots_;  // pages next_index_, next_index_ + 1, ... in list order
  std::size_t requests_ = 0;   // slots whose response is not in yet
  std::size_t decoding_ = 0;   // slots decoding now (see progress_for)
  std::size_t max_decoding_ = 1;
  std::optional<std::string> next_token_;  // page still to fetch; nullopt when exhausted
  std::size_t next_index_ = 0;             // page index that next_token_ names
  std::size_t items_before_next_ = 0;      // items on the pages before next_index_
  // `done_` and the walk's position are written by the caller's thread only
  // (under `mutex_`, for the fetch threads), so that thread reads them freely.
  bool done_ = false;
  bool waiting_ = false;               // the caller released its page and waits for the next
  bool stopping_ = false;              // no more launches (destruction)
  bool predicting_ = true;             // predicted mode until the first mismatch
  bool threads_ok_ = true;             // false once a thread could not be started
  bool failed_ = false;                // a page failed; nothing starts until the caller retries
  std::optional<PageEnvelope> first_;  // the walk's first envelope (counted/predicted)
  std::optional<std::size_t> first_items_;  // items on the walk's first page
};

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/page_engine.ipp"
#endif
