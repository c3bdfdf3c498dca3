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

#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/form.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
    return post_cobs_form<Result>(std::move(form), query, cancel);
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
    return post_cobs_form<Result>(std::move(form), query, cancel);
  }

  GatherJob submit(const GatherRequest& request, const CancelToken& cancel) const;
  GatherStatus status(const std::string& job_id, const CancelToken& cancel) const;
  GatherStatus wait(const std::string& job_id, const JobWaitOptions& options,
                    const CancelToken& cancel) const;
  GatherResults results(const std::string& job_id, const CancelToken& cancel) const;
  files::DownloadResult download_results(const std::string& job_id,
                                         const std::filesystem::path& path,
                                         const files::DownloadOptions& options,
                                         const CallOptions& call) const;

 private:
  /// The fields both services' forms share (threshold, repeated catalogues_filter), then the post.
  template <class Result>
  Result post_cobs_form(std::vector<http::FormPart> form, const CobsQuery& query,
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

  static http::RequestOptions call(const CancelToken& cancel);
  static std::string number_text(double value);
  std::string url(const std::string& path) const;
  std::string job_url(const char* head, const std::string& job_id) const;

  http::Session& session_;
  GenomeSearchDialect dialect_;
};

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/genome_search_calls.ipp"
#endif
