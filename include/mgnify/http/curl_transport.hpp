#pragma once

// libcurl behind the Transport interface. Each pooled slot pairs an easy handle
// with a multi handle of its own, and the multi handle owns the slot's
// connection cache, so keep-alive connections survive between requests but are
// only ever touched by the one thread holding the slot: libcurl does not
// support sharing a connection cache between threads that transfer at the same
// time. DNS results and TLS sessions, which it does support sharing, are
// shared across the pool.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

struct CurlOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{120'000};
  std::string ca_bundle_path;
  std::size_t max_body_bytes = std::size_t{256} * 1024 * 1024;
  std::string user_agent = std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING;
  /// Negotiate HTTP/2 over TLS when the server offers it (plain HTTP stays 1.1).
  bool http2 = true;
};

namespace detail {
class CurlShare;
}  // namespace detail

class CurlTransport final : public Transport {
 public:
  /// Idle keep-alive connections each pooled slot keeps for reuse: the API
  /// host, a download host and a redirect target fit.
  static constexpr long kMaxIdleConnectionsPerSlot = 4;
  static constexpr long kReceiveBufferBytes = 256L * 1024;

  explicit CurlTransport(CurlOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  Response send(const Request& request) override;

  const CurlOptions& options() const noexcept { return options_; }

  /// Transfers running now, on any thread (for tests that nothing is left open).
  std::size_t transfers_in_flight() const noexcept {
    return in_flight_.load(std::memory_order_acquire);
  }

  /// Handles currently idle in the pool (for tests of reuse).
  std::size_t idle_handles() const {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    return idle_.size();
  }
  /// Easy handles created over the transport's life.
  std::size_t handles_created() const {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    return created_;
  }

 private:
  /// An easy handle and the multi handle that runs it and owns its
  /// connections; used by one thread at a time. Held as void pointers, which
  /// is what libcurl's CURL and CURLM are to its users, so that this header
  /// does not need curl.
  struct Slot {
    void* easy = nullptr;
    void* multi = nullptr;
    void close() noexcept;
  };
  class HandleLease;

  Slot checkout();
  void checkin(const Slot& slot);

  CurlOptions options_;
  std::unique_ptr<detail::CurlShare> share_;
  mutable std::mutex pool_mutex_;
  std::vector<Slot> idle_;
  std::size_t created_ = 0;
  std::atomic<std::size_t> in_flight_{0};
};

}  // namespace http
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/http/impl/curl_transport.ipp"
#endif
