#pragma once

// Bodies of mgnify/detail/page_engine.hpp.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/detail/page_engine.hpp"
#include "mgnify/error.hpp"
#include "mgnify/page.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

namespace page_engine {

inline WalkSpec checked_spec(WalkSpec spec) {
  if (spec.window == 0) {
    throw InvalidArgument(spec.mode == WalkMode::link
                              ? "the read-ahead window must be at least 1"
                              : "parallel_pages must be at least 1");
  }
  if (spec.mode != WalkMode::link && !spec.token_at) {
    throw InvalidArgument("counted and predicted walks need a token function");
  }
  return spec;
}

inline std::shared_ptr<const ErasedPageFetcher> checked_fetch(ErasedPageFetcher fetch) {
  if (!fetch) throw InvalidArgument("a walk needs a fetch function");
  return std::make_shared<const ErasedPageFetcher>(std::move(fetch));
}

}  // namespace page_engine

MGNIFY_DECL PageEngine::PageEngine(WalkSpec spec, ErasedPageFetcher fetch, PageKind kind)
    : spec_(page_engine::checked_spec(std::move(spec))),
      fetch_(page_engine::checked_fetch(std::move(fetch))),
      kind_(kind),
      // The walk's own token, so that ending the walk never cancels the caller's.
      cancel_(spec_.call.token().child()),
      current_(kind.blank()),
      max_decoding_(std::max(1u, std::thread::hardware_concurrency())),
      next_token_(spec_.first_token) {}

MGNIFY_DECL PageEngine::~PageEngine() {
  cancel_.cancel();
  std::vector<std::thread> pool;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    stopping_ = true;
    auto dropped = take_slots_locked();
    wait_for(lock, dropped);
    pool = std::move(workers_);
    work_.notify_all();
  }
  for (auto& t : pool) t.join();
}

MGNIFY_DECL void PageEngine::cancel_with(const CancelToken& token) {
  if (started_) throw InvalidArgument("cancel_with must be called before the walk starts");
  if (token.can_be_cancelled()) cancel_ = spec_.call.token().child(token);
}

MGNIFY_DECL std::size_t PageEngine::pages_in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

MGNIFY_DECL bool PageEngine::predicting_now() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spec_.mode == WalkMode::predicted && predicting_;
}

// -- scheduling ----------------------------------------------------------------

// Drops every page fetched ahead. Queued fetches are cancelled; running
// ones finish (wait_for them) and their results are ignored.
MGNIFY_DECL std::vector<PageEngine::SlotPtr> PageEngine::take_slots_locked() {
  std::vector<SlotPtr> out(slots_.begin(), slots_.end());
  for (auto& s : out) {
    s->abandoned = true;
    if (!s->started) s->done = true;
  }
  queue_.clear();
  slots_.clear();
  requests_ = 0;
  changed_.notify_all();  // releases fetches waiting for a decoding turn
  return out;
}

MGNIFY_DECL void PageEngine::wait_for(std::unique_lock<std::mutex>& lock,
                                      std::vector<SlotPtr>& dropped) {
  for (auto& s : dropped) changed_.wait(lock, [&] { return s->done; });
  dropped.clear();
}

MGNIFY_DECL void PageEngine::work_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    ++idle_;
    work_.wait(lock, [&] { return stopping_ || done_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // the walk is over
    SlotPtr slot = std::move(queue_.front());
    queue_.pop_front();
    slot->started = true;
    lock.unlock();
    auto [page, error] = fetch_one(slot);
    lock.lock();
    ++finishing_;
    finish_locked(*slot, std::move(page), std::move(error));
    --finishing_;
  }
}

// Queues a fetch; false when no thread can take it up. A thread that is
// handing in its page takes the fetch that page made room for, so a
// one-page read-ahead keeps to one thread (and one allocator arena:
// every extra thread's arena keeps about a page more).
MGNIFY_DECL bool PageEngine::launch_locked(const SlotPtr& slot) {
  if (idle_ + finishing_ < queue_.size() + 1 && workers_.size() < spec_.window + 1) {
    try {
      workers_.emplace_back([this] { work_loop(); });
    } catch (const std::system_error&) {
      if (workers_.empty()) return false;  // no thread at all: serial from here on
    }
  }
  queue_.push_back(slot);
  work_.notify_one();
  return true;
}

MGNIFY_DECL bool PageEngine::guessing_locked() const noexcept {
  return (spec_.mode == WalkMode::counted || (spec_.mode == WalkMode::predicted && predicting_)) &&
         first_;
}

// The token of the page at `i` (> next_index_): a guess where the mode
// allows one, else the next token its predecessor announced.
MGNIFY_DECL std::optional<std::string> PageEngine::token_for_locked(std::size_t i,
                                                                   bool& guessed) const {
  guessed = false;
  if (i == next_index_) return next_token_;
  if (guessing_locked()) {
    if (auto t = spec_.token_at(i, *first_)) {
      guessed = true;
      return t;
    }
    if (spec_.mode == WalkMode::counted) return std::nullopt;
  }
  const Slot& before = *slots_[i - 1 - next_index_];
  if (!before.next ||
      (spec_.mode == WalkMode::counted && before.page.page && before.page.items == 0)) {
    return std::nullopt;
  }
  return *before.next;
}

