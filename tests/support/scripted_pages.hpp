#pragma once

// A thread-safe scripted list of integer pages for the page engine's tests.
// Pages are served by token; a gated token's fetch holds at its own Gate
// (support/gate.hpp) until the test opens it, which lets a test see exactly
// which fetches are running at a given moment without any timing assumption,
// and a failing token answers 503. fetcher() blocks right after the fetch
// starts; staged_fetcher() reports progress like the clients (received, then
// the envelope) and blocks after announcing the envelope, i.e. while the page
// would be decoded.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/test_support.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/paged.hpp"
#include "support/gate.hpp"

namespace mgnify::test {

class ScriptedPages {
 public:
  /// What each page of numbered() reports about the list besides its items.
  enum class Report { total, page_number };

  /// Each page's url, and the url of its scripted failures, is `url_base` + its token.
  explicit ScriptedPages(std::string url_base) : url_base_(std::move(url_base)) {}

  void add(const std::string& token, std::vector<int> items, std::optional<std::string> next,
           std::optional<std::int64_t> total = std::nullopt,
           std::optional<std::int64_t> page_number = std::nullopt) {
    mgnify::Page<int> p;
    p.items = std::move(items);
    p.next = std::move(next);
    p.total = total;
    p.page = page_number;
    p.url = url_base_ + token;
    std::lock_guard<std::mutex> lock(mutex_);
    pages_[token] = std::move(p);
  }

  /// `count` pages `prefix`1..`prefix`<count> of `per_page` consecutive numbers from 1,
  /// each reporting the list's total or its own page number.
  static std::shared_ptr<ScriptedPages> numbered(const std::string& url_base,
                                                 const std::string& prefix, int count, int per_page,
                                                 Report report) {
    auto s = std::make_shared<ScriptedPages>(url_base);
    int value = 1;
    for (int t = 1; t <= count; ++t) {
      std::vector<int> items;
      for (int k = 0; k < per_page; ++k) items.push_back(value++);
      std::optional<std::string> next;
      if (t < count) next = prefix + std::to_string(t + 1);
      if (report == Report::total) {
        s->add(prefix + std::to_string(t), items, next, count * per_page);
      } else {
        s->add(prefix + std::to_string(t), items, next, std::nullopt, t);
      }
    }
    return s;
  }

  void gate(const std::string& token) {
    std::lock_guard<std::mutex> lock(mutex_);
    gates_[token] = std::make_shared<Gate>();
  }
  void open(const std::string& token) {
    if (const auto g = gate_of(token)) g->open();
  }
  /// The next `times` fetches of `token` fail with 503 (a negative count: every fetch).
  void fail(const std::string& token, int times) {
    std::lock_guard<std::mutex> lock(mutex_);
    failing_[token] = times;
  }

  /// Waits until the fetch of `token` has started `times` times (true) or patience ran out.
  bool wait_started(const std::string& token, int times = 1) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] {
      return std::count(started_.begin(), started_.end(), token) >= times;
    });
  }
  /// Waits until `n` fetches of fetcher() are under way.
  bool wait_running(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] { return running_ == n; });
  }
  /// Waits until `n` fetches of staged_fetcher() are blocked after their envelope.
  bool wait_blocked(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] { return blocked_ == n; });
  }

  std::vector<std::string> started() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_;
  }
  /// How many fetches of `token` have started.
  std::size_t count(const std::string& token) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<std::size_t>(std::count(started_.begin(), started_.end(), token));
  }
  std::size_t finished() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_;
  }
  std::size_t max_running() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return max_running_;
  }

  static mgnify::PageFetcher<int> fetcher(std::shared_ptr<ScriptedPages> self) {
    return [self](const std::string& token) { return self->fetch(token); };
  }
  static mgnify::detail::StagedPageFetcher<int> staged_fetcher(
      std::shared_ptr<ScriptedPages> self) {
    return [self](const std::string& token, const mgnify::detail::PageProgress& progress) {
      return self->fetch_staged(token, progress);
    };
  }

 private:
  mgnify::Page<int> fetch(const std::string& token) {
    std::unique_lock<std::mutex> lock(mutex_);
    started_.push_back(token);
    ++running_;
    max_running_ = std::max(max_running_, running_);
    changed_.notify_all();
    hold(token, lock);
    --running_;
    ++finished_;
    changed_.notify_all();
    if (take_failure(token)) throw_failure(token);
    return pages_.at(token);
  }

  mgnify::Page<int> fetch_staged(const std::string& token,
                                 const mgnify::detail::PageProgress& progress) {
    mgnify::Page<int> page;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      started_.push_back(token);
      changed_.notify_all();
      if (take_failure(token)) throw_failure(token);
      page = pages_.at(token);
    }
    progress.received();
    progress.envelope(page);  // the envelope alone
    std::unique_lock<std::mutex> lock(mutex_);
    ++blocked_;
    changed_.notify_all();
    hold(token, lock);
    --blocked_;
    changed_.notify_all();
    return page;
  }

  std::shared_ptr<Gate> gate_of(const std::string& token) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = gates_.find(token);
    return it == gates_.end() ? nullptr : it->second;
  }
  // Holds at the token's gate, if any, without the list's lock, so that other
  // fetches and the test's waits go on meanwhile.
  void hold(const std::string& token, std::unique_lock<std::mutex>& lock) {
    const auto it = gates_.find(token);
    if (it == gates_.end()) return;
    const auto g = it->second;
    lock.unlock();
    g->hold();
    lock.lock();
  }

  // Called with the lock held.
  bool take_failure(const std::string& token) {
    auto it = failing_.find(token);
    if (it == failing_.end() || it->second == 0) return false;
    if (it->second > 0) --it->second;
    return true;
  }
  [[noreturn]] void throw_failure(const std::string& token) const {
    mgnify::ApiErrorInfo info;
    info.status = 503;
    info.method = "GET";
    info.url = url_base_ + token;
    throw mgnify::ServerError(info);
  }

  const std::string url_base_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, mgnify::Page<int>> pages_;
  std::map<std::string, std::shared_ptr<Gate>> gates_;
  std::map<std::string, int> failing_;
  std::vector<std::string> started_;
  std::size_t running_ = 0;
  std::size_t max_running_ = 0;
  std::size_t finished_ = 0;
  std::size_t blocked_ = 0;
};

/// Walks `list` into `seen` until it ends or a page fails with a ServerError (as
/// a scripted failure does); the url of the failed page, if one did.
inline std::optional<std::string> walk_until_failure(mgnify::Paged<int>& list,
                                                     std::vector<int>& seen) {
  try {
    for (int v : list) seen.push_back(v);
  } catch (const mgnify::ServerError& e) {
    return e.url();
  }
  return std::nullopt;
}

}  // namespace mgnify::test
