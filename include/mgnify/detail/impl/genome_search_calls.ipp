#pragma once

// Bodies of the genome search calls (mgnify/detail/genome_search_calls.hpp)
// that do not depend on the client's COBS result type.

#include <filesystem>
#include <locale>
#include <sstream>
#include <string>

#include "mgnify/config.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL GatherJob GenomeSearchCalls::submit(const GatherRequest& request,
                                                const CancelToken& cancel) const {
  request.validate();
  const auto response =
      session_.post_form(url("genomes-search/gather"), request.to_form(), call(cancel));
  return decode_data<GatherJob>(response.body, response.url);
}

MGNIFY_DECL GatherStatus GenomeSearchCalls::status(const std::string& job_id,
                                                   const CancelToken& cancel) const {
  const auto response = session_.get(job_url("genomes-search/status/", job_id), call(cancel));
  return decode_data<GatherStatus>(response.body, response.url);
}

MGNIFY_DECL GatherStatus GenomeSearchCalls::wait(const std::string& job_id,
                                                 const JobWaitOptions& options,
                                                 const CancelToken& cancel) const {
  job_url("genomes-search/status/", job_id);  // InvalidArgument before the first poll
  return wait_for_job(session_.clock(), job_id, options, cancel,
                      [&] { return status(job_id, cancel); });
}

MGNIFY_DECL GatherResults GenomeSearchCalls::results(const std::string& job_id,
                                                     const CancelToken& cancel) const {
  const std::string target = job_url("genomes-search/results/", job_id);
  http::Request request;
  request.url = target;
  request.headers.set("Accept", "text/csv");
  const auto response = session_.execute(std::move(request), call(cancel));
  const auto type = response.headers.get("Content-Type");
  if (type && type->find("csv") == std::string::npos) {
    throw DecodeError("", response.url,
                      "the results are served as '" + *type +
                          "', not CSV: save them with download_gather_results");
  }
  return parse_gather_csv(response.body, response.url);
}

MGNIFY_DECL files::DownloadResult GenomeSearchCalls::download_results(
    const std::string& job_id, const std::filesystem::path& path,
    const files::DownloadOptions& options, const CallOptions& call) const {
  return files::download(session_, job_url("genomes-search/results/", job_id), path, options,
                         call);
}

MGNIFY_DECL http::RequestOptions GenomeSearchCalls::call(const CancelToken& cancel) {
  http::RequestOptions out;
  out.send_token = false;
  out.cancel = cancel;
  // A job's status and results change while the caller waits; a stored
  // answer would be replayed to every later poll.
  out.use_cache = false;
  return out;
}
MGNIFY_DECL std::string GenomeSearchCalls::number_text(double value) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}
MGNIFY_DECL std::string GenomeSearchCalls::url(const std::string& path) const {
  return session_.url(path + dialect_.slash);
}
MGNIFY_DECL std::string GenomeSearchCalls::job_url(const char* head,
                                                   const std::string& job_id) const {
  if (job_id.empty()) throw InvalidArgument("job_id must not be empty");
  return session_.url(head + http::encode_path_segment(job_id) + dialect_.slash);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
