#pragma once

// GenomeSearchVerbs: the genome search calls of LegacyClient and V2Client,
// written once. Both clients derive from it publicly; they differ only in the
// COBS answer type and in how their service takes the requests (the dialect).
// COBS is one call; sourmash gather is a job: submit_gather -> wait_for_gather
// (or gather_status by hand) -> gather_results or download_gather_results.
// None of them sends the token.

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "mgnify/call_options.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search/job_wait.hpp"
#include "mgnify/genome_search/models.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

template <class SearchResult>
class GenomeSearchVerbs {
 public:
  /// Throws InvalidArgument when `session` is null.
  GenomeSearchVerbs(std::shared_ptr<http::Session> session, detail::GenomeSearchDialect dialect)
      : session_(std::move(session)), dialect_(dialect) {
    if (!session_) throw InvalidArgument("a client needs a session");
  }

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
  /// included). `call`'s deadline (kDefaultJobWaitBudget when it has none)
  /// ends the wait with DeadlineExceededError naming the job; its token ends
  /// it, a pause or a poll in flight, with CancelledError.
  GatherStatus wait_for_gather(const std::string& job_id, const JobWaitOptions& options = {},
                               const CallOptions& call = {}) const {
    return calls().wait(job_id, options, call);
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
    return calls().download_results(job_id, path, options, call);
  }

 protected:
  // A part of a client, not deleted through a pointer to it.
  ~GenomeSearchVerbs() = default;
  GenomeSearchVerbs(const GenomeSearchVerbs&) = default;
  GenomeSearchVerbs& operator=(const GenomeSearchVerbs&) = default;
  GenomeSearchVerbs(GenomeSearchVerbs&&) noexcept = default;
  GenomeSearchVerbs& operator=(GenomeSearchVerbs&&) noexcept = default;

 private:
  detail::GenomeSearchCalls calls() const { return detail::GenomeSearchCalls(*session_, dialect_); }

  std::shared_ptr<http::Session> session_;
  detail::GenomeSearchDialect dialect_;
};

MGNIFY_NAMESPACE_END
