#pragma once

// What the genome search calls of both clients share (mgnify/genome_search.hpp): the loop that
// polls a gather job until it ends, and the reader of {"data": ...} envelopes.

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/genome_search/models.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

namespace detail {

/// Polls `poll()` until the status it returns is final, waiting
/// first_interval, then growing by multiplier up to max_interval, never past
/// the deadline: the call's (measured from now on `clock`, so that a
/// testing::FakeClock makes the waits instant), else kDefaultJobWaitBudget.
/// Past it, DeadlineExceededError naming the job. The call's token ends the
/// wait with CancelledError.
template <class Poll>
GatherStatus wait_for_job(http::Clock& clock, const std::string& job_id,
                          const JobWaitOptions& options, const CallOptions& call, Poll&& poll) {
  options.validate();
  using std::chrono::milliseconds;
  milliseconds budget = kDefaultJobWaitBudget;
  if (call.deadline) {
    budget = std::max(milliseconds(0), std::chrono::duration_cast<milliseconds>(
                                           *call.deadline - std::chrono::steady_clock::now()));
  }
  if (const auto& own = options.deadline.value()) budget = std::min(budget, *own);
  const CancelToken cancel = call.token();
  const auto started = clock.now();
  const auto end = started + budget;
  auto interval = std::chrono::duration<double, std::milli>(options.first_interval);
  const auto cap = std::chrono::duration<double, std::milli>(options.max_interval);
  std::string last_status = "not polled";
  const auto past_deadline = [&](int polls) {
    return DeadlineExceededError(job_id, last_status, polls,
                                 std::chrono::duration_cast<milliseconds>(clock.now() - started));
  };
  for (int polls = 1;; ++polls) {
    GatherStatus status;
    try {
      mgnify::detail::throw_if_stopped(cancel, "waiting for job " + job_id);
      status = poll();
    } catch (const DeadlineExceededError& e) {
      if (!e.job_id().empty()) throw;
      throw past_deadline(polls - 1);
    }
    last_status = status.status.text;
    if (options.on_status) options.on_status(status);
    if (status.finished()) return status;
    const auto now = clock.now();
    if (now >= end) throw past_deadline(polls);
    const auto pause = std::min(std::chrono::duration_cast<std::chrono::nanoseconds>(interval),
                                std::chrono::duration_cast<std::chrono::nanoseconds>(end - now));
    if (clock.sleep_or_cancel(pause, cancel)) {
      if (cancel.deadline_passed()) throw past_deadline(polls);
      mgnify::detail::throw_if_stopped(cancel, "waiting for job " + job_id);
    }
    interval = std::min(interval * options.multiplier, cap);
  }
}

/// The object under a {"data": ...} envelope (the whole document when there is none).
template <class T>
T decode_data(const std::string& body, const std::string& url) {
  const nlohmann::json doc = parse_body(body, url);
  if (doc.is_object()) {
    const auto it = doc.find("data");
    if (it != doc.end()) {
      try {
        return decode<T>(*it, url);
      } catch (const DecodeError& e) {
        throw DecodeError("/data" + e.json_path(), url, e.detail());
      }
    }
  }
  return decode<T>(doc, url);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
