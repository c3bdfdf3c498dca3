#pragma once

// One harness per client so that a single table of faults runs against the
// three services: a mock with that service's routes, a client on a fake clock
// (retries cost no real time), and three ways to call it -- a detail call, a
// list walk and a batch -- each reduced to "ids in order" so the outcome can be
// compared with the mock's own data.

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/options.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/result.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock/proteins/protein_data.hpp"
#include "mock/v1/data.hpp"
#include "mock/v2/v2_mock.hpp"
#include "mock_server.hpp"
#include "support/http_date.hpp"

namespace mgnify::test::faults {

using namespace std::chrono_literals;
using mgnify::mock::Fault;
using mgnify::mock::MockServer;

enum class Service { proteins, v1, v2 };

inline const char* service_name(Service s) {
  switch (s) {
    case Service::proteins:
      return "proteins";
    case Service::v1:
      return "v1";
    case Service::v2:
      return "v2";
  }
  return "?";
}

/// Attempts per call in every fault test: the "retry budget".
inline constexpr int kBudget = 4;

/// Thread-safe record of every log event's text.
class LogLines {
 public:
  mgnify::http::Logger logger() {
    return [this](const mgnify::http::LogEvent& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(std::string(mgnify::http::LogEvent::kind_name(e.kind)) + " " + e.method +
                       " " + e.url + " " + std::to_string(e.status) + " " + e.message);
    };
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

/// Where a fault is aimed: the request the next call will send.
struct Shot {
  MockServer& server;
  std::string path;         // as the mock routes it (no query)
  std::string url;          // absolute URL the client will request
  std::string wrong_shape;  // a 200 body of the wrong JSON shape for this call
  std::shared_ptr<mgnify::testing::FakeClock> clock;

  std::string query() const {
    const auto q = url.find('?');
    return q == std::string::npos ? "" : url.substr(q);
  }
  /// The same request on "localhost" instead of "127.0.0.1": another host to a client.
  std::string foreign_url() const {
    const std::string from = "127.0.0.1";
    std::string out = url;
    out.replace(out.find(from), from.size(), "localhost");
    return out;
  }
  std::string trailing_slash_url() const {
    const auto q = url.find('?');
    return q == std::string::npos ? url + "/" : url.substr(0, q) + "/" + url.substr(q);
  }
};

using mgnify::test::http_date;

/// Outcome of a list walk that is continued after a failed page.
struct WalkOutcome {
  std::vector<std::string> ids;
  std::exception_ptr error;                 // the first failure, if any
  std::optional<std::string> resume_token;  // Paged::resume_token() right after it
  std::size_t items_before_error = 0;
};

/// Called with the absolute URL of the next page, just before the walk fetches it.
using Injector = std::function<void(const std::string& next_url)>;

/// Walks `paged`; when the first page is used up, calls inject(next page URL).
/// A failed page is retried by begin() (at most 3 times), so the outcome tells
/// whether the walk, once the fault is gone, still yields every item exactly once.
template <class T, class Id, class NextUrl>
WalkOutcome walk_paged(mgnify::Paged<T>& paged, std::size_t page_size, Id id, NextUrl next_url,
                       const Injector& inject) {
  WalkOutcome out;
  int retries = 0;
  auto it = paged.begin();
  while (it != paged.end()) {
    out.ids.push_back(id(*it));
    if (out.ids.size() == page_size && inject) inject(next_url(paged));
    for (;;) {
      try {
        ++it;
        break;
      } catch (...) {
        if (!out.error) {
          out.error = std::current_exception();
          out.resume_token = paged.resume_token();
          out.items_before_error = out.ids.size();
        }
        // Plain exceptions, not REQUIRE: walks also run on worker threads,
        // where Catch's assertion macros are not safe to use.
        if (++retries > 3)
          throw std::runtime_error("the walk kept failing after the fault was gone");
        it = paged.begin();
        break;
      }
    }
    if (out.ids.size() > 100000) throw std::runtime_error("the walk does not end");
  }
  return out;
}

/// One client against its own mock, behind a uniform interface.
struct Harness {
  Service service;
  std::unique_ptr<MockServer> server;
  std::shared_ptr<mgnify::testing::FakeClock> clock =
      std::make_shared<mgnify::testing::FakeClock>();
  LogLines log;
  std::string token;

  /// Ids of the items the detail and batch calls address, in order.
  std::vector<std::string> items;
  /// The full list the walk yields, in order.
  std::vector<std::string> list_ids;
  std::size_t page_size = 0;
  std::string list_path;  // path of every page of the walk

  std::function<std::string(std::size_t)> detail;
  std::function<std::string(std::size_t)> item_path;
  std::function<std::string(std::size_t)> item_url;
  std::function<std::vector<mgnify::Result<std::string>>(const std::vector<std::size_t>&)> get_many;
  /// Walks the whole list (proteins: one search request, injected before it).
  std::function<WalkOutcome(const Injector&)> walk;
  std::string list_first_url;  // proteins: the search URL

  std::string detail_wrong_shape = "[1, 2, 3]";
  std::string list_wrong_shape;

  mgnify::ClientOptions options() {
    mgnify::ClientOptions o;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.retry.max_attempts = kBudget;
    o.retry.initial_backoff = 1ms;
    o.retry.max_backoff = 8ms;
    o.clock = clock;
    o.request_timeout = 10s;
    // Requests are counted exactly; read-ahead is exercised in concurrency_test.cpp.
    o.read_ahead = false;
    o.logger = log.logger();
    if (!token.empty()) o.token = token;
    return o;
  }

  Shot shot_item(std::size_t i) {
    return Shot{*server, item_path(i), item_url(i), detail_wrong_shape, clock};
  }
  Shot shot_list(const std::string& url) {
    return Shot{*server, list_path, url, list_wrong_shape, clock};
  }
};

inline std::string origin_path(const std::string& url) {
  // "http://127.0.0.1:P/x/y?q" -> "/x/y"
  const auto scheme = url.find("://");
  const auto slash = url.find('/', scheme + 3);
  const auto q = url.find('?', slash);
  return url.substr(slash, q == std::string::npos ? std::string::npos : q - slash);
}

struct Tweaks {
  std::function<void(mgnify::ClientOptions&)> options;
  bool with_token = true;
  MockServer::Options server;
};

std::unique_ptr<Harness> make_harness(Service service, const Tweaks& tweaks = {});

/// Every sample accession of the mock's big v1 study, in the mock's order.
inline std::vector<std::string> v1_big_study_samples() {
  std::vector<std::string> ids;
  for (std::size_t s = 0; s < mgnify::mock::v1data::kBigStudySamples; ++s) {
    ids.push_back(mgnify::mock::v1data::sample_accession(s));
  }
  return ids;
}

/// Every public v2 study accession of the mock, in the mock's order.
inline std::vector<std::string> v2_public_studies() {
  std::vector<std::string> ids;
  const auto& studies = mgnify::mock::v2data::dataset().studies;
  for (int i = 0; i < mgnify::mock::v2data::kPublicStudies; ++i) {
    ids.push_back(studies[static_cast<std::size_t>(i)].accession);
  }
  return ids;
}

}  // namespace mgnify::test::faults
