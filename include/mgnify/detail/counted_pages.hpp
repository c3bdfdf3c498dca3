#pragma once

// The arithmetic of a counted walk: pages numbered from 1, each answer
// carrying the list's total (`count`). A server may serve fewer items per page
// than asked for (django-ninja clamps page_size to a maximum that is a
// deployment setting), so the page size that decides where the list ends is
// the one the server shows, not the one requested. Every page is checked
// against the total and that size (and, where the service states it, the
// number of pages); a page that does not fit, or a total that changes, is a
// ListChangedError, never a quietly shorter walk.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// Shared by the fetches of one walk, which may run on several threads.
class CountedPages {
 public:
  /// The largest `count` believed. MGnify's largest lists hold well under a
  /// billion items; a total beyond this is a broken or hostile answer, and
  /// trusting it would plan billions of page requests.
  static constexpr std::int64_t kMaxListCount = 10'000'000'000;

  /// `requested_size`: the page size asked for; nullopt when the request
  /// left it to the server's default.
  explicit CountedPages(std::optional<std::int64_t> requested_size) : requested_(requested_size) {}

  /// Checks page `page`, which held `items` items of `count` (in `pages`
  /// pages, where the service says), against the pages accepted before it.
  /// Returns the number of the page that follows, or nullopt after the last one.
  std::optional<std::int64_t> accept(std::int64_t page, std::int64_t items, std::int64_t count,
                                     const std::string& url,
                                     std::optional<std::int64_t> pages = std::nullopt) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string here = std::to_string(page);
    if (count < 0 || items < 0 || page < 1) {
      throw ListChangedError(url, here, "page " + here + " reports a negative count");
    }
    if (count > kMaxListCount) {
      throw DecodeError("count", url,
                        "a list of " + std::to_string(count) +
                            " items is beyond any MGnify list (at most " +
                            std::to_string(kMaxListCount) + " accepted)");
    }
    if (count_ && count != *count_) {
      throw ListChangedError(url, here,
                             "the total went from " + std::to_string(*count_) + " to " +
                                 std::to_string(count) + " before page " + here);
    }
    if (!size_) {
      size_ = settled_ ? settled_ : first_size(page, items, count, pages);
      if (!size_) {
        throw ListChangedError(url, here,
                               "page " + here + " held " + std::to_string(items) + " of " +
                                   std::to_string(count) + " items, which no page size explains");
      }
      count_ = count;
    }
    if (pages && *pages != page_count(*size_, count)) {
      throw ListChangedError(url, here,
                             "page " + here + " states " + std::to_string(*pages) +
                                 " pages where " + std::to_string(count) + " items in pages of " +
                                 std::to_string(*size_) + " make " +
                                 std::to_string(page_count(*size_, count)));
    }
    const std::int64_t expected = expected_items(page, *size_, count);
    if (items != expected) {
      throw ListChangedError(url, here,
                             "page " + here + " held " + std::to_string(items) + " items where " +
                                 std::to_string(count) + " in all, in pages of " +
                                 std::to_string(*size_) + ", leave " + std::to_string(expected));
    }
    if (page == std::numeric_limits<std::int64_t>::max() || !exists(page + 1, *size_, count)) {
      return std::nullopt;
    }
    return page + 1;
  }

  /// Whether page `page` holds items, once a page has been accepted (false before).
  bool has_page(std::int64_t page) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return size_ && count_ && exists(page, *size_, *count_);
  }

  /// The two page sizes a walk's first page fits when it is not page 1 and
  /// the service states no number of pages: one under which it is the list's
  /// last page, one under which more pages follow. Only the next page can tell
  /// them apart (empty, or not), so the walk looks at it before going on.
  struct SizeChoice {
    std::int64_t if_last;
    std::int64_t if_more;
  };

  /// The choice the first page of a walk leaves open, or nullopt when that
  /// page alone decides the server's page size (or nothing has to be decided
  /// any more).
  std::optional<SizeChoice> open_size_choice(std::int64_t page, std::int64_t items,
                                             std::int64_t count) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (size_ || settled_ || page <= 1 || items <= 0 || count <= items ||
        page == std::numeric_limits<std::int64_t>::max()) {
      return std::nullopt;
    }
    const auto last_under = [&](std::int64_t size) {
      return size > 0 && expected_items(page, size, count) == items &&
             !exists(page + 1, size, count);
    };
    std::optional<std::int64_t> if_last;
    if (requested_ && last_under(*requested_)) {
      if_last = *requested_;
    } else if ((count - items) % (page - 1) == 0) {
      const std::int64_t last_of = (count - items) / (page - 1);
      if ((!requested_ || last_of < *requested_) && last_under(last_of)) if_last = last_of;
    }
    const bool more_under_own_length =
        expected_items(page, items, count) == items && exists(page + 1, items, count);
    if (!if_last || !more_under_own_length || *if_last == items) return std::nullopt;
    return SizeChoice{*if_last, items};
  }

  /// Fixes the server's page size before the first page is accepted, from what
  /// the page after it showed (see open_size_choice).
  void settle_size(std::int64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!size_) settled_ = size;
  }

  /// The server's page size, once a page has been accepted.
  std::optional<std::int64_t> server_size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return size_;
  }

 private:
  // Items before page `page` in pages of `size`, saturated so that hostile
  // page numbers and totals cannot overflow.
  static std::int64_t offset(std::int64_t page, std::int64_t size) {
    if (page <= 1) return 0;
    if (page - 1 > std::numeric_limits<std::int64_t>::max() / size) {
      return std::numeric_limits<std::int64_t>::max();
    }
    return (page - 1) * size;
  }
  static bool exists(std::int64_t page, std::int64_t size, std::int64_t count) {
    return offset(page, size) < count;
  }
  static std::int64_t expected_items(std::int64_t page, std::int64_t size, std::int64_t count) {
    const std::int64_t before = offset(page, size);
    return before >= count ? 0 : std::min(size, count - before);
  }

  // Pages the service counts for `count` items (an empty list has one, empty, page).
  static std::int64_t page_count(std::int64_t size, std::int64_t count) {
    return count == 0 ? 1 : count / size + (count % size != 0 ? 1 : 0);
  }

  // The first page seen decides the page size. A short page that is not the
  // last one means the server's size is smaller than requested. A walk
  // resumed at a later page may begin on a short page that fits more than
  // one size; where the service states no number of pages the caller settles
  // that from the next page first (open_size_choice), and otherwise the
  // stated number of pages rules sizes out. Left to itself, the order is the
  // requested size (the page is the list's last), then the page's own length
  // (more pages follow; if that is wrong, the next page does not fit and the
  // walk fails loudly instead of ending early), then a clamped size under
  // which it is the last page.
  std::optional<std::int64_t> first_size(std::int64_t page, std::int64_t items, std::int64_t count,
                                         std::optional<std::int64_t> pages) const {
    if (requested_ && items > *requested_) return std::nullopt;
    std::int64_t candidates[3] = {0, 0, 0};
    int n = 0;
    if (requested_ && expected_items(page, *requested_, count) == items) {
      candidates[n++] = *requested_;
    } else if (!requested_ && items == 0 && count == 0) {
      candidates[n++] = 1;  // an empty list fits any size
    }
    if (items > 0 && expected_items(page, items, count) == items) candidates[n++] = items;
    if (page > 1 && items > 0 && count > items && (count - items) % (page - 1) == 0) {
      const std::int64_t last_of = (count - items) / (page - 1);
      if (last_of > items && (!requested_ || last_of < *requested_)) candidates[n++] = last_of;
    }
    for (int i = 0; i < n; ++i) {
      if (!pages || *pages == page_count(candidates[i], count)) return candidates[i];
    }
    return std::nullopt;
  }

  const std::optional<std::int64_t> requested_;
  mutable std::mutex mutex_;
  std::optional<std::int64_t> count_;
  std::optional<std::int64_t> size_;
  std::optional<std::int64_t> settled_;
};

}  // namespace detail
MGNIFY_NAMESPACE_END
