// A cancel token given to a batch (v2 and v1 get_studies, proteins
// search_and_fetch, download_many) or a download stops it while the server hangs: control
// comes back within half a second, no transfer stays open, unfinished items
// say CancelledError and a partial download keeps its .part.

#include "mgnify/cancel.hpp"

#include <httplib.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/options.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock_server.hpp"
#include "support/gate.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using mgnify::test::Gate;

class HangingServer {
 public:
  HangingServer() {
    mock_.server().Get(std::string(mgnify::mock::kV2Prefix) + R"(/studies/(MGYS\d+))",
                       [this](const httplib::Request& req, httplib::Response& res) {
                         gate_.hold();
                         res.set_content("{\"accession\": \"" + req.matches[1].str() + "\"}",
                                         "application/json");
                       });
    mock_.server().Get(std::string(mgnify::mock::kV1Prefix) + R"(/studies/(MGYS\d+))",
                       [this](const httplib::Request& req, httplib::Response& res) {
                         gate_.hold();
                         res.set_content(R"({"data": {"type": "studies", "id": ")" +
                                             req.matches[1].str() + R"(", "attributes": {}}})",
                                         "application/vnd.api+json");
                       });
    // Four hits, or a search that hangs too (hang_search).
    mock_.server().Get(std::string(mgnify::mock::kProteinsPrefix) + "/protein/search",
                       [this](const httplib::Request&, httplib::Response& res) {
                         if (hang_search_) gate_.hold();
                         std::string hits = "[";
                         for (int i = 1; i <= 4; ++i) {
                           if (i > 1) hits += ",";
                           hits += R"({"mgyp": "MGYP00000000000)" + std::to_string(i) + "\"}";
                         }
                         res.set_content(hits + "]", "application/json");
                       });
    mock_.server().Get(std::string(mgnify::mock::kProteinsPrefix) + R"(/protein/(MGYP\d+))",
                       [this](const httplib::Request& req, httplib::Response& res) {
                         gate_.hold();
                         res.set_content(R"({"mgyp": ")" + req.matches[1].str() + "\"}",
                                         "application/json");
                       });
    // 1 MB announced; 64 KB sent, then nothing until the gate opens.
    mock_.server().Get("/files/big.bin", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content_provider(std::size_t{1} << 20, "application/octet-stream",
                               [this](std::size_t offset, std::size_t, httplib::DataSink& sink) {
                                 if (offset == 0) {
                                   const std::string chunk(64 * 1024, 'x');
                                   sink.write(chunk.data(), chunk.size());
                                   return true;
                                 }
                                 gate_.hold();
                                 return false;
                               });
    });
    mock_.start();
  }
  ~HangingServer() { gate_.open(); }

  mgnify::ClientOptions options() { return options_at(mock_.v2_url()); }
  mgnify::ClientOptions v1_options() { return options_at(mock_.v1_url()); }
  mgnify::ClientOptions proteins_options() { return options_at(mock_.proteins_url()); }
  void hang_search() { hang_search_ = true; }
  mgnify::ClientOptions options_at(const std::string& base_url) {
    mgnify::ClientOptions o;
    o.base_url = base_url;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.transport = transport_;
    return o;
  }
  std::string origin() const { return mock_.origin(); }
  Gate& gate() { return gate_; }
  std::size_t open_transfers() const { return transport_->transfers_in_flight(); }

 private:
  Gate gate_;
  std::atomic<bool> hang_search_{false};
  mgnify::mock::MockServer mock_;
  std::shared_ptr<mgnify::http::CurlTransport> transport_ =
      std::make_shared<mgnify::http::CurlTransport>();
};

// A single call stopped through its per-call options while the server holds
// the request: control comes back within half a second, no transfer stays open.
template <class Call>
void check_cancelled_in_flight(HangingServer& server, Call call) {
  mgnify::CallOptions options;
  options.cancel = mgnify::CancelToken();
  Clock::time_point cancelled_at{};
  std::thread canceller([&] {
    if (server.gate().wait_held(1)) {
      cancelled_at = Clock::now();
      options.cancel.cancel();
    }
  });
  CHECK_THROWS_AS(call(options), mgnify::CancelledError);
  const auto returned_at = Clock::now();
  canceller.join();
  REQUIRE(cancelled_at != Clock::time_point{});
  CHECK(std::chrono::duration<double>(returned_at - cancelled_at).count() < 0.5);
  CHECK(server.open_transfers() == 0);
}

