#pragma once

// Bodies of ServiceVerbs (mgnify/service_verbs.hpp).

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/service_verbs.hpp"

MGNIFY_NAMESPACE_BEGIN

MGNIFY_DECL ServiceVerbs::ServiceVerbs(std::shared_ptr<http::Session> session)
    : session_(std::move(session)) {
  if (!session_) throw InvalidArgument("a client needs a session");
}

MGNIFY_DECL files::DownloadResult ServiceVerbs::download(const std::string& url,
                                                         const std::filesystem::path& path,
                                                         const files::DownloadOptions& options,
                                                         const CallOptions& call) const {
  return files::download(*session_, url, path, options, call);
}

MGNIFY_DECL std::vector<Result<files::DownloadResult>> ServiceVerbs::download_many(
    const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch,
    files::BatchProgressCallback bytes_progress, const CallOptions& call) const {
  return files::download_many(*session_, jobs, batch, std::move(bytes_progress), {}, call);
}

MGNIFY_DECL http::TextBody ServiceVerbs::read_text(const std::string& url,
                                                   const std::string& accept,
                                                   const CallOptions& call) const {
  return http::read_text(*session_, url, accept, call);
}

MGNIFY_DECL http::StreamResult ServiceVerbs::stream_text(const std::string& url,
                                                         const std::string& accept,
                                                         const http::BodySink& sink,
                                                         const http::StreamOptions& options,
                                                         const CallOptions& call) const {
  return http::stream_text(*session_, url, accept, sink, options, call);
}

MGNIFY_NAMESPACE_END
