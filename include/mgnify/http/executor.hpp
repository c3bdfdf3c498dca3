#pragma once

// Bounded concurrency for batch calls (get_many). A small pool of worker
// threads, each running the ordinary blocking pipeline, was chosen over curl
// multi: every request keeps the exact retry, redirect and error semantics of a
// single call, the pooled easy handles plus the shared connection cache give
// connection reuse, and at MGnify's batch sizes (tens of requests in flight)
// thread cost is negligible next to network latency.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

/// Calls fn(i) for i in [0, count) on up to `concurrency` threads and returns
/// the outcomes in index order. An exception from one call becomes that
/// entry's failure; the others still run.
template <class Fn>
auto parallel_map(std::size_t count, std::size_t concurrency, Fn fn)
    -> std::vector<Result<std::invoke_result_t<Fn&, std::size_t>>> {
  using T = std::invoke_result_t<Fn&, std::size_t>;
  if (concurrency == 0) throw InvalidArgument("concurrency must be at least 1");
  std::vector<std::optional<Result<T>>> slots(count);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        slots[i].emplace(fn(i));
      } catch (...) {
        slots[i].emplace(Result<T>::failure(std::current_exception()));
      }
    }
  };
  const std::size_t threads = std::min(concurrency, count);
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();  // the calling thread works too
    for (auto& th : pool) th.join();
  }
  std::vector<Result<T>> out;
  out.reserve(count);
  for (auto& slot : slots) out.push_back(std::move(*slot));
  return out;
}

}  // namespace http
}  // namespace v0
}  // namespace mgnify
