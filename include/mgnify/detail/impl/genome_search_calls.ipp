#pragma once

// Bodies of the genome search calls (mgnify/detail/genome_search_calls.hpp): the
// calls every client shares, then the COBS calls, templates over the client's result
// type that the compiled library instantiates for both clients (units/v2.hpp).

#include <filesystem>
#include <locale>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/form.hpp"
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
                                                 const CallOptions& call) const {
  job_url("genomes-search/status/", job_id);  // InvalidArgument before the first poll
  const CancelToken cancel = call.token();
  return wait_for_job(session_.clock(), job_id, options, call,
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
  return files::download(session_, job_url("genomes-search/results/", job_id), path, options, call);
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

template <class Result>
Result GenomeSearchCalls::cobs(const CobsQuery& query, const CancelToken& cancel) const {
  return dialect_.cobs_as_form ? cobs_form<Result>(query, cancel)
                               : cobs_json<Result>(query, cancel);
}

template <class Result>
Result GenomeSearchCalls::cobs_json(const CobsQuery& query, const CancelToken& cancel) const {
  query.validate();
  if (query.sequence_file) return cobs_upload<Result>(query, cancel);
  nlohmann::json body = {{"sequence", query.sequence}};
  if (query.kmer_size) body["kmer_size"] = *query.kmer_size;
  if (query.max_results) body["max_results"] = *query.max_results;
  if (query.threshold) body["threshold"] = *query.threshold;
  if (!query.catalogues_filter.empty()) body["catalogues_filter"] = query.catalogues_filter;
  const auto response = session_.post_json(url("genome-search"), body, call(cancel));
  return decode_data<Result>(response.body, response.url);
}

template <class Result>
Result GenomeSearchCalls::cobs_upload(const CobsQuery& query, const CancelToken& cancel) const {
  std::vector<http::FormPart> form{
      http::FormPart::file_at("sequence_file", *query.sequence_file, "text/plain")};
  if (query.kmer_size)
    form.push_back(http::FormPart::text("kmer_size", std::to_string(*query.kmer_size)));
  if (query.max_results) {
    form.push_back(http::FormPart::text("max_results", std::to_string(*query.max_results)));
  }
  return post_cobs_form<Result>(std::move(form), query, cancel);
}

template <class Result>
Result GenomeSearchCalls::cobs_form(const CobsQuery& query, const CancelToken& cancel) const {
  query.validate();
  if (query.kmer_size || query.max_results) {
    throw InvalidArgument("the v1 genome search takes no kmer_size or max_results");
  }
  if (query.sequence_file) throw InvalidArgument("the v1 genome search takes no sequence_file");
  std::vector<http::FormPart> form{http::FormPart::text("seq", query.sequence)};
  return post_cobs_form<Result>(std::move(form), query, cancel);
}

template <class Result>
Result GenomeSearchCalls::post_cobs_form(std::vector<http::FormPart> form, const CobsQuery& query,
                                         const CancelToken& cancel) const {
  if (query.threshold) {
    form.push_back(http::FormPart::text("threshold", number_text(*query.threshold)));
  }
  for (const auto& id : query.catalogues_filter) {
    form.push_back(http::FormPart::text("catalogues_filter", id));
  }
  const auto response = session_.post_form(url("genome-search"), std::move(form), call(cancel));
  return decode_data<Result>(response.body, response.url);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