// A call given a 300 ms deadline while the server never answers: a timeout
// TransportError once the time is up, not before and not much after.
template <class Call>
void check_deadline_expires(HangingServer& server, Call call) {
  const auto budget = 300ms;
  const auto started = Clock::now();
  mgnify::CallOptions options;
  options.timeout(budget);
  bool timed_out = false;
  try {
    call(options);
  } catch (const mgnify::TransportError& e) {
    timed_out = e.kind() == mgnify::TransportError::Kind::timeout;
    CHECK_THAT(e.what(), Catch::Contains("deadline"));
  }
  const auto took = Clock::now() - started;
  CHECK(timed_out);
  CHECK(took >= budget);
  CHECK(took < budget + 500ms);
  CHECK(server.gate().wait_held(1));  // the request did reach the server
  CHECK(server.open_transfers() == 0);
}

// Cancels `token` from another thread once `held` requests hang at the server's
// gate; check_prompt(), right after the cancelled call, checks that the call
// returned within half a second of the cancel.
class CancelWhenHeld {
 public:
  CancelWhenHeld(HangingServer& server, int held, mgnify::CancelToken token)
      : canceller_([this, &server, held, token]() mutable {
          if (server.gate().wait_held(held)) {
            cancelled_at_ = Clock::now();
            token.cancel();
          }
        }) {}
  CancelWhenHeld(const CancelWhenHeld&) = delete;
  CancelWhenHeld& operator=(const CancelWhenHeld&) = delete;
  ~CancelWhenHeld() {
    if (canceller_.joinable()) canceller_.join();
  }

  void check_prompt() {
    const auto returned_at = Clock::now();
    canceller_.join();
    REQUIRE(cancelled_at_ != Clock::time_point{});
    CHECK(std::chrono::duration<double>(returned_at - cancelled_at_).count() < 0.5);
  }

 private:
  Clock::time_point cancelled_at_{};
  std::thread canceller_;
};

// A batch of six lookups on two workers, cancelled once both wait on the server:
// every item ends cancelled, each reported to progress, within half a second.
template <class Client>
void check_batch_cancelled(HangingServer& server, const Client& client) {
  std::vector<std::string> accessions;
  for (int i = 1; i <= 6; ++i) accessions.push_back("MGYS0000000" + std::to_string(i));
  mgnify::BatchOptions batch;
  batch.concurrency = 2;
  const mgnify::CancelToken cancel;
  std::size_t progress_calls = 0;
  batch.progress = [&](std::size_t, std::size_t) { ++progress_calls; };
  CancelWhenHeld canceller(server, 2, cancel);  // both workers wait on the server
  const auto results = client.get_studies(accessions, batch, cancel);
  canceller.check_prompt();
  REQUIRE(results.size() == accessions.size());
  for (const auto& r : results) {
    REQUIRE_FALSE(r.ok());
    CHECK_THROWS_AS(r.value(), mgnify::CancelledError);
  }
  CHECK(progress_calls == accessions.size());
  CHECK(server.open_transfers() == 0);
}

}  // namespace

TEST_CASE("cancel: a batch stops with every unfinished item cancelled", "[faults][cancel]") {
  HangingServer server;
  check_batch_cancelled(server, mgnify::v2::V2Client(server.options()));
}

