#pragma once

// Bodies of CurlTransport (mgnify/http/curl_transport.hpp): everything that
// calls libcurl.

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/transport.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {
namespace detail {

// curl_global_init is not thread-safe and must run once per process; a
// function-local static gives exactly that. Cleanup is left to process exit
// because other libraries in the program may still use curl.
MGNIFY_DECL void ensure_curl_global_init() {
  static const bool initialised = [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw TransportError(TransportError::Kind::other, 0, "", "curl_global_init failed");
    }
    return true;
  }();
  (void)initialised;
}

MGNIFY_DECL TransportError::Kind classify_curl_error(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
      return TransportError::Kind::connect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportError::Kind::timeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
      return TransportError::Kind::tls;
    case CURLE_SEND_ERROR:
      return TransportError::Kind::send;
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportError::Kind::receive;
    case CURLE_FILESIZE_EXCEEDED:
      return TransportError::Kind::body_too_large;
    default:
      return TransportError::Kind::other;
  }
}

struct ExchangeBuffers {
  std::string body;
  Headers headers;
  std::size_t max_body = 0;
  bool too_large = false;
  // Streaming (Request::body_sink): whether to stream is decided on the first
  // body byte, when the final status and all headers are known.
  CURL* handle = nullptr;
  const BodySink* sink = nullptr;
  const std::string* url = nullptr;
  bool decided = false;
  bool streaming = false;
  bool sink_refused = false;
  bool sized = false;
  std::exception_ptr sink_error;
  Response head;
};

inline constexpr std::size_t kMaxReserve = std::size_t{8} << 20;

extern "C" MGNIFY_DECL std::size_t mgnify_curl_write(char* data, std::size_t size,
                                                     std::size_t count, void* user) {
  auto* buffers = static_cast<ExchangeBuffers*>(user);
  const std::size_t n = size * count;
  if (buffers->sink && !buffers->decided) {
    buffers->decided = true;
    long status = 0;
    curl_easy_getinfo(buffers->handle, CURLINFO_RESPONSE_CODE, &status);
    buffers->streaming = status >= 200 && status < 300;
    if (buffers->streaming) {
      buffers->head.status = static_cast<int>(status);
      buffers->head.headers = buffers->headers;
      buffers->head.url = *buffers->url;
    }
  }
  if (buffers->streaming) {
    // Exceptions must not unwind through libcurl's C frames.
    try {
      if ((*buffers->sink)(buffers->head, data, n)) return n;
      buffers->sink_refused = true;
    } catch (...) {
      buffers->sink_error = std::current_exception();
    }
    return 0;
  }
  if (buffers->body.size() + n > buffers->max_body) {
    buffers->too_large = true;
    return 0;  // makes curl abort with CURLE_WRITE_ERROR
  }
  if (!buffers->sized) {
    // One allocation for the announced length instead of a dozen regrowths
    // (and copies) of a page of several hundred KB. The header is the peer's
    // word, so at most kMaxReserve up front: a body beyond it grows as it
    // arrives. Compressed bodies announce less than they inflate to, which
    // costs the usual regrowth past that point.
    buffers->sized = true;
    curl_off_t announced = -1;
    if (curl_easy_getinfo(buffers->handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) ==
            CURLE_OK &&
        announced > 0)
      buffers->body.reserve(
          std::min({static_cast<std::size_t>(announced), buffers->max_body, kMaxReserve}) +
          kBodyPadding);
  }
  buffers->body.append(data, n);
  return n;
}

extern "C" MGNIFY_DECL std::size_t mgnify_curl_header(char* data, std::size_t size,
                                                      std::size_t count, void* user) {
  auto* buffers = static_cast<ExchangeBuffers*>(user);
  const std::size_t n = size * count;
  std::string_view line(data, n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    buffers->headers.clear();  // a new status line: 100-continue or a proxy CONNECT came first
    return n;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  buffers->headers.add(std::string(line.substr(0, colon)), std::string(value));
  return n;
}

/// One CURLSH shared by a transport's handles, with the locks libcurl requires
/// when handles of different threads use it. Connections are deliberately not
/// in it (see the top of this file).
class CurlShare {
 public:
  CurlShare() : share_(curl_share_init()) {
    if (!share_) throw TransportError(TransportError::Kind::other, 0, "", "curl_share_init failed");
    curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &CurlShare::lock);
    curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, &CurlShare::unlock);
    curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  ~CurlShare() { curl_share_cleanup(share_); }
  CurlShare(const CurlShare&) = delete;
  CurlShare& operator=(const CurlShare&) = delete;

  CURLSH* get() const noexcept { return share_; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<CurlShare*>(user)->mutex_for(data).lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<CurlShare*>(user)->mutex_for(data).unlock();
  }
  std::mutex& mutex_for(curl_lock_data data) {
    const auto index = static_cast<std::size_t>(data);
    return mutexes_[index < mutexes_.size() ? index : 0];
  }

  CURLSH* share_;
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
};

