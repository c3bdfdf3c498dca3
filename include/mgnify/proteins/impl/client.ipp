#pragma once

// Bodies of ProteinClient (mgnify/proteins/client.hpp), with the decoders
// they instantiate.

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/proteins/accession.hpp"
#include "mgnify/proteins/client.hpp"
#include "mgnify/proteins/fast_decode.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/proteins/search_query.hpp"
#include "mgnify/proteins/sequence_search.hpp"
#include "mgnify/service_verbs.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

namespace detail {

/// The accession a visited URL names, for the superseded chain. Takes the
/// last path segment and keeps it when it parses; otherwise the URL itself
/// is kept so that no hop disappears from the record.
MGNIFY_DECL std::string accession_in_url(const std::string& url) {
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

template <class D>
BasicProteinClient<D>::BasicProteinClient(ClientOptions options)
    : ServiceVerbs(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                   defaults::kBaseUrl)) {}

template <class D>
BasicProteinClient<D>::BasicProteinClient(std::shared_ptr<http::Session> session)
    : ServiceVerbs(std::move(session)) {}

template <class D>
std::string BasicProteinClient<D>::protein_url(const Accession& accession) const {
  return session().url("protein/" + http::encode_path_segment(accession.str()));
}

template <class D>
std::string BasicProteinClient<D>::search_url(const SearchQuery& query) const {
  return session().url("protein/search", query.to_query());
}

template <class D>
Protein BasicProteinClient<D>::protein(const Accession& accession, const CallOptions& call) const {
  http::RequestOptions request = http::per_call(call);
  request.not_found_hint = accession.str() + " is not a protein cluster representative";
  const http::Response response = session().get(protein_url(accession), request);
  Protein protein = mgnify::detail::decode_response_fast<Protein>(response);
  // A redirect alone does not mean superseded (a proxy may move http to
  // https); a record for another accession does.
  if (!response.redirects.empty() && Accession::is_valid(protein.mgyp) &&
      Accession(protein.mgyp) != accession) {
    protein.superseded_from = accession.str();
    for (const auto& hop : response.redirects) {
      std::string visited = detail::accession_in_url(hop);
      if (visited == protein.mgyp) continue;
      if (!protein.superseded_chain.empty() && protein.superseded_chain.back() == visited) continue;
      protein.superseded_chain.push_back(std::move(visited));
    }
    if (protein.superseded_chain.empty() || protein.superseded_chain.front() != accession.str()) {
      protein.superseded_chain.insert(protein.superseded_chain.begin(), accession.str());
    }
  }
  return protein;
}

template <class D>
std::vector<SearchHit> BasicProteinClient<D>::search(const SearchQuery& query,
                                                     const CallOptions& call) const {
  const http::Response response = session().get(search_url(query), http::per_call(call));
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
      hits.push_back(mgnify::detail::convert_at<SearchHit>(element, "/" + std::to_string(index++)));
    } catch (const DecodeError& e) {
      throw DecodeError(e.json_path(), response.url, e.detail());
    }
  }
  return hits;
}

template <class D>
std::vector<Result<Protein>> BasicProteinClient<D>::get_proteins(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return mgnify::detail::run_batch(accessions.size(), batch, defaults::kConcurrency, call,
                                   [&](std::size_t i, const CallOptions& item) {
                                     return protein(Accession(accessions[i]), item);
                                   });
}

template <class D>
std::vector<Result<Protein>> BasicProteinClient<D>::get_proteins(
    const std::vector<Accession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return mgnify::detail::run_batch(
      accessions.size(), batch, defaults::kConcurrency, call,
      [&](std::size_t i, const CallOptions& item) { return protein(accessions[i], item); });
}

template <class D>
std::vector<Result<Protein>> BasicProteinClient<D>::search_and_fetch(
    const SearchQuery& query, const BatchOptions& batch, const CallOptions& call) const {
  // One token for the search and the fetches: a deadline covers both.
  const CallOptions whole = mgnify::detail::batch_call(call);
  mgnify::detail::throw_if_stopped(whole.cancel, "protein search");
  const std::vector<SearchHit> hits = search(query, whole);
  std::vector<std::string> accessions;
  accessions.reserve(hits.size());
  for (const auto& hit : hits) accessions.push_back(hit.mgyp);
  return get_proteins(accessions, batch, whole);
}

template <class D>
std::string BasicProteinClient<D>::sequence_search_url() const {
  if (!sequence_search_url_.empty()) return sequence_search_url_;
  return http::detail::origin_of(base_url()) + kSequenceSearchPath;
}

template <class D>
SequenceSearchResponse BasicProteinClient<D>::sequence_search(const SequenceSearchQuery& query,
                                                              const CallOptions& call) const {
  http::Request request;
  request.method = http::Method::post;
  request.url = sequence_search_url();
  request.body = query.to_form().encoded();
  request.headers.set("Content-Type", "application/x-www-form-urlencoded");
  // The service answers a browser's Accept with an HTML page.
  request.headers.set("Accept", "application/json");
  http::RequestOptions options = http::per_call(call);
  options.send_token = false;  // the token is the Protein service's, not HMMER's
  options.use_cache = false;
  const http::Response response = session().execute(std::move(request), options);
  const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
  if (!doc.is_object()) {
    throw DecodeError("", response.url,
                      std::string("expected a JSON object with \"results\", got ") + doc.type_name());
  }
  try {
    return mgnify::detail::convert_at<SequenceSearchResponse>(doc, "");
  } catch (const DecodeError& e) {
    throw DecodeError(e.json_path(), response.url, e.detail());
  }
}

template <class D>
SequenceSearchWithRecords BasicProteinClient<D>::sequence_search_with_records(
    const SequenceSearchQuery& query, const BatchOptions& batch, const CallOptions& call) const {
  const CallOptions whole = mgnify::detail::batch_call(call);
  mgnify::detail::throw_if_stopped(whole.cancel, "sequence search");
  SequenceSearchWithRecords out;
  out.search = sequence_search(query, whole);
  const auto& hits = out.search.results.hits;
  std::vector<std::string> accessions;
  accessions.reserve(hits.size());
  for (const auto& hit : hits) accessions.push_back(hit.accession());
  auto records = get_proteins(accessions, batch, whole);
  out.matches.reserve(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    out.matches.push_back(SequenceSearchMatch{hits[i], std::move(records[i])});
  }
  return out;
}

}  // namespace proteins
MGNIFY_NAMESPACE_END