// Would the caller stop before reaching page `i`? Unknown counts as yes.
MGNIFY_DECL bool PageEngine::may_need_locked(std::size_t i) const {
  if (!spec_.max_items) return true;
  if (guessing_locked() && first_items_) return i * *first_items_ < *spec_.max_items;
  std::size_t before = items_before_next_;
  for (std::size_t p = next_index_; p < i; ++p) {
    const Slot& s = *slots_[p - next_index_];
    if (!s.page.page) return false;
    before += s.page.items;
  }
  return before < *spec_.max_items;
}

// Starts the fetches the caller will need next, as far as the window allows.
MGNIFY_DECL void PageEngine::top_up_locked() {
  if (!parallel() || done_ || stopping_ || !threads_ok_ || failed_) return;
  const std::size_t pages_allowed = spec_.window + (waiting_ ? 1 : 0);
  while (slots_.size() < pages_allowed && requests_ < spec_.window) {
    const std::size_t i = next_index_ + slots_.size();
    bool guessed = false;
    auto token = token_for_locked(i, guessed);
    if (!token || !may_need_locked(i)) return;
    auto slot = std::make_shared<Slot>();
    slot->token = std::move(*token);
    slot->page_index = i;
    slot->guessed = guessed;
    if (!launch_locked(slot)) {
      // No thread: the walk goes on serially, on the caller's thread.
      threads_ok_ = false;
      return;
    }
    slots_.push_back(std::move(slot));
    ++requests_;
  }
}

MGNIFY_DECL PageProgress PageEngine::progress_for(const SlotPtr& slot) {
  PageProgress progress;
  progress.call_.cancel = cancel_;  // the deadline is in it
  progress.call_.bypass_cache = spec_.call.bypass_cache;
  if (!parallel()) return progress;
  {
    // With a window of one page, an early envelope would start page N+1
    // on a second thread while page N is decoded: a gain of one decode
    // per page for about two pages more memory (docs/performance.md), so
    // one-page read-ahead waits for the decoded page.
    std::lock_guard<std::mutex> lock(mutex_);
    progress.wants_envelope_ = spec_.window > 1 && !guessing_locked();
  }
  progress.on_received_ = [this, slot] {
    std::unique_lock<std::mutex> lock(mutex_);
    received_locked(*slot);
    if (!slot->abandoned) top_up_locked();
    // Decoding is CPU work. With more pages decoding at once than there
    // are cores, they all finish late together, the page the caller
    // needs first included, and the requests that its place would start
    // leave late too (a convoy that repeats every round). So pages decode
    // at most one per core, lowest page first, plus the page the caller
    // needs next whenever it arrives.
    changed_.wait(lock, [&] { return decoding_turn_locked(*slot); });
    if (!slot->abandoned && !stopping_) {
      slot->decoding = true;
      ++decoding_;
    }
  };
  if (!progress.wants_envelope_) return progress;
  progress.on_envelope_ = [this, slot](PageEnvelope envelope) {
    std::lock_guard<std::mutex> lock(mutex_);
    envelope_locked(*slot, std::move(envelope), false);
    if (!slot->abandoned) top_up_locked();
  };
  return progress;
}

MGNIFY_DECL bool PageEngine::decoding_turn_locked(const Slot& slot) const {
  if (slot.abandoned || stopping_) return true;
  // The page the caller needs next never waits: every page after it
  // waits for it anyway.
  if (!slots_.empty() && slots_.front().get() == &slot) return true;
  if (decoding_ >= max_decoding_) return false;
  for (const auto& s : slots_) {
    if (s.get() == &slot) return true;
    if (s->received && !s->decoding && !s->done) return false;  // an earlier page waits
  }
  return true;
}

MGNIFY_DECL void PageEngine::received_locked(Slot& slot) {
  if (slot.received) return;
  slot.received = true;
  if (!slot.abandoned) --requests_;
}

// `decoded`: from the page itself, which has the last word over an
// envelope announced before decoding.
MGNIFY_DECL void PageEngine::envelope_locked(Slot& slot, PageEnvelope envelope, bool decoded) {
  if (decoded || !slot.next) slot.next.emplace(envelope.next);
  if (slot.abandoned || slot.page_index != 0 || spec_.mode == WalkMode::link) return;
  if (first_ && !decoded) return;
  first_ = std::move(envelope);
}

MGNIFY_DECL void PageEngine::finish_locked(Slot& slot, FetchedPage page,
                                           std::exception_ptr error) {
  received_locked(slot);
  if (page.page) {
    if (!slot.abandoned && slot.page_index == 0 && !first_items_) first_items_ = page.items;
    envelope_locked(slot, *page.page, true);  // the envelope alone: a copy without items
  }
  if (slot.decoding) {
    slot.decoding = false;
    --decoding_;
  }
  slot.page = std::move(page);
  slot.error = std::move(error);
  slot.done = true;
  // A dropped page's fetch does not start others.
  if (!slot.abandoned) top_up_locked();
  changed_.notify_all();
}

