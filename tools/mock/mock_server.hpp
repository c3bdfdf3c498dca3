#pragma once

// A local stand-in for the three MGnify services: a cpp-httplib server on
// loopback with an ephemeral port, used in-process by tests and as the
// `mgnify-mock` binary by the demo and the benchmarks. Each service registers
// its own routes (tools/mock/proteins, v1, v2) through register_*_routes; this core
// adds request recording, added latency and scripted faults per path.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace httplib {
class Server;
}

namespace mgnify::mock {

inline constexpr const char* kProteinsPrefix = "/metagenomics/proteins/api/v1";
// MGnify's sequence-search service (HMMER web), beside the Protein service.
inline constexpr const char* kSequenceSearchPrefix = "/metagenomics/sequence-search";
inline constexpr const char* kV1Prefix = "/metagenomics/api/v1";
inline constexpr const char* kV2Prefix = "/metagenomics/api/v2";

/// One scripted misbehaviour, consumed by the next request to its path.
struct Fault {
  enum class Action {
    respond,   // answer with status/body/headers below instead of the real route
    truncate,  // send the real (or given) body's headers, then only half of it, then close
    drop,      // send headers with a Content-Length, then close without a body byte
    hang,      // sleep `latency` then answer normally (for timeouts)
    pass       // only add latency / count; the real route answers
  };
  Action action = Action::respond;
  int status = 500;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds latency{0};

  static Fault status_only(int status, std::string body = "{\"detail\": \"injected\"}") {
    Fault f;
    f.status = status;
    f.body = std::move(body);
    return f;
  }
  static Fault throttled(std::optional<std::string> retry_after) {
    Fault f;
    f.status = 429;
    f.body = "{\"detail\": \"Request was throttled.\"}";
    if (retry_after) f.headers.emplace_back("Retry-After", *retry_after);
    return f;
  }
  static Fault html(int status) {
    Fault f;
    f.status = status;
    f.content_type = "text/html";
    f.body = "<html><head><title>" + std::to_string(status) +
             " Bad Gateway</title></head><body><h1>" + std::to_string(status) +
             " Bad Gateway</h1><p>The proxy server received an invalid response.</p></body></html>";
    return f;
  }
  static Fault redirect(int status, std::string location) {
    Fault f;
    f.status = status;
    f.body.clear();
    f.headers.emplace_back("Location", std::move(location));
    return f;
  }
  static Fault truncated() {
    Fault f;
    f.action = Action::truncate;
    return f;
  }
  static Fault dropped() {
    Fault f;
    f.action = Action::drop;
    return f;
  }
  static Fault slow(std::chrono::milliseconds latency) {
    Fault f;
    f.action = Action::hang;
    f.latency = latency;
    return f;
  }
};

struct RecordedRequest {
  std::string method;
  std::string path;    // decoded path as routed
  std::string target;  // raw request target (path and query exactly as sent)
  std::multimap<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

class MockServer {
 public:
  struct Options {
    std::string host = "127.0.0.1";
    int port = 0;                          // 0: an ephemeral port
    std::chrono::milliseconds latency{0};  // added to every request, as a sleep
    std::size_t threads = 32;              // worker pool; must exceed the concurrency under test
    bool compression = true;               // gzip/brotli when the client accepts them
    /// Non-empty: a line per request, "<Unix time in microseconds> TAB <method>
    /// TAB <target>", appended to this file as the request arrives, so that a
    /// test of several client processes can count the requests per second.
    std::string request_log;
    /// Non-zero: each transfer of a listed file (v2 /pub/ paths and /files/)
    /// sends at most this many bytes per second, so that a test can stop a
    /// client in the middle of a file.
    std::size_t file_bytes_per_second = 0;
  };

  MockServer();
  explicit MockServer(Options options);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  /// Binds and serves in a background thread; returns once it accepts connections.
  void start();
  /// Ends what is being served at once (see pause()) and waits for it.
  void stop();

  /// Waits `duration`, or less when stop() is called: the mock's latencies and
  /// slow responses wait here, so that stopping never waits for them.
  template <class Rep, class Period>
  void pause(std::chrono::duration<Rep, Period> duration) {
    std::unique_lock<std::mutex> lock(stop_mutex_);
    stop_cv_.wait_for(lock, duration, [this] { return stopping_; });
  }

  int port() const noexcept { return port_; }
  /// "http://127.0.0.1:PORT"
  std::string origin() const;
  std::string proteins_url() const { return origin() + kProteinsPrefix; }
  std::string v1_url() const { return origin() + kV1Prefix; }
  std::string v2_url() const { return origin() + kV2Prefix; }

  httplib::Server& server() noexcept { return *server_; }

  /// Queues a fault for the next request whose path (no query) equals `path`.
  void push_fault(const std::string& path, Fault fault);
  /// Queues the same fault `times` times.
  void push_faults(const std::string& path, const Fault& fault, int times);
  void clear_faults();
  void set_latency(std::chrono::milliseconds latency) { latency_ms_ = latency.count(); }
  void set_compression(bool on) { compression_ = on; }
  std::size_t file_bytes_per_second() const { return options_.file_bytes_per_second; }

  std::size_t hits(const std::string& path) const;
  std::vector<RecordedRequest> requests() const;
  void clear_requests();

 private:
  void install_core_routes();

  Options options_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<long long> latency_ms_{0};
  std::atomic<bool> compression_{true};
  mutable std::mutex mutex_;
  std::map<std::string, std::deque<Fault>> faults_;
  std::map<std::string, std::size_t> hits_;
  std::vector<RecordedRequest> requests_;
  std::ofstream request_log_;
  // Recording starts before httplib reads a request body; the logger, which
  // runs after the response is sent, fills the body in. Keyed by the Request
  // object's address; requests() waits (briefly) for these.
  mutable std::map<const void*, std::size_t> pending_bodies_;
  mutable std::condition_variable bodies_cv_;
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
};

// Each service's mock library (tools/mock/<service>/) defines its registration
// function; tests call the one they need before start(), the binary calls all.
void register_proteins_routes(MockServer& server);
/// Called by register_proteins_routes; the phmmer search of
/// tools/mock/proteins/sequence_search.cpp.
void register_sequence_search_routes(MockServer& server);
void register_v1_routes(MockServer& server);
void register_v2_routes(MockServer& server);
/// The v2 routes build their data set on the first request that needs it, which takes a
/// second or more under the sanitizers; a test that times the client's requests builds
/// it first with this. Safe to call from any thread, any number of times.
void prepare_v2_data();
void register_file_routes(MockServer& server);

}  // namespace mgnify::mock
