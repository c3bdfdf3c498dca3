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
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/options.hpp"
#include "mgnify/proteins/accession.hpp"
#include "mgnify/proteins/fast_decode.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/proteins/search_query.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace proteins {

namespace detail {

/// The accession a visited URL names, for the superseded chain. Takes the
/// last path segment and keeps it when it parses; otherwise the URL itself
/// is kept so that no hop disappears from the record.
inline std::string accession_in_url(const std::string& url) {
  const auto parts = http::parse_url(url);
  std::string path = parts ? parts->path : url;
  while (!path.empty() && path.back() == '/') path.pop_back();
  const auto slash = path.rfind('/');
  const std::string last =
      http::percent_decode(slash == std::string::npos ? path : path.substr(slash + 1));
  if (Accession::is_valid(last)) return Accession(last).str();
  return url;
}

}  // namespace detail

class ProteinClient {
 public:
  static constexpr const char* kDefaultBaseUrl =
      "https://www.ebi.ac.uk/metagenomics/proteins/api/v1";
  static constexpr std::size_t kDefaultConcurrency = 8;

  explicit ProteinClient(ClientOptions options = {})
      : session_(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                 kDefaultBaseUrl)) {}

  /// Shares a session (and so its connection pool and rate limit) with other clients.
  explicit ProteinClient(std::shared_ptr<http::Session> session) : session_(std::move(session)) {
    if (!session_) throw InvalidArgument("ProteinClient needs a session");
  }

  http::Session& session() const noexcept { return *session_; }
  /// The session itself, to share it (its connections, rate limit and token) with other code.
  std::shared_ptr<http::Session> shared_session() const noexcept { return session_; }
  const std::string& base_url() const noexcept { return session_->base_url(); }

  /// URL of one record, for logs or for handing to another tool.
  std::string protein_url(const Accession& accession) const {
    return session_->url("protein/" + http::encode_path_segment(accession.str()));
  }
  std::string search_url(const SearchQuery& query) const {
    return session_->url("protein/search", query.to_query());
  }

  /// The record of one cluster representative. A superseded accession is
  /// followed to its replacement; the result then has `superseded_from` set.
  /// Throws NotFoundError (naming the accession) when there is no such representative.
  Protein get(const Accession& accession) const {
    http::CallOptions call;
    call.not_found_hint = accession.str() + " is not a protein cluster representative";
    const http::Response response = session_->get(protein_url(accession), call);
    Protein protein = mgnify::detail::decode_response_fast<Protein>(response);
    // A redirect alone does not mean superseded (a proxy may move http to
    // https); a record for another accession does.
    if (!response.redirects.empty() && Accession::is_valid(protein.mgyp) &&
        Accession(protein.mgyp) != accession) {
      protein.superseded_from = accession.str();
      for (const auto& hop : response.redirects) {
        std::string visited = detail::accession_in_url(hop);
        if (visited == protein.mgyp) continue;
        if (!protein.superseded_chain.empty() && protein.superseded_chain.back() == visited)
          continue;
        protein.superseded_chain.push_back(std::move(visited));
      }
      if (protein.superseded_chain.empty() || protein.superseded_chain.front() != accession.str()) {
        protein.superseded_chain.insert(protein.superseded_chain.begin(), accession.str());
      }
    }
    return protein;
  }
  /// Any tolerated form: "MGYP000261684433", "mgyp000261684433", "261684433".
  Protein get(std::string_view accession) const { return get(Accession(accession)); }
  Protein get(const char* accession) const {
    if (accession == nullptr) throw InvalidArgument("protein accession must not be null");
    return get(Accession(accession));
  }

  /// Accessions of the representatives matching the query, ordered by accession.
  std::vector<SearchHit> search(const SearchQuery& query) const {
    const http::Response response = session_->get(search_url(query));
    const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
    if (!doc.is_array()) {
      throw DecodeError("", response.url,
                        std::string("expected a JSON array of hits, got ") + doc.type_name());
    }
    std::vector<SearchHit> hits;
    hits.reserve(doc.size());
    std::size_t index = 0;
    for (const auto& element : doc) {
      try {
        hits.push_back(
            mgnify::detail::convert_at<SearchHit>(element, "/" + std::to_string(index++)));
      } catch (const DecodeError& e) {
        throw DecodeError(e.json_path(), response.url, e.detail());
      }
    }
    return hits;
  }

  /// Fetches many records concurrently (BatchOptions::concurrency in flight,
  /// 0 meaning kDefaultConcurrency, all under the client's rate limit). One
  /// entry per input, in input order: a malformed accession is an
  /// InvalidArgument entry (no request is sent), an unknown one a
  /// NotFoundError entry; the rest of the batch is unaffected.
  std::vector<Result<Protein>> get_many(const std::vector<std::string>& accessions,
                                        const BatchOptions& batch = {}) const {
    return mgnify::detail::run_batch(accessions.size(), batch, kDefaultConcurrency,
                                     [&](std::size_t i) { return get(Accession(accessions[i])); });
  }
  std::vector<Result<Protein>> get_many(const std::vector<Accession>& accessions,
                                        const BatchOptions& batch = {}) const {
    return mgnify::detail::run_batch(accessions.size(), batch, kDefaultConcurrency,
                                     [&](std::size_t i) { return get(accessions[i]); });
  }

  /// Search, then fetch every hit's record: one entry per hit, in hit order.
  std::vector<Result<Protein>> search_and_fetch(const SearchQuery& query,
                                                const BatchOptions& batch = {}) const {
    batch.cancel.throw_if_cancelled("protein search");
    const std::vector<SearchHit> hits = [&] {
      const mgnify::detail::CancelScope scope(batch.cancel);
      return search(query);
    }();
    std::vector<std::string> accessions;
    accessions.reserve(hits.size());
    for (const auto& hit : hits) accessions.push_back(hit.mgyp);
    return get_many(accessions, batch);
  }

 private:
  std::shared_ptr<http::Session> session_;
};

}  // namespace proteins
}  // namespace v0
}  // namespace mgnify
