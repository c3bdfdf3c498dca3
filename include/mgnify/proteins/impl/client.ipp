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

namespace mgnify {
inline namespace v0 {
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

MGNIFY_DECL ProteinClient::ProteinClient(ClientOptions options)
    : session_(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                               kDefaultBaseUrl)) {}

MGNIFY_DECL ProteinClient::ProteinClient(std::shared_ptr<http::Session> session)
    : session_(std::move(session)) {
  if (!session_) throw InvalidArgument("ProteinClient needs a session");
}

MGNIFY_DECL std::string ProteinClient::protein_url(const Accession& accession) const {
  return session_->url("protein/" + http::encode_path_segment(accession.str()));
}

MGNIFY_DECL std::string ProteinClient::search_url(const SearchQuery& query) const {
  return session_->url("protein/search", query.to_query());
}

MGNIFY_DECL Protein ProteinClient::get(const Accession& accession) const {
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
      if (!protein.superseded_chain.empty() && protein.superseded_chain.back() == visited) continue;
      protein.superseded_chain.push_back(std::move(visited));
    }
    if (protein.superseded_chain.empty() || protein.superseded_chain.front() != accession.str()) {
      protein.superseded_chain.insert(protein.superseded_chain.begin(), accession.str());
    }
  }
  return protein;
}

MGNIFY_DECL std::vector<SearchHit> ProteinClient::search(const SearchQuery& query) const {
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
      hits.push_back(mgnify::detail::convert_at<SearchHit>(element, "/" + std::to_string(index++)));
    } catch (const DecodeError& e) {
      throw DecodeError(e.json_path(), response.url, e.detail());
    }
  }
  return hits;
}

MGNIFY_DECL std::vector<Result<Protein>> ProteinClient::get_many(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return mgnify::detail::run_batch(accessions.size(), batch, kDefaultConcurrency,
                                   [&](std::size_t i) { return get(Accession(accessions[i])); });
}

MGNIFY_DECL std::vector<Result<Protein>> ProteinClient::get_many(
    const std::vector<Accession>& accessions, const BatchOptions& batch) const {
  return mgnify::detail::run_batch(accessions.size(), batch, kDefaultConcurrency,
                                   [&](std::size_t i) { return get(accessions[i]); });
}

MGNIFY_DECL std::vector<Result<Protein>> ProteinClient::search_and_fetch(
    const SearchQuery& query, const BatchOptions& batch) const {
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

}  // namespace proteins
}  // namespace v0
}  // namespace mgnify
