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

  // The COBS calls are templates over the client's result type, defined in the
  // .ipp: a separate-mode library compiles them once for each client (units/v2.hpp)
  // instead of every file that calls genome_search.
  template <class Result>
  Result cobs(const CobsQuery& query, const CancelToken& cancel) const;
  /// v2: the query as a JSON body.
  template <class Result>
  Result cobs_json(const CobsQuery& query, const CancelToken& cancel) const;
  /// v2 with a sequence file: the multipart form of the same fields.
  template <class Result>
  Result cobs_upload(const CobsQuery& query, const CancelToken& cancel) const;
  /// v1: the website's form fields (seq, threshold, repeated catalogues_filter),
  /// which carry no k-mer size or result limit.
  template <class Result>
  Result cobs_form(const CobsQuery& query, const CancelToken& cancel) const;

  GatherJob submit(const GatherRequest& request, const CancelToken& cancel) const;
  GatherStatus status(const std::string& job_id, const CancelToken& cancel) const;
  GatherStatus wait(const std::string& job_id, const JobWaitOptions& options,
                    const CallOptions& call) const;
  GatherResults results(const std::string& job_id, const CancelToken& cancel) const;
  files::DownloadResult download_results(const std::string& job_id,
                                         const std::filesystem::path& path,
                                         const files::DownloadOptions& options,
                                         const CallOptions& call) const;

 private:
  /// The fields both services' forms share (threshold, repeated catalogues_filter), then the post.
  template <class Result>
  Result post_cobs_form(std::vector<http::FormPart> form, const CobsQuery& query,
                        const CancelToken& cancel) const;

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
