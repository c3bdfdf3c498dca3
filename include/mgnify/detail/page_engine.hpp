#pragma once

// The engine behind Paged<T> (paged.hpp): it fetches the pages of one walk,
// on background threads when the walk reads ahead, and hands them to the
// caller's thread in list order. The clients set it up through
// detail/make_walk.hpp; callers only see Paged<T>.
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

#include <algorithm>
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
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/page.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

template <class T>
class PageEngine;

/// Handed to a staged fetch function, which tells the walk how far it got.
/// Both calls are optional hints; a fetch that makes neither behaves like a
/// PageFetcher. Either may be called from any thread, at most once each.
template <class T>
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
  /// The page's envelope (every field but the items), read before the
  /// items are decoded, so that the following pages can be requested early.
  /// It must agree with the page the fetch then returns.
  void envelope(Page<T> envelope) const {
    if (on_envelope_) on_envelope_(std::move(envelope));
  }
  /// Whether envelope() would be used: false when the walk already knows
  /// the following pages (or fetches nothing ahead), so a fetch can skip
  /// reading the envelope early.
  bool wants_envelope() const noexcept { return wants_envelope_; }
  /// The walk's token: a fetch passes it to its requests, so that ending the
  /// walk (or cancelling it) aborts them.
  const CancelToken& cancel() const noexcept { return cancel_; }

 private:
  template <class>
  friend class PageEngine;
  bool wants_envelope_ = false;
  CancelToken cancel_ = CancelToken::never();
  std::function<void()> on_received_;
  std::function<void(Page<T>)> on_envelope_;
};

template <class T>
using StagedPageFetcher =
    std::function<Page<T>(const std::string& token, const PageProgress<T>& progress)>;

/// Counted and predicted modes: the token of the page at `page_index` (0 is
/// the first page of the walk), or nullopt when it is not known. `first` is
/// the first page's envelope; its items are not kept.
template <class T>
using PageTokenAt =
    std::function<std::optional<std::string>(std::size_t page_index, const Page<T>& first)>;

/// Predicted mode: an extra check that a page fetched by a guessed token is
/// the page the guess meant (for v1: its page number).
template <class T>
using PageCheck =
    std::function<bool(std::size_t page_index, const Page<T>& page, const Page<T>& first)>;

/// Checks each page in list order, on the caller's thread, before any of its
/// items is yielded, whichever thread fetched it; throwing (a
/// ListChangedError, say) fails the walk at that page, which resume_token()
/// then names.
template <class T>
using PageVerify = std::function<void(const std::string& token, const Page<T>& page)>;

/// How a walk learns the token of its next page: from the page before it
/// (link), from the first page's count (counted), or guessed and checked
/// (predicted); see the top of this file.
enum class WalkMode { link, counted, predicted };