TEST_CASE("cancel: a download stops mid-body and keeps its .part", "[faults][cancel]") {
  HangingServer server;
  mgnify::http::Session session(mgnify::with_default_transport(server.options()), "");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mgnify-cancel-" + std::to_string(::getpid()) + "-" +
                    std::to_string(Clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "big.bin";
  const mgnify::CancelToken cancel;
  Clock::time_point cancelled_at{};
  const auto part = path.string() + ".part";
  std::thread canceller([&] {
    if (!server.gate().wait_held(1)) return;
    // Cancel once the bytes sent so far are on disk, so the test knows what the .part holds.
    std::error_code ec;
    for (int i = 0; i < 500 && std::filesystem::file_size(part, ec) != 64 * 1024; ++i) {
      std::this_thread::sleep_for(10ms);
    }
    cancelled_at = Clock::now();
    cancel.cancel();
  });
  CHECK_THROWS_AS(
      mgnify::files::download(session, server.origin() + "/files/big.bin", path, {}, cancel),
      mgnify::CancelledError);
  const auto returned_at = Clock::now();
  canceller.join();
  REQUIRE(cancelled_at != Clock::time_point{});
  CHECK(std::chrono::duration<double>(returned_at - cancelled_at).count() < 0.5);
  CHECK_FALSE(std::filesystem::exists(path));
  REQUIRE(std::filesystem::exists(part));
  CHECK(std::filesystem::file_size(part) == 64 * 1024);
  CHECK(server.open_transfers() == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cancel: download_many stops through its CallOptions, keeping the .part files",
          "[faults][cancel]") {
  HangingServer server;
  mgnify::v2::V2Client client(server.options());
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mgnify-cancel-many-" + std::to_string(::getpid()) + "-" +
                    std::to_string(Clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir);
  std::vector<mgnify::files::DownloadJob> jobs(4);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].url = server.origin() + "/files/big.bin";
    jobs[i].path = dir / ("big-" + std::to_string(i) + ".bin");
  }
  mgnify::BatchOptions batch;
  batch.concurrency = 2;
  const mgnify::CancelToken cancel;
  std::vector<std::pair<std::size_t, std::size_t>> files_done;
  batch.progress = [&](std::size_t done, std::size_t total) {
    files_done.emplace_back(done, total);
  };
  mgnify::files::BatchProgress last_bytes;
  Clock::time_point cancelled_at{};
  std::thread canceller([&] {
    if (!server.gate().wait_held(2)) return;  // jobs 0 and 1 are mid-body
    // Cancel once the bytes sent so far are on disk, so the test knows what the .part files hold.
    std::error_code ec;
    for (int i = 0; i < 500; ++i) {
      if (std::filesystem::file_size(jobs[0].path.string() + ".part", ec) == 64 * 1024 &&
          std::filesystem::file_size(jobs[1].path.string() + ".part", ec) == 64 * 1024) {
        break;
      }
      std::this_thread::sleep_for(10ms);
    }
    cancelled_at = Clock::now();
    cancel.cancel();
  });
  const auto results = client.download_many(
      jobs, batch, [&](const mgnify::files::BatchProgress& p) { last_bytes = p; }, cancel);
  const auto returned_at = Clock::now();
  canceller.join();
  REQUIRE(cancelled_at != Clock::time_point{});
  CHECK(std::chrono::duration<double>(returned_at - cancelled_at).count() < 0.5);
  REQUIRE(results.size() == jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(i);
    REQUIRE_FALSE(results[i].ok());
    CHECK_THROWS_AS(results[i].value(), mgnify::CancelledError);
    CHECK_FALSE(std::filesystem::exists(jobs[i].path));
  }
  // The two started transfers keep what they received; the two never started wrote nothing.
  for (std::size_t i : {0, 1}) {
    const auto part = jobs[i].path.string() + ".part";
    REQUIRE(std::filesystem::exists(part));
    CHECK(std::filesystem::file_size(part) == 64 * 1024);
  }
  for (std::size_t i : {2, 3})
    CHECK_FALSE(std::filesystem::exists(jobs[i].path.string() + ".part"));
  REQUIRE(files_done.size() == jobs.size());
  for (std::size_t i = 0; i < files_done.size(); ++i) {
    CHECK(files_done[i] == std::make_pair(i + 1, jobs.size()));
  }
  CHECK(last_bytes.files_done == jobs.size());
  CHECK(last_bytes.files_failed == jobs.size());
  CHECK(server.open_transfers() == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cancel: a v1 batch stops with every unfinished item cancelled", "[faults][cancel]") {
  HangingServer server;
  check_batch_cancelled(server, mgnify::v1::LegacyClient(server.v1_options()));
}

TEST_CASE("cancel: search_and_fetch stops during a hung search", "[faults][cancel]") {
  HangingServer server;
  server.hang_search();
  mgnify::proteins::ProteinClient client(server.proteins_options());
  mgnify::BatchOptions batch;
  batch.concurrency = 2;
  const mgnify::CancelToken cancel;
  CancelWhenHeld canceller(server, 1, cancel);
  CHECK_THROWS_AS(
      client.search_and_fetch(mgnify::proteins::SearchQuery::by_biome_id(1), batch, cancel),
      mgnify::CancelledError);
  canceller.check_prompt();
  CHECK(server.open_transfers() == 0);
}

TEST_CASE("cancel: search_and_fetch stops with every unfinished fetch cancelled",
          "[faults][cancel]") {
  HangingServer server;
  mgnify::proteins::ProteinClient client(server.proteins_options());
  mgnify::BatchOptions batch;
  batch.concurrency = 2;
  const mgnify::CancelToken cancel;
  CancelWhenHeld canceller(server, 2, cancel);  // both workers wait on a record
  const auto results =
      client.search_and_fetch(mgnify::proteins::SearchQuery::by_biome_id(1), batch, cancel);
  canceller.check_prompt();
  REQUIRE(results.size() == 4);  // one entry per hit
  for (const auto& r : results) {
    REQUIRE_FALSE(r.ok());
    CHECK_THROWS_AS(r.value(), mgnify::CancelledError);
  }
  CHECK(server.open_transfers() == 0);
}

TEST_CASE("call options: cancel stops a protein get in flight", "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::proteins::ProteinClient client(server.proteins_options());
  check_cancelled_in_flight(server, [&](const mgnify::CallOptions& call) {
    return client.protein("MGYP000000000001", call);
  });
}

TEST_CASE("call options: cancel stops a v1 get in flight", "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v1::LegacyClient client(server.v1_options());
  check_cancelled_in_flight(
      server, [&](const mgnify::CallOptions& call) { return client.study("MGYS00000001", call); });
}

TEST_CASE("call options: cancel stops a v2 get in flight", "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v2::V2Client client(server.options());
  check_cancelled_in_flight(
      server, [&](const mgnify::CallOptions& call) { return client.study("MGYS00000001", call); });
}

TEST_CASE("call options: a deadline ends a protein get the server never answers",
          "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::proteins::ProteinClient client(server.proteins_options());
  check_deadline_expires(server, [&](const mgnify::CallOptions& call) {
    return client.protein("MGYP000000000001", call);
  });
}

TEST_CASE("call options: a deadline ends a v1 get the server never answers",
          "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v1::LegacyClient client(server.v1_options());
  check_deadline_expires(
      server, [&](const mgnify::CallOptions& call) { return client.study("MGYS00000001", call); });
}

TEST_CASE("call options: a deadline ends a v2 get the server never answers",
          "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v2::V2Client client(server.options());
  check_deadline_expires(
      server, [&](const mgnify::CallOptions& call) { return client.study("MGYS00000001", call); });
}

TEST_CASE("call options: a deadline ends a v2 batch, each unfinished item a timeout",
          "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v2::V2Client client(server.options());
  const std::vector<std::string> accessions{"MGYS00000001", "MGYS00000002", "MGYS00000003"};
  mgnify::BatchOptions batch;
  batch.concurrency = 2;
  mgnify::CallOptions call;
  call.timeout(300ms);
  const auto started = Clock::now();
  const auto results = client.get_studies(accessions, batch, call);
  const auto took = Clock::now() - started;
  CHECK(took < 800ms);
  REQUIRE(results.size() == accessions.size());
  for (const auto& r : results) {
    REQUIRE_FALSE(r.ok());
    try {
      (void)r.value();
      FAIL("an item of a timed-out batch has a value");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == mgnify::TransportError::Kind::timeout);
    }
  }
  CHECK(server.open_transfers() == 0);
}

TEST_CASE("call options: a deadline ends a download mid-body, nothing at the destination",
          "[faults][cancel][call-options]") {
  HangingServer server;
  const mgnify::v2::V2Client client(server.options());
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mgnify-deadline-" + std::to_string(::getpid()) + "-" +
                    std::to_string(Clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "big.bin";
  check_deadline_expires(server, [&](const mgnify::CallOptions& call) {
    return client.download(server.origin() + "/files/big.bin", path, {}, call);
  });
  // The destination only ever holds a complete, verified file; the bytes
  // received stay in the .part for a later call to resume.
  CHECK_FALSE(std::filesystem::exists(path));
  const auto part = mgnify::files::partial_path(path);
  REQUIRE(std::filesystem::exists(part));
  CHECK(std::filesystem::file_size(part) == 64 * 1024);
  std::filesystem::remove_all(dir);
}
