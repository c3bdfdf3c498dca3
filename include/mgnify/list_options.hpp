#pragma once

// ListOptions: how a list is walked (page size, first page, how many items,
// the walk's per-call options), the same type for LegacyClient and V2Client
// lists. Which items a list holds is said by the filters, a separate
// argument, so the two never mix.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mgnify/call_options.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

struct ListOptions {
  /// Items asked for per request. Unset: V2Client asks for 100, LegacyClient
  /// sends nothing and the server serves its default (25). Each service has
  /// its own maximum (v2 100; v1 250, 1000 on per-analysis annotation lists),
  /// checked before any request. A server that serves fewer per page is followed.
  std::optional<int> page_size;
  /// The first page to fetch, from 1. Cursor lists start only at 1.
  std::int64_t start_page = 1;
  /// Stop after this many items, however many pages that takes.
  std::optional<std::size_t> max_items;
  /// Continues a walk that stopped: the resume_token() of a Paged from the
  /// same list call (same method, ids and filters), of either API, saved as
  /// it was. The walk starts at the page that failed, so no item is skipped
  /// or repeated. Not together with start_page. (Last, and braced, so that
  /// aggregate initialisation of the fields above still compiles cleanly.)
  std::optional<std::string> resume_token{};
  /// The walk's per-call options, as every other blocking call takes them:
  /// `cancel` ends the walk (a page request in flight is aborted, no further
  /// page is requested, the iterator throws CancelledError); `deadline` bounds
  /// the whole walk, every page included (past it, TransportError of kind
  /// timeout); `bypass_cache` goes with every page request. A list call sends
  /// nothing itself, so these take effect once the walk starts.
  /// Paged::cancel() still ends the walk too.
  CallOptions call{};
};

namespace detail {

/// What one list accepts; ListOptions are checked against it before any request.
struct ListLimits {
  /// Names the service in messages ("v1", "v2").
  const char* service;
  int max_page_size;
  /// False for cursor lists, which can only start at their first page.
  bool numbered_pages = true;
};

inline void validate(const ListOptions& list, const ListLimits& limits) {
  if (list.page_size && (*list.page_size < 1 || *list.page_size > limits.max_page_size)) {
    throw InvalidArgument(std::string("page_size must be between 1 and ") +
                          std::to_string(limits.max_page_size) + " for this " + limits.service +
                          " list, got " + std::to_string(*list.page_size));
  }
  if (list.start_page < 1) {
    throw InvalidArgument("start_page must be at least 1, got " + std::to_string(list.start_page));
  }
  if (list.start_page != 1 && !limits.numbered_pages) {
    throw InvalidArgument(std::string("this ") + limits.service +
                          " list is cursor-paginated and starts only at page 1; continue a walk "
                          "with ListOptions::resume_token");
  }
  if (list.resume_token && list.start_page != 1) {
    throw InvalidArgument(
        "ListOptions::resume_token names the page to start from; leave "
        "start_page at 1");
  }
  if (list.resume_token && list.resume_token->empty()) {
    throw InvalidArgument("ListOptions::resume_token is empty");
  }
}

}  // namespace detail
MGNIFY_NAMESPACE_END