template <class T>
class PageEngine {
 public:
  using Mode = WalkMode;

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
    std::optional<Page<T>> page;
    std::exception_ptr error;
  };
  using SlotPtr = std::shared_ptr<Slot>;

  PageEngine(std::string first_token, StagedPageFetcher<T> fetch_pages,
             std::optional<std::size_t> max_items_to_yield) {
    if (!fetch_pages) throw InvalidArgument("a walk needs a fetch function");
    fetch = std::make_shared<const StagedPageFetcher<T>>(std::move(fetch_pages));
    next_token = std::move(first_token);
    max_items = max_items_to_yield;
  }
  PageEngine(const PageEngine&) = delete;
  PageEngine& operator=(const PageEngine&) = delete;

  /// Fetch pages ahead of the caller on background threads: up to `window`
  /// pages in link mode. The fetch function must then be safe to call from
  /// several threads at once. Takes effect from the next page on; switching
  /// it off lets the fetches in flight finish.
  void set_read_ahead(bool on, std::size_t ahead = 1) {
    if (ahead == 0) throw InvalidArgument("the read-ahead window must be at least 1");
    std::lock_guard<std::mutex> lock(mutex);
    if (mode == Mode::link) window = ahead;
    read_ahead = on;
  }

  /// Counted mode: once the first page is in, up to `parallel_pages` pages are
  /// fetched at once, tokens from `token_at`, and items still come in order.
  /// Predicted mode: the same, but `token_at` only guesses. A page is used
  /// only if its token is the next token of the page before it (and `check`,
  /// when given, accepts it); otherwise the guesses are dropped and the walk
  /// follows next tokens one by one (with read-ahead) from the last page it
  /// used. Either is chosen before the walk starts; the fetch function must
  /// be thread-safe.
  void set_mode(Mode chosen, PageTokenAt<T> tokens, std::size_t parallel_pages,
                PageCheck<T> page_check = {}) {
    if (!tokens) throw InvalidArgument("counted mode needs a token function");
    if (parallel_pages == 0) throw InvalidArgument("parallel_pages must be at least 1");
    if (started) throw InvalidArgument("counted mode must be chosen before the walk starts");
    std::lock_guard<std::mutex> lock(mutex);
    mode = chosen;
    token_at = std::move(tokens);
    window = parallel_pages;
    check = std::move(page_check);
  }

  /// Every page passes `page_verify` before it is used. Call before the walk starts.
  void set_verify(PageVerify<T> page_verify) {
    if (started) throw InvalidArgument("a page check must be set before the walk starts");
    verify = std::move(page_verify);
  }

  void cancel_with(const CancelToken& token) {
    if (started) throw InvalidArgument("cancel_with must be called before the walk starts");
    if (token.can_be_cancelled()) cancel = token.child();
  }

  /// Pages fetched (or being fetched) ahead of the caller right now.
  std::size_t pages_in_flight() {
    std::lock_guard<std::mutex> lock(mutex);
    return slots.size();
  }
  /// Predicted mode: false once a guess was wrong and the walk follows links.
  bool predicting_now() {
    std::lock_guard<std::mutex> lock(mutex);
    return mode == Mode::predicted && predicting;
  }

  // Aborts every fetch still running (their requests end within
  // CancelToken::kPollInterval, whatever the server does), waits for them
  // and joins the threads, so nothing outlives the range.
  ~PageEngine() {
    cancel.cancel();
    std::vector<std::thread> pool;
    {
      std::unique_lock<std::mutex> lock(mutex);
      stopping = true;
      auto dropped = take_slots_locked();
      wait_for(lock, dropped);
      pool = std::move(workers);
      work.notify_all();
    }
    for (auto& t : pool) t.join();
  }

  // ---- set up before the walk, then read-only ------------------------------
  std::shared_ptr<const StagedPageFetcher<T>> fetch;
  std::optional<std::size_t> max_items;
  bool read_ahead = false;
  Mode mode = Mode::link;
  std::size_t window = 1;
  PageTokenAt<T> token_at;
  PageCheck<T> check;
  PageVerify<T> verify;
  CancelToken cancel;  // the walk's own; a child of the caller's (cancel_with)

  // ---- the caller's thread only --------------------------------------------
  Page<T> current;
  std::size_t index = 0;
  std::size_t yielded = 0;
  std::size_t pages_fetched = 0;
  std::optional<std::int64_t> total;
  std::set<std::string> read_tokens;  // link and predicted modes
  bool started = false;

  // ---- shared with the fetch threads: guarded by `mutex` -------------------
  std::mutex mutex;
  std::condition_variable changed;  // a slot finished, or a decoding turn came free
  std::condition_variable work;     // a fetch was queued, or the walk ended
  // Fetch threads live as long as the walk: a thread per page would cost
  // its creation, a fresh stack and page faults every time, which on small
  // pages outweighs the fetching (docs/performance.md).
  std::vector<std::thread> workers;
  std::deque<SlotPtr> queue;  // launched, not yet taken up by a thread
  std::size_t idle = 0;       // threads waiting for work
  std::size_t finishing = 0;  // threads handing in a page; they take queued work next
  std::deque<SlotPtr> slots;  // pages next_index, next_index + 1, ... in list order
  std::size_t requests = 0;   // slots whose response is not in yet
  std::size_t decoding = 0;   // slots decoding now (see received_locked)
  std::size_t max_decoding = std::max(1u, std::thread::hardware_concurrency());
  std::optional<std::string> next_token;  // page still to fetch; nullopt when exhausted
  std::size_t next_index = 0;             // page index that next_token names
  std::size_t items_before_next = 0;      // items on the pages before next_index
  bool done = false;
  bool waiting = false;                    // the caller released its page and waits for the next
  bool stopping = false;                   // no more launches (destruction)
  bool predicting = true;                  // predicted mode until the first mismatch
  bool threads_ok = true;                  // false once a thread could not be started
  bool failed = false;                     // a page failed; nothing starts until the caller retries
  std::optional<Page<T>> first;            // the walk's first envelope (counted/predicted)
  std::optional<std::size_t> first_items;  // items on the walk's first page

  bool parallel() const noexcept { return read_ahead || mode != Mode::link; }

  // -- scheduling (all *_locked functions run with `mutex` held) -------------

  // Drops every page fetched ahead. Queued fetches are cancelled; running
  // ones finish (wait_for them) and their results are ignored.
  std::vector<SlotPtr> take_slots_locked() {
    std::vector<SlotPtr> out(slots.begin(), slots.end());
    for (auto& s : out) {
      s->abandoned = true;
      if (!s->started) s->done = true;
    }
    queue.clear();
    slots.clear();
    requests = 0;
    changed.notify_all();  // releases fetches waiting for a decoding turn
    return out;
  }
  void wait_for(std::unique_lock<std::mutex>& lock, std::vector<SlotPtr>& dropped) {
    for (auto& s : dropped) changed.wait(lock, [&] { return s->done; });
    dropped.clear();
  }

  void work_loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      ++idle;
      work.wait(lock, [&] { return stopping || done || !queue.empty(); });
      --idle;
      if (queue.empty()) return;  // the walk is over
      SlotPtr slot = std::move(queue.front());
      queue.pop_front();
      slot->started = true;
      lock.unlock();
      auto [page, error] = fetch_one(slot);
      lock.lock();
      ++finishing;
      finish_locked(*slot, std::move(page), std::move(error));
      --finishing;
    }
  }

  // Queues a fetch; false when no thread can take it up. A thread that is
  // handing in its page takes the fetch that page made room for, so a
  // one-page read-ahead keeps to one thread (and one allocator arena:
  // every extra thread's arena keeps about a page more).
  bool launch_locked(const SlotPtr& slot) {
    if (idle + finishing < queue.size() + 1 && workers.size() < window + 1) {
      try {
        workers.emplace_back([this] { work_loop(); });
      } catch (const std::system_error&) {
        if (workers.empty()) return false;  // no thread at all: serial from here on
      }
    }
    queue.push_back(slot);
    work.notify_one();
    return true;
  }

  bool guessing_locked() const noexcept {
    return (mode == Mode::counted || (mode == Mode::predicted && predicting)) && first;
  }

  // The token of the page at `i` (> next_index): a guess where the mode
  // allows one, else the next token its predecessor announced.
  std::optional<std::string> token_for_locked(std::size_t i, bool& guessed) const {
    guessed = false;
    if (i == next_index) return next_token;
    if (guessing_locked()) {
      if (auto t = token_at(i, *first)) {
        guessed = true;
        return t;
      }
      if (mode == Mode::counted) return std::nullopt;
    }
    const Slot& before = *slots[i - 1 - next_index];
    if (!before.next || (mode == Mode::counted && before.page && before.page->items.empty())) {
      return std::nullopt;
    }
    return *before.next;
  }

  // Would the caller stop before reaching page `i`? Unknown counts as yes.
  bool may_need_locked(std::size_t i) const {
    if (!max_items) return true;
    if (guessing_locked() && first_items) return i * *first_items < *max_items;
    std::size_t before = items_before_next;
    for (std::size_t p = next_index; p < i; ++p) {
      const Slot& s = *slots[p - next_index];
      if (!s.page) return false;
      before += s.page->items.size();
    }
    return before < *max_items;
  }

  // Starts the fetches the caller will need next, as far as the window allows.
  void top_up_locked() {
    if (!parallel() || done || stopping || !threads_ok || failed) return;
    const std::size_t pages_allowed = window + (waiting ? 1 : 0);
    while (slots.size() < pages_allowed && requests < window) {
      const std::size_t i = next_index + slots.size();
      bool guessed = false;
      auto token = token_for_locked(i, guessed);
      if (!token || !may_need_locked(i)) return;
      auto slot = std::make_shared<Slot>();
      slot->token = std::move(*token);
      slot->page_index = i;
      slot->guessed = guessed;
      if (!launch_locked(slot)) {
        // No thread: the walk goes on serially, on the caller's thread.
        threads_ok = false;
        return;
      }
      slots.push_back(std::move(slot));
      ++requests;
    }
  }

  PageProgress<T> progress_for(const SlotPtr& slot) {
    PageProgress<T> progress;
    progress.cancel_ = cancel;
    if (!parallel()) return progress;
    {
      // With a window of one page, an early envelope would start page N+1
      // on a second thread while page N is decoded: a gain of one decode
      // per page (well under a millisecond on a page of 100) for about two
      // pages more memory, so one-page read-ahead waits for the decoded page.
      std::lock_guard<std::mutex> lock(mutex);
      progress.wants_envelope_ = window > 1 && !guessing_locked();
    }
    progress.on_received_ = [this, slot] {
      std::unique_lock<std::mutex> lock(mutex);
      received_locked(*slot);
      if (!slot->abandoned) top_up_locked();
      // Decoding is CPU work. With more pages decoding at once than there
      // are cores, they all finish late together, the page the caller
      // needs first included, and the requests that its place would start
      // leave late too (a convoy that repeats every round). So pages decode
      // at most one per core, lowest page first, plus the page the caller
      // needs next whenever it arrives.
      changed.wait(lock, [&] { return decoding_turn_locked(*slot); });
      if (!slot->abandoned && !stopping) {
        slot->decoding = true;
        ++decoding;
      }
    };
    if (!progress.wants_envelope_) return progress;
    progress.on_envelope_ = [this, slot](Page<T> envelope) {
      std::lock_guard<std::mutex> lock(mutex);
      envelope_locked(*slot, std::move(envelope), false);
      if (!slot->abandoned) top_up_locked();
    };
    return progress;
  }

  bool decoding_turn_locked(const Slot& slot) const {
    if (slot.abandoned || stopping) return true;
    // The page the caller needs next never waits: every page after it
    // waits for it anyway.
    if (!slots.empty() && slots.front().get() == &slot) return true;
    if (decoding >= max_decoding) return false;
    for (const auto& s : slots) {
      if (s.get() == &slot) return true;
      if (s->received && !s->decoding && !s->done) return false;  // an earlier page waits
    }
    return true;
  }

  void received_locked(Slot& slot) {
    if (slot.received) return;
    slot.received = true;
    if (!slot.abandoned) --requests;
  }

  // `decoded`: from the page itself, which has the last word over an
  // envelope announced before decoding.
  void envelope_locked(Slot& slot, Page<T> envelope, bool decoded) {
    if (decoded || !slot.next) slot.next.emplace(envelope.next);
    if (slot.abandoned || slot.page_index != 0 || mode == Mode::link) return;
    if (first && !decoded) return;
    envelope.items.clear();
    first = std::move(envelope);
  }

  void finish_locked(Slot& slot, std::optional<Page<T>> page, std::exception_ptr error) {
    received_locked(slot);
    if (page) {
      if (!slot.abandoned && slot.page_index == 0 && !first_items) {
        first_items = page->items.size();
      }
      // The envelope is the page without its items.
      std::vector<T> items = std::move(page->items);
      Page<T> envelope = *page;
      page->items = std::move(items);
      envelope_locked(slot, std::move(envelope), true);
    }
    if (slot.decoding) {
      slot.decoding = false;
      --decoding;
    }
    slot.page = std::move(page);
    slot.error = std::move(error);
    slot.done = true;
    // A dropped page's fetch does not start others.
    if (!slot.abandoned) top_up_locked();
    changed.notify_all();
  }

  std::pair<std::optional<Page<T>>, std::exception_ptr> fetch_one(const SlotPtr& slot) {
    std::pair<std::optional<Page<T>>, std::exception_ptr> out;
    try {
      out.first.emplace((*fetch)(slot->token, progress_for(slot)));
    } catch (...) {
      out.second = std::current_exception();
    }
    return out;
  }

  // -- the caller's side -----------------------------------------------------

  // The page named by next_token, fetched ahead or here.
  Page<T> next_page() {
    std::unique_lock<std::mutex> lock(mutex);
    failed = false;
    for (;;) {
      waiting = true;
      top_up_locked();
      if (slots.empty()) {
        // Nothing running (no fetching ahead, no thread, or just dropped):
        // fetch here, still announcing progress so followers can start.
        auto slot = std::make_shared<Slot>();
        slot->token = *next_token;
        slot->page_index = next_index;
        slot->started = true;
        slots.push_back(slot);
        ++requests;
        lock.unlock();
        auto [page, error] = fetch_one(slot);
        lock.lock();
        finish_locked(*slot, std::move(page), std::move(error));
      }
      SlotPtr front = slots.front();
      changed.wait(lock, [&] { return front->done; });
      waiting = false;
      slots.pop_front();
      changed.notify_all();  // the new first page may decode at once (decoding_turn_locked)
      // Only the page a serial walk would fetch may be used.
      bool usable = front->token == *next_token;
      if (usable && front->guessed && !front->error && mode == Mode::predicted && check) {
        usable = check(front->page_index, *front->page, *first);
      }
      if (!usable) {
        // A wrong guess: forget every guess and follow links from here on.
        predicting = false;
        auto dropped = take_slots_locked();
        wait_for(lock, dropped);
        continue;
      }
      if (!front->error && verify) {
        try {
          verify(front->token, *front->page);
        } catch (...) {
          front->error = std::current_exception();
        }
      }
      if (front->error) {
        // next_token still names the failed page; pages fetched after it
        // are dropped so that a retry starts cleanly from there.
        auto dropped = take_slots_locked();
        failed = true;
        wait_for(lock, dropped);
        std::rethrow_exception(front->error);
      }
      // The walk moves on in the same critical section as the pop, so that
      // no fetch thread sees the page gone but the position unchanged.
      Page<T> page = std::move(*front->page);
      items_before_next += page.items.size();
      ++next_index;
      if (mode == Mode::counted && first) {
        // Counted mode trusts the count: the next token is the page number.
        next_token = token_at(next_index, *first);
      } else {
        next_token = page.next;  // copied: current_page().next must still name it
      }
      return page;
    }
  }

  // Drops everything fetched ahead and stops launching.
  void finish_walk(bool wait) {
    std::unique_lock<std::mutex> lock(mutex);
    done = true;
    work.notify_all();  // idle threads end
    if (wait) {
      auto dropped = take_slots_locked();
      wait_for(lock, dropped);
    }
  }

  // Fetches pages until one has an item to show (or the list ends). On
  // failure the token stays in next_token, so resume_token() names the page to retry.
  void fill() {
    while (!done && index >= current.items.size()) {
      if (!next_token) {
        finish_walk(true);
        return;
      }
      if (parallel()) {
        // The caller is done with this page: free it before waiting, so
        // that the pages fetched ahead never add to it.
        std::vector<T>().swap(current.items);
        index = 0;
      }
      // A link walk ends only on a missing next token; a token it has
      // already read would walk in a circle.
      const bool linked = mode != Mode::counted;
      if (linked && read_tokens.count(*next_token) > 0) {
        throw ListChangedError(current.url, *next_token,
                               "the page after this one is one the walk already read");
      }
      const std::string token = *next_token;
      Page<T> page = next_page();
      if (linked) read_tokens.insert(token);
      ++pages_fetched;
      if (page.total) total = page.total;
      const bool empty = page.items.empty();
      current = std::move(page);
      index = 0;
      // In counted mode the page numbers were checked against the total,
      // so an empty page is past the end.
      if (empty && !linked) {
        finish_walk(true);
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      top_up_locked();
    }
  }
  // Also the way back in after a failed fetch: fill() retries the page
  // named by next_token (it does nothing while the current page has items).
  void start() {
    if (!started) {
      started = true;
      if (max_items && *max_items == 0) {
        finish_walk(false);
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
      finish_walk(false);
      return;
    }
    fill();
  }
  // `done` and the walk's position are written by the caller's thread only
  // (under `mutex`, for the fetch threads), so this thread reads them freely.
  bool finished() const noexcept { return done; }
};

}  // namespace detail
MGNIFY_NAMESPACE_END
