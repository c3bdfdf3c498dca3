#pragma once

// The one place where the clients build their walks: a WalkSpec says how the
// pages are fetched and how far ahead, and make_walk turns it into a Paged.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "mgnify/detail/page_engine.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

template <class T>
struct WalkSpec {
  std::string first_token;
  StagedPageFetcher<T> fetch;
  std::optional<std::size_t> max_items;
  /// Fetch ahead of the caller; the fetch function must then be thread-safe.
  bool read_ahead = false;
  /// Pages fetched at once when reading ahead.
  std::size_t window = 1;
  /// Counted and predicted walks need `token_at`; predicted ones may `check`.
  WalkMode mode = WalkMode::link;
  PageTokenAt<T> token_at;
  PageCheck<T> check;
  /// Checks every page in list order before it is used (see PageVerify).
  PageVerify<T> verify;
};

struct PagedAccess {
  template <class T>
  static Paged<T> make(std::unique_ptr<PageEngine<T>> engine) {
    return Paged<T>(std::move(engine));
  }
  template <class T>
  static PageEngine<T>& engine(Paged<T>& paged) {
    return *paged.engine_;
  }
};

template <class T>
Paged<T> make_walk(WalkSpec<T> spec) {
  auto engine = std::make_unique<PageEngine<T>>(std::move(spec.first_token), std::move(spec.fetch),
                                                spec.max_items);
  if (spec.read_ahead) engine->set_read_ahead(true, spec.window);
  if (spec.mode != WalkMode::link) {
    engine->set_mode(spec.mode, std::move(spec.token_at), spec.window, std::move(spec.check));
  }
  if (spec.verify) engine->set_verify(std::move(spec.verify));
  return PagedAccess::make(std::move(engine));
}

/// A link walk that fetches nothing ahead.
template <class T>
Paged<T> make_walk(std::string first_token, StagedPageFetcher<T> fetch,
                   std::optional<std::size_t> max_items = std::nullopt) {
  WalkSpec<T> spec;
  spec.first_token = std::move(first_token);
  spec.fetch = std::move(fetch);
  spec.max_items = max_items;
  return make_walk(std::move(spec));
}

/// The engine of a walk, for tests and diagnostics.
template <class T>
PageEngine<T>& walk_engine(Paged<T>& paged) {
  return PagedAccess::engine(paged);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
