#pragma once

// The one place where the clients build their walks: a WalkSpec says how the
// pages are fetched and how far ahead, and make_walk turns it and a fetch
// function into a Paged.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "mgnify/detail/page_engine.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

template <class T>
Paged<T> make_walk(WalkSpec spec, StagedPageFetcher<T> fetch) {
  return Paged<T>(std::move(spec), std::move(fetch));
}

/// A link walk that fetches nothing ahead.
template <class T>
Paged<T> make_walk(std::string first_token, StagedPageFetcher<T> fetch,
                   std::optional<std::size_t> max_items = std::nullopt) {
  WalkSpec spec;
  spec.first_token = std::move(first_token);
  spec.max_items = max_items;
  return make_walk<T>(std::move(spec), std::move(fetch));
}

template <class T>
const PageEngine& walk_engine(const Paged<T>& paged) {
  return *paged.engine_;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
