#pragma once

// ServiceVerbs: the calls every client makes the same way over its session
// (the session itself, downloads, any text URL), written once. ProteinClient,
// LegacyClient and V2Client derive from it publicly, so `client.download(...)`
// and `client.read_text(...)` are these very functions in all three; a client
// adds its own overloads beside them (a v1 Download record, a v2 DownloadFile).

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/config.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

class ServiceVerbs {
 public:
  /// Throws InvalidArgument when `session` is null.
  explicit ServiceVerbs(std::shared_ptr<http::Session> session);

  http::Session& session() const noexcept { return *session_; }
  /// The session itself, to share it (its connections, rate limit and token) with other code.
  std::shared_ptr<http::Session> shared_session() const noexcept { return session_; }
  const std::string& base_url() const noexcept { return session_->base_url(); }

  // Files (docs/downloads.md): streamed to <path>.part, resumed, verified, renamed.
  /// Downloads `url` over this client's session; the token goes only to the base URL's origin.
  files::DownloadResult download(const std::string& url, const std::filesystem::path& path,
                                 const files::DownloadOptions& options = {},
                                 const CallOptions& call = {}) const;
  /// Several downloads at once as `batch` says (concurrency, 0 meaning
  /// files::kDefaultDownloadConcurrency; files finished; cancel); one outcome
  /// per job, in order (files::download_many, which `bytes_progress` is passed to).
  std::vector<Result<files::DownloadResult>> download_many(
      const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch = {},
      files::BatchProgressCallback bytes_progress = {}, const CallOptions& call = {}) const;

  // As every text call of the clients: the read and its stream_ twin take the
  // same leading arguments (url, accept) in the same order; the stream adds
  // its sink and options; both end with the per-call options.

  /// Any text URL, read whole (bounded by ClientOptions::max_body_bytes); as
  /// with download(), the token goes only to the base URL's origin.
  http::TextBody read_text(const std::string& url, const std::string& accept = "*/*",
                           const CallOptions& call = {}) const;
  /// Any text URL, each chunk handed to `sink` (bounded by StreamOptions::max_bytes).
  http::StreamResult stream_text(const std::string& url, const std::string& accept,
                                 const http::BodySink& sink,
                                 const http::StreamOptions& options = {},
                                 const CallOptions& call = {}) const;
  /// Any text URL accepting any type ("*/*"), streamed.
  http::StreamResult stream_text(const std::string& url, const http::BodySink& sink,
                                 const http::StreamOptions& options = {},
                                 const CallOptions& call = {}) const {
    return stream_text(url, "*/*", sink, options, call);
  }
  /// The sink before the accepted type, unlike every other text call.
  [[deprecated("use stream_text(url, accept, sink, options, call)")]] http::StreamResult
  stream_text(const std::string& url, const http::BodySink& sink, const std::string& accept,
              const http::StreamOptions& options = {}, const CallOptions& call = {}) const {
    return stream_text(url, accept, sink, options, call);
  }

 protected:
  // A part of a client, not deleted through a pointer to it.
  ~ServiceVerbs() = default;
  ServiceVerbs(const ServiceVerbs&) = default;
  ServiceVerbs& operator=(const ServiceVerbs&) = default;
  ServiceVerbs(ServiceVerbs&&) noexcept = default;
  ServiceVerbs& operator=(ServiceVerbs&&) noexcept = default;

 private:
  std::shared_ptr<http::Session> session_;
};

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/service_verbs.ipp"
#endif
