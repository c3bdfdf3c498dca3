#pragma once

// ListOptions: how a list is walked (page size, first page, how many items),
// the same type for LegacyClient and V2Client lists. Which items a list holds
// is said by the filters, a separate argument, so the two never mix; how the
// call is stopped is said by its CallOptions, the last argument of every list
// call as of every other call.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mgnify/call_options.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

// ListOptions' own copies and moves of its deprecated member are not uses of
// it; a program that names the member is still warned.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

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
  /// Deprecated: pass the CallOptions as the list call's last argument, as
  /// every other call takes them. Still obeyed together with those: either
  /// token stops the walk, the earlier deadline ends it.
  [[deprecated("pass the list call's CallOptions as its last argument")]] CallOptions call{};
};

namespace detail {

/// The CallOptions of a list walk: the list call's `call`, joined with the
/// deprecated ListOptions::call when a program still sets it.
inline CallOptions list_call(const ListOptions& list, const CallOptions& call) {
  const CallOptions& former = list.call;
  if (!former.cancel.can_be_cancelled() && !former.deadline && !former.bypass_cache) return call;
  CallOptions out = call;
  if (former.cancel.can_be_cancelled()) {
    out.cancel = call.cancel.can_be_cancelled() ? call.cancel.child(former.cancel) : former.cancel;
  }
  if (former.deadline && (!out.deadline || *former.deadline < *out.deadline)) {
    out.deadline = former.deadline;
  }
  out.bypass_cache = out.bypass_cache || former.bypass_cache;
  return out;
}

}  // namespace detail

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

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
