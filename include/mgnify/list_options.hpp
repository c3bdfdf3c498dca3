#pragma once

// ListOptions: how a list is walked (page size, first page, how many items),
// the same type for LegacyClient and V2Client lists. Which items a list holds
// is said by the filters, a separate argument, so the two never mix.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

struct ListOptions {
  /// Items asked for per request. Unset: V2Client asks for 100, LegacyClient
  /// sends nothing and the server serves its default (25). Each service has
  /// its own maximum (v2 100; v1 250, 1000 on per-analysis annotation lists),
  /// checked before any request. A server that serves fewer per page is followed.
  std::optional<int> page_size;
  /// The first page to fetch, from 1. A V2Client walk continues from its
  /// resume_token() (a page number); a LegacyClient walk from
  /// LegacyClient::follow(resume_token()). Cursor lists start only at 1.
  std::int64_t start_page = 1;
  /// Stop after this many items, however many pages that takes.
  std::optional<std::size_t> max_items;
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
                          "from its resume_token()");
  }
}

}  // namespace detail
}  // namespace v0
}  // namespace mgnify
