#pragma once

// BatchOptions: how the clients' batch calls (get_proteins, search_and_fetch, the
// v2 get_* lists of accessions) run: how many at once, and progress. A batch
// is stopped like any other call, through its CallOptions.

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/error.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// Called after each item of a batch, failed or not, never concurrently.
using BatchProgressFn = std::function<void(std::size_t done, std::size_t total)>;

struct BatchOptions {
  /// Requests in flight at once, all under the client's rate limit; 0 means
  /// the client's default. At most kMaxBatchThreads run at once.
  std::size_t concurrency = 0;
  BatchProgressFn progress;
};

namespace detail {

/// The call options of a batch's steps: `call`'s, its deadline moved into the
/// one token every step shares, so that it counts from the batch's start.
/// Once that token is stopped, requests in flight end within
/// CancelToken::kPollInterval and items not started send nothing; each of
/// those entries holds the call's error, the finished ones keep their results.
inline CallOptions batch_call(const CallOptions& call) {
  CallOptions out = call;
  out.cancel = call.token();
  out.deadline.reset();  // now in the token
  return out;
}

/// Runs fetch(i, item_call) for every item as `options` says, one Result per
/// item in order, each item's call options batch_call(call).
template <class Fetch>
auto run_batch(std::size_t count, const BatchOptions& options, std::size_t default_concurrency,
               const CallOptions& call, Fetch fetch)
    -> std::vector<Result<std::invoke_result_t<Fetch&, std::size_t, const CallOptions&>>> {
  using T = std::invoke_result_t<Fetch&, std::size_t, const CallOptions&>;
  const std::size_t concurrency =
      options.concurrency > 0 ? options.concurrency : default_concurrency;
  if (concurrency == 0) throw InvalidArgument("concurrency must be at least 1");
  const CallOptions item_call = batch_call(call);
  std::mutex progress_mutex;
  std::size_t done = 0;
  return parallel_map(count, concurrency, [&](std::size_t i) -> T {
    // Progress is reported whether the item succeeded or not, so a progress
    // line always reaches the total.
    struct Report {
      std::mutex& mutex;
      std::size_t& done;
      std::size_t total;
      const BatchProgressFn& callback;
      ~Report() {
        if (!callback) return;
        std::lock_guard<std::mutex> lock(mutex);
        ++done;
        try {
          callback(done, total);
        } catch (...) {
          // A failing progress display must not turn a fetched item into a failure.
        }
      }
    } report{progress_mutex, done, count, options.progress};
    throw_if_stopped(item_call.cancel, "batch item " + std::to_string(i));
    return fetch(i, item_call);
  });
}

}  // namespace detail
MGNIFY_NAMESPACE_END
