#pragma once

// Bounded concurrency for batch calls (get_proteins, get_studies, ...). A small pool of worker
// threads, each running the ordinary blocking pipeline, was chosen over curl
// multi: every request keeps the exact retry, redirect and error semantics of a
// single call, the transport's pooled slots (each with its own connections) give
// connection reuse, and at MGnify's batch sizes (tens of requests in flight)
// thread cost is negligible next to network latency.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
/// Threads a batch starts at most, whatever concurrency is asked for: beyond
/// this a batch only queues on the rate limiter and the server.
inline constexpr std::size_t kMaxBatchThreads = 256;

namespace detail {

/// parallel_map with the way a thread is started left to `spawn` (a callable
/// taking the worker and returning a std::thread), so that a failure to start
/// one can be tested. If a thread cannot be started (std::system_error, for
/// example when the process is at its thread limit), the batch goes on with
/// the threads it has: the calling thread always works, so it still finishes.
template <class Spawn, class Fn>
auto parallel_map_with(Spawn&& spawn, std::size_t count, std::size_t concurrency, Fn fn)
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
  const std::size_t threads = std::min({concurrency, count, kMaxBatchThreads});
  std::vector<std::thread> pool;
  if (threads > 1) pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) {
    try {
      pool.push_back(spawn(worker));
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();  // the calling thread works too
  for (auto& th : pool) th.join();
  std::vector<Result<T>> out;
  out.reserve(count);
  for (auto& slot : slots) out.push_back(std::move(*slot));
  return out;
}

}  // namespace detail

/// Calls fn(i) for i in [0, count) on up to `concurrency` threads (at most
/// kMaxBatchThreads) and returns the outcomes in index order. An exception
/// from one call becomes that entry's failure; the others still run.
template <class Fn>
auto parallel_map(std::size_t count, std::size_t concurrency, Fn fn)
    -> std::vector<Result<std::invoke_result_t<Fn&, std::size_t>>> {
  return detail::parallel_map_with([](auto& worker) { return std::thread(std::ref(worker)); },
                                   count, concurrency, std::move(fn));
}

MGNIFY_NAMESPACE_END