// Every transfer runs on the slot's multi handle rather than through
// curl_easy_perform: that keeps the connection cache with the slot, and a
// cancellable request wakes up every kPollInterval to look at its token
// (curl's progress callback may come only once a second while a server is
// silent). Leaving a transfer mid-way closes its connection.
MGNIFY_DECL CURLcode perform_transfer(CURL* easy, CURLM* multi, const CancelToken& cancel,
                                      bool& cancelled, std::atomic<std::size_t>& in_flight_count) {
  struct InFlight {
    std::atomic<std::size_t>& count;
    explicit InFlight(std::atomic<std::size_t>& c) : count(c) { ++count; }
    ~InFlight() { --count; }
  } in_flight(in_flight_count);
  if (curl_multi_add_handle(multi, easy) != CURLM_OK) return CURLE_OUT_OF_MEMORY;
  const bool cancellable = cancel.can_be_cancelled();
  // Without a token the wait only bounds how long a poll may sleep; curl
  // wakes earlier for socket activity and its own timers.
  const int wait_ms = cancellable ? static_cast<int>(CancelToken::kPollInterval.count()) : 1000;
  CURLcode result = CURLE_OK;
  for (bool finished = false; !finished;) {
    if (cancellable && cancel.cancelled()) {
      cancelled = true;
      break;
    }
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      result = CURLE_OUT_OF_MEMORY;
      break;
    }
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg == CURLMSG_DONE) {
        result = message->data.result;
        finished = true;
      }
    }
    if (finished) break;
    if (running == 0) {
      result = CURLE_GOT_NOTHING;
      break;
    }
#if CURL_AT_LEAST_VERSION(7, 66, 0)
    curl_multi_poll(multi, nullptr, 0, wait_ms, nullptr);
#else
    curl_multi_wait(multi, nullptr, 0, wait_ms, nullptr);
#endif
  }
  curl_multi_remove_handle(multi, easy);
  return result;
}

// A multipart body: curl writes the boundary and Content-Type, and reads a
// file part from disk while sending (so a retry re-reads it).
MGNIFY_DECL curl_mime* build_mime(CURL* h, const Request& request) {
  curl_mime* mime = curl_mime_init(h);
  if (!mime) throw TransportError(TransportError::Kind::other, 0, request.url, "out of memory");
  std::unique_ptr<curl_mime, decltype(&curl_mime_free)> owned(mime, &curl_mime_free);
  for (const FormPart& part : request.form) {
    curl_mimepart* p = curl_mime_addpart(mime);
    CURLcode rc = p ? curl_mime_name(p, part.name.c_str()) : CURLE_OUT_OF_MEMORY;
    if (rc == CURLE_OK && part.file) {
      rc = curl_mime_filedata(p, part.file->string().c_str());
    } else if (rc == CURLE_OK) {
      rc = curl_mime_data(p, part.value.data(), part.value.size());
    }
    // filedata names the part after the path; an explicit filename wins.
    if (rc == CURLE_OK && !part.filename.empty()) {
      rc = curl_mime_filename(p, part.filename.c_str());
    }
    if (rc == CURLE_OK && !part.content_type.empty()) {
      rc = curl_mime_type(p, part.content_type.c_str());
    }
    if (rc != CURLE_OK) {
      throw TransportError(TransportError::Kind::other, rc, request.url,
                           "cannot build form part '" + part.name + "': " + curl_easy_strerror(rc));
    }
  }
  return owned.release();
}

}  // namespace detail

class CurlTransport::HandleLease {
 public:
  explicit HandleLease(CurlTransport& owner) : owner_(owner), slot_(owner.checkout()) {}
  ~HandleLease() { owner_.checkin(slot_); }
  HandleLease(const HandleLease&) = delete;
  HandleLease& operator=(const HandleLease&) = delete;
  const Slot& slot() const noexcept { return slot_; }

 private:
  CurlTransport& owner_;
  Slot slot_;
};

MGNIFY_DECL void CurlTransport::Slot::close() noexcept {
  if (multi) curl_multi_cleanup(static_cast<CURLM*>(multi));
  if (easy) curl_easy_cleanup(static_cast<CURL*>(easy));
  easy = nullptr;
  multi = nullptr;
}

MGNIFY_DECL CurlTransport::CurlTransport(CurlOptions options)
    : options_(std::move(options)), share_(std::make_unique<detail::CurlShare>()) {
  detail::ensure_curl_global_init();
}

MGNIFY_DECL CurlTransport::~CurlTransport() {
  for (Slot& slot : idle_) slot.close();
}

MGNIFY_DECL Response CurlTransport::send(const Request& request) {
  // A hand-built request reaches the transport without the session's checks.
  for (const FormPart& part : request.form) part.validate();
  HandleLease lease(*this);
  CURL* h = static_cast<CURL*>(lease.slot().easy);
  detail::ExchangeBuffers buffers;
  buffers.max_body = options_.max_body_bytes;
  buffers.handle = h;
  if (request.body_sink) {
    buffers.sink = &request.body_sink;
    buffers.url = &request.url;
  }

  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(nullptr,
                                                                          &curl_slist_free_all);
  for (const auto& [name, value] : request.headers) {
    const std::string line = name + ": " + value;
    curl_slist* appended = curl_slist_append(header_list.get(), line.c_str());
    if (!appended)
      throw TransportError(TransportError::Kind::other, 0, request.url, "out of memory");
    header_list.release();
    header_list.reset(appended);
  }
  // curl adds "Expect: 100-continue" to larger POSTs, costing a round trip.
  if (!request.headers.contains("Expect")) {
    curl_slist* appended = curl_slist_append(header_list.get(), "Expect:");
    if (appended) {
      header_list.release();
      header_list.reset(appended);
    }
  }

  char error_text[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_SHARE, share_->get());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);  // the session follows, and records, redirects