MGNIFY_DECL std::pair<FetchedPage, std::exception_ptr> PageEngine::fetch_one(
    const SlotPtr& slot) {
  std::pair<FetchedPage, std::exception_ptr> out;
  try {
    out.first = (*fetch_)(slot->token, progress_for(slot));
  } catch (...) {
    out.second = std::current_exception();
  }
  return out;
}

// -- the caller's side ---------------------------------------------------------

// The page named by next_token_, fetched ahead or here.
MGNIFY_DECL FetchedPage PageEngine::take_next_page() {
  std::unique_lock<std::mutex> lock(mutex_);
  failed_ = false;
  for (;;) {
    waiting_ = true;
    top_up_locked();
    if (slots_.empty()) {
      // Nothing running (no fetching ahead, no thread, or just dropped):
      // fetch here, still announcing progress so followers can start.
      auto slot = std::make_shared<Slot>();
      slot->token = *next_token_;
      slot->page_index = next_index_;
      slot->started = true;
      slots_.push_back(slot);
      ++requests_;
      lock.unlock();
      auto [page, error] = fetch_one(slot);
      lock.lock();
      finish_locked(*slot, std::move(page), std::move(error));
    }
    SlotPtr front = slots_.front();
    changed_.wait(lock, [&] { return front->done; });
    waiting_ = false;
    slots_.pop_front();
    changed_.notify_all();  // the new first page may decode at once (decoding_turn_locked)
    // Only the page a serial walk would fetch may be used.
    bool usable = front->token == *next_token_;
    if (usable && front->guessed && !front->error && spec_.mode == WalkMode::predicted &&
        spec_.check) {
      usable = spec_.check(front->page_index, *front->page.page, *first_);
    }
    if (!usable) {
      // A wrong guess: forget every guess and follow links from here on.
      predicting_ = false;
      auto dropped = take_slots_locked();
      wait_for(lock, dropped);
      continue;
    }
    if (!front->error && spec_.verify) {
      try {
        spec_.verify(front->token, *front->page.page, front->page.items);
      } catch (...) {
        front->error = std::current_exception();
      }
    }
    if (front->error) {
      // next_token_ still names the failed page; pages fetched after it
      // are dropped so that a retry starts cleanly from there.
      auto dropped = take_slots_locked();
      failed_ = true;
      wait_for(lock, dropped);
      std::rethrow_exception(front->error);
    }
    // The walk moves on in the same critical section as the pop, so that
    // no fetch thread sees the page gone but the position unchanged.
    FetchedPage page = std::move(front->page);
    items_before_next_ += page.items;
    ++next_index_;
    if (spec_.mode == WalkMode::counted && first_) {
      // Counted mode trusts the count: the next token is the page number.
      next_token_ = spec_.token_at(next_index_, *first_);
    } else {
      next_token_ = page.page->next;  // copied: current_page().next must still name it
    }
    return page;
  }
}

// Drops everything fetched ahead and stops launching.
MGNIFY_DECL void PageEngine::finish_walk(bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  done_ = true;
  work_.notify_all();  // idle threads end
  if (wait) {
    auto dropped = take_slots_locked();
    wait_for(lock, dropped);
  }
}

// Fetches pages until one has an item to show (or the list ends). On
// failure the token stays in next_token_, so resume_token() names the page to retry.
MGNIFY_DECL void PageEngine::fill() {
  while (!done_ && index_ >= current_items_) {
    if (!next_token_) {
      finish_walk(true);
      return;
    }
    if (parallel()) {
      // The caller is done with this page: free it before waiting, so
      // that the pages fetched ahead never add to it.
      kind_.release_items(*current_);
      current_items_ = 0;
      index_ = 0;
    }
    // A link walk ends only on a missing next token; a token it has
    // already read would walk in a circle.
    const bool linked = spec_.mode != WalkMode::counted;
    if (linked && read_tokens_.count(*next_token_) > 0) {
      throw ListChangedError(current_->url, *next_token_,
                             "the page after this one is one the walk already read");
    }
    const std::string token = *next_token_;
    FetchedPage page = take_next_page();
    if (linked) read_tokens_.insert(token);
    ++pages_fetched_;
    if (page.page->total) total_ = page.page->total;
    kind_.move(*current_, *page.page);
    current_items_ = page.items;
    index_ = 0;
    // In counted mode the page numbers were checked against the total,
    // so an empty page is past the end.
    if (page.items == 0 && !linked) {
      finish_walk(true);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    top_up_locked();
  }
}

MGNIFY_DECL void PageEngine::settle() {
  if (spec_.max_items && yielded_ >= *spec_.max_items) {
    finish_walk(false);
    return;
  }
  fill();
}

MGNIFY_DECL void PageEngine::start() {
  if (!started_) {
    started_ = true;
    if (spec_.max_items && *spec_.max_items == 0) {
      finish_walk(false);
      return;
    }
  }
  fill();
}

MGNIFY_DECL void PageEngine::next_page() {
  yielded_ += current_items_ - std::min(index_, current_items_);
  index_ = current_items_;
  settle();
}

}  // namespace detail
MGNIFY_NAMESPACE_END
