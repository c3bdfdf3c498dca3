#pragma once

// ProteinClient: the MGnify Protein lookup service
// (https://www.ebi.ac.uk/metagenomics/proteins/api/v1) as typed calls.
// Everything network-related (redirects, retries, throttling, error mapping)
// happens in the shared Session; this class adds accession handling, the
// superseded-record bookkeeping and the batch calls.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/call_forms.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/options.hpp"
#include "mgnify/proteins/accession.hpp"
#include "mgnify/proteins/defaults.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/proteins/search_query.hpp"
#include "mgnify/proteins/sequence_search.hpp"
#include "mgnify/result.hpp"
#include "mgnify/service_verbs.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

/// The Protein service client. The session, downloads and text reads come from
/// ServiceVerbs; see docs/clients.md.
//
// Programs name ProteinClient (below), which adds nothing to this template. The
// parameter is unused: it makes every member body a template, so that header-only, a
// file compiles only the bodies it calls, not all of them wherever the header is
// included. With MGNIFY_SEPARATE_COMPILATION the library holds BasicProteinClient<void>.
// The reference shows this class as ProteinClient (docs/doxygen_client_filter.py).
template <class = void>
class BasicProteinClient : public ServiceVerbs {
 public:
  /// Where MGnify's sequence-search service takes phmmer searches, on the
  /// origin of the Protein service's base URL (both live on www.ebi.ac.uk).
  static constexpr const char* kSequenceSearchPath = "/metagenomics/sequence-search/search/phmmer";

  explicit BasicProteinClient(ClientOptions options = {});

  /// Shares a session (and so its connection pool and rate limit) with other clients.
  explicit BasicProteinClient(std::shared_ptr<http::Session> session);

  /// URL of one record, for logs or for handing to another tool.
  std::string protein_url(const Accession& accession) const;
  std::string search_url(const SearchQuery& query) const;

  /// The record of one cluster representative. A superseded accession is
  /// followed to its replacement; the result then has `superseded_from` set.
  /// Throws NotFoundError (naming the accession) when there is no such representative.
  Protein protein(const Accession& accession, const CallOptions& call = {}) const;
  /// By the rule every client applies to a protein accession (mgnify/accession.hpp):
  /// "MGYP000261684433", "mgyp261684433"; the digits alone ("261684433") are deprecated.
  Protein protein(std::string_view accession, const CallOptions& call = {}) const {
    return protein(Accession(accession), call);
  }
  Protein protein(const char* accession, const CallOptions& call = {}) const {
    if (accession == nullptr) throw InvalidArgument("protein accession must not be null");
    return protein(Accession(accession), call);
  }
  [[deprecated("use protein(accession, call)")]] Protein get(const Accession& accession,
                                                             const CallOptions& call = {}) const {
    return protein(accession, call);
  }
  [[deprecated("use protein(accession, call)")]] Protein get(std::string_view accession,
                                                             const CallOptions& call = {}) const {
    return protein(accession, call);
  }
  [[deprecated("use protein(accession, call)")]] Protein get(const char* accession,
                                                             const CallOptions& call = {}) const {
    return protein(accession, call);
  }

  /// Accessions of the representatives matching the query, ordered by accession.
  std::vector<SearchHit> search(const SearchQuery& query, const CallOptions& call = {}) const;

  /// Fetches many records concurrently (BatchOptions::concurrency in flight,
  /// 0 meaning defaults::kConcurrency, all under the client's rate limit). One
  /// entry per input, in input order: a malformed accession is an
  /// InvalidArgument entry (no request is sent), an unknown one a
  /// NotFoundError entry; the rest of the batch is unaffected.
  std::vector<Result<Protein>> get_proteins(const std::vector<std::string>& accessions,
                                            const BatchOptions& batch = {},
                                            const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Protein>>, get_proteins, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Protein>> get_proteins(const std::vector<Accession>& accessions,
                                            const BatchOptions& batch = {},
                                            const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Protein>>, get_proteins, (BatchOptions()),
                        (const std::vector<Accession>& accessions, ), (accessions, ))
  [[deprecated("use get_proteins(accessions, batch, call)")]] std::vector<Result<Protein>> get_many(
      const std::vector<std::string>& accessions, const BatchOptions& batch = {},
      const CallOptions& call = {}) const {
    return get_proteins(accessions, batch, call);
  }
  [[deprecated("use get_proteins(accessions, batch, call)")]] std::vector<Result<Protein>> get_many(
      const std::vector<Accession>& accessions, const BatchOptions& batch = {},
      const CallOptions& call = {}) const {
    return get_proteins(accessions, batch, call);
  }

  /// Search, then fetch every hit's record: one entry per hit, in hit order.
  std::vector<Result<Protein>> search_and_fetch(const SearchQuery& query,
                                                const BatchOptions& batch = {},
                                                const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Protein>>, search_and_fetch, (BatchOptions()),
                        (const SearchQuery& query, ), (query, ))

  /// The URL sequence searches are POSTed to: the one set with
  /// set_sequence_search_url, else the base URL's origin + kSequenceSearchPath.
  std::string sequence_search_url() const;
  /// Sends sequence searches elsewhere (a mirror, a test server): an absolute
  /// http(s) URL, else InvalidArgument; empty goes back to the default.
  void set_sequence_search_url(std::string url) {
    if (!url.empty()) http::require_http_url(url);
    sequence_search_url_ = std::move(url);
  }

  /// phmmer with the query's sequence against MGnify's protein database:
  /// the hits, best first, as the service ranked them. The query was checked
  /// when it was built; the service's own refusal (a 4xx) is an ApiError with
  /// its detail. Sends no token. Cancelling ends the call with CancelledError.
  SequenceSearchResponse sequence_search(const SequenceSearchQuery& query,
                                         const CallOptions& call = {}) const;

  /// sequence_search, then every hit's record from the Protein service
  /// (get_proteins: concurrent, under the client's rate limit): one match per
  /// hit, in hit order, a hit without a record included with the reason
  /// (SequenceSearchMatch::record_missing()). `call` stops the search and the fetches alike.
  SequenceSearchWithRecords sequence_search_with_records(const SequenceSearchQuery& query,
                                                         const BatchOptions& batch = {},
                                                         const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(SequenceSearchWithRecords, sequence_search_with_records, (BatchOptions()),
                        (const SequenceSearchQuery& query, ), (query, ))

 private:
  std::string sequence_search_url_;
};

#if !MGNIFY_HEADER_ONLY
extern template class MGNIFY_API BasicProteinClient<void>;
#endif

// The Protein service client as programs name it; every member is BasicProteinClient's,
// documented there.
class ProteinClient : public BasicProteinClient<> {
 public:
  using BasicProteinClient::BasicProteinClient;
};

}  // namespace proteins
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/proteins/impl/client.ipp"
#endif