#if CURL_AT_LEAST_VERSION(7, 85, 0)
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  curl_easy_setopt(h, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
  if (request.body_sink) {
    // A streamed body is a file: it is stored as served, never decoded
    // (a .gz sent with Content-Encoding: gzip stays gzip, and Range
    // offsets count the bytes on disk).
    curl_easy_setopt(h, CURLOPT_HTTP_CONTENT_DECODING, 0L);
  } else {
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING,
                     "");  // every encoding this libcurl was built with
  }
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  // List pages run to hundreds of KB; with curl's 16 KB default a page takes
  // dozens of recv calls, each contending for the socket lock with the
  // sender (docs/performance.md, "Receiving bodies").
  curl_easy_setopt(h, CURLOPT_BUFFERSIZE, kReceiveBufferBytes);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout.count()));
  const auto total = request.timeout.count() > 0 ? request.timeout : options_.request_timeout;
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(total.count()));
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!options_.ca_bundle_path.empty()) {
    curl_easy_setopt(h, CURLOPT_CAINFO, options_.ca_bundle_path.c_str());
  }
  if (options_.http2) {
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  }
  curl_easy_setopt(h, CURLOPT_USERAGENT, options_.user_agent.c_str());
  // A streamed body goes to disk, not memory, so only buffered bodies are capped
  // (the write callback still caps a streamed request's error bodies).
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
                   static_cast<curl_off_t>(request.body_sink ? 0 : options_.max_body_bytes));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &detail::mgnify_curl_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &buffers);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &detail::mgnify_curl_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &buffers);

  switch (request.method) {
    case Method::get:
      curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
      break;
    case Method::head:
      curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
      break;
    case Method::post:
      curl_easy_setopt(h, CURLOPT_POST, 1L);
      break;
    default:
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method_name(request.method));
      break;
  }
  // Freed after the transfer; curl_mime_free also detaches it from the handle.
  std::unique_ptr<curl_mime, decltype(&curl_mime_free)> mime(nullptr, &curl_mime_free);
  if (!request.form.empty()) {
    mime.reset(detail::build_mime(h, request));
    curl_easy_setopt(h, CURLOPT_MIMEPOST, mime.get());
  } else if (request.method != Method::get && request.method != Method::head) {
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
  }

  const auto started = std::chrono::steady_clock::now();
  bool cancelled = false;
  const CURLcode rc = detail::perform_transfer(h, static_cast<CURLM*>(lease.slot().multi),
                                               request.cancel, cancelled, in_flight_);
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);

  if (cancelled) throw CancelledError(request.url);
  if (buffers.sink_error) std::rethrow_exception(buffers.sink_error);
  if (rc != CURLE_OK) {
    if (buffers.sink_refused) {
      throw TransportError(TransportError::Kind::other, rc, request.url,
                           "the body sink stopped the transfer");
    }
    if (buffers.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
      throw TransportError(TransportError::Kind::body_too_large, rc, request.url,
                           "response body exceeds the limit of " +
                               std::to_string(options_.max_body_bytes) + " bytes");
    }
    std::string message = error_text[0] ? error_text : curl_easy_strerror(rc);
    throw TransportError(detail::classify_curl_error(rc), rc, request.url, message);
  }

  Response response;
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  response.headers = std::move(buffers.headers);
  response.body = std::move(buffers.body);
  response.url = request.url;
  response.elapsed = elapsed;
  return response;
}

MGNIFY_DECL CurlTransport::Slot CurlTransport::checkout() {
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (!idle_.empty()) {
      Slot slot = idle_.back();
      idle_.pop_back();
      return slot;
    }
    ++created_;
  }
  Slot slot;
  slot.easy = curl_easy_init();
  slot.multi = curl_multi_init();
  if (!slot.easy || !slot.multi) {
    slot.close();
    throw TransportError(TransportError::Kind::other, 0, "", "curl_easy_init failed");
  }
  curl_multi_setopt(static_cast<CURLM*>(slot.multi), CURLMOPT_MAXCONNECTS,
                    kMaxIdleConnectionsPerSlot);
  return slot;
}

MGNIFY_DECL void CurlTransport::checkin(const Slot& slot) {
  // reset drops per-request options (headers, body pointers); the slot's
  // connections stay in its multi handle.
  curl_easy_reset(static_cast<CURL*>(slot.easy));
  std::lock_guard<std::mutex> lock(pool_mutex_);
  idle_.push_back(slot);
}

}  // namespace http
MGNIFY_NAMESPACE_END
