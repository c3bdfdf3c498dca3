#pragma once

// The genome search endpoints over a Session, for both clients: v1 and v2
// serve the same bodies and differ only in the trailing slash of their paths
// and in how COBS takes its query (v2 JSON, v1 form fields).
// These endpoints need no login, so no token is sent: a stale one would only
// earn a 401 for a public search.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/form.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace detail {

/// How a service takes the genome search requests.
struct GenomeSearchDialect {
  /// Ends every path: "/" for v2, "" for v1.
  const char* slash;
  /// v2 takes the COBS query as JSON; v1 as the website's form.
  bool cobs_as_form;
};
inline constexpr GenomeSearchDialect kV2GenomeSearch{"/", false};
inline constexpr GenomeSearchDialect kV1GenomeSearch{"", true};

class GenomeSearchCalls {
 public:
  GenomeSearchCalls(http::Session& session, GenomeSearchDialect dialect)
      : session_(session), dialect_(dialect) {}

  template <class Result>
  Result cobs(const CobsQuery& query, const CancelToken& cancel) const {
    return dialect_.cobs_as_form ? cobs_form<Result>(query, cancel)
                                 : cobs_json<Result>(query, cancel);
  }

  /// v2: the query as a JSON body.
  template <class Result>
  Result cobs_json(const CobsQuery& query, const CancelToken& cancel) const {
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

  /// v2 with a sequence file: the multipart form of the same fields.
  template <class Result>
  Result cobs_upload(const CobsQuery& query, const CancelToken& cancel) const {
    std::vector<http::FormPart> form{
        http::FormPart::file_at("sequence_file", *query.sequence_file, "text/plain")};
    if (query.kmer_size)
      form.push_back(http::FormPart::text("kmer_size", std::to_string(*query.kmer_size)));
    if (query.max_results) {
      form.push_back(http::FormPart::text("max_results", std::to_string(*query.max_results)));
    }
    if (query.threshold) {
      form.push_back(http::FormPart::text("threshold", number_text(*query.threshold)));
    }
    for (const auto& id : query.catalogues_filter) {
      form.push_back(http::FormPart::text("catalogues_filter", id));
    }
    const auto response = session_.post_form(url("genome-search"), std::move(form), call(cancel));
    return decode_data<Result>(response.body, response.url);
  }

  /// v1: the website's form fields (seq, threshold, repeated catalogues_filter),
  /// which carry no k-mer size or result limit.
  template <class Result>
  Result cobs_form(const CobsQuery& query, const CancelToken& cancel) const {
    query.validate();
    if (query.kmer_size || query.max_results) {
      throw InvalidArgument("the v1 genome search takes no kmer_size or max_results");
    }
    if (query.sequence_file) throw InvalidArgument("the v1 genome search takes no sequence_file");
    std::vector<http::FormPart> form{http::FormPart::text("seq", query.sequence)};
    if (query.threshold) {
      form.push_back(http::FormPart::text("threshold", number_text(*query.threshold)));
    }
    for (const auto& id : query.catalogues_filter) {
      form.push_back(http::FormPart::text("catalogues_filter", id));
    }
    const auto response = session_.post_form(url("genome-search"), std::move(form), call(cancel));
    return decode_data<Result>(response.body, response.url);
  }

  GatherJob submit(const GatherRequest& request, const CancelToken& cancel) const;
  GatherStatus status(const std::string& job_id, const CancelToken& cancel) const;
  GatherStatus wait(const std::string& job_id, const JobWaitOptions& options) const;
  GatherResults results(const std::string& job_id, const CancelToken& cancel) const;
  files::DownloadResult download_results(const std::string& job_id,
                                         const std::filesystem::path& path,
                                         const files::DownloadOptions& options) const;

 private:
  static http::CallOptions call(const CancelToken& cancel);
  static std::string number_text(double value);
  std::string url(const std::string& path) const;
  std::string job_url(const char* head, const std::string& job_id) const;

  http::Session& session_;
  GenomeSearchDialect dialect_;
};

/// The genome search methods of a client (V2Client, LegacyClient), written once.
/// `Client` provides genome_search_calls(); `SearchResult` is its COBS answer.
/// COBS is one call; sourmash gather is a job: submit_gather -> wait_for_gather
/// (or gather_status by hand) -> gather_results or download_gather_results.
/// None of them sends the token.
template <class Client, class SearchResult>
class GenomeSearchMethods {
 public:
  /// POST genome-search: genomes containing the query's k-mers, best first.
  SearchResult genome_search(const CobsQuery& query, const CallOptions& call = {}) const {
    return calls().template cobs<SearchResult>(query, call.token());
  }
  /// POST genomes-search/gather (multipart): one job per signature and catalogue.
  GatherJob submit_gather(const GatherRequest& request, const CallOptions& call = {}) const {
    return calls().submit(request, call.token());
  }
  /// GET genomes-search/status/{job_id}: one poll.
  GatherStatus gather_status(const std::string& job_id, const CallOptions& call = {}) const {
    return calls().status(job_id, call.token());
  }
  /// Polls until the job reaches a final state and returns that status (FAILED
  /// included). DeadlineExceededError past options.deadline, CancelledError on
  /// cancel; `call` stops the wait as options.cancel does.
  GatherStatus wait_for_gather(const std::string& job_id, const JobWaitOptions& options = {},
                               const CallOptions& call = {}) const {
    JobWaitOptions joined = options;
    joined.cancel = mgnify::detail::joined(options.cancel, call);
    return calls().wait(job_id, joined);
  }
  /// GET genomes-search/results/{job_id} as CSV rows (a signature's job id). A
  /// result served as a gzip tarball throws DecodeError: use download_gather_results.
  GatherResults gather_results(const std::string& job_id, const CallOptions& call = {}) const {
    return calls().results(job_id, call.token());
  }
  /// Saves genomes-search/results/{job_id} to `path` as served (CSV or gzip
  /// tarball) with the download machinery: .part file, resume, verification.
  files::DownloadResult download_gather_results(const std::string& job_id,
                                                const std::filesystem::path& path,
                                                const files::DownloadOptions& options = {},
                                                const CallOptions& call = {}) const {
    files::DownloadOptions joined = options;
    joined.cancel = mgnify::detail::joined(options.cancel, call);
    return calls().download_results(job_id, path, joined);
  }

 private:
  GenomeSearchCalls calls() const {
    return static_cast<const Client&>(*this).genome_search_calls();
  }
};

}  // namespace detail
}  // namespace v0
}  // namespace mgnify

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/genome_search_calls.ipp"
#endif
