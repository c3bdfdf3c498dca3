#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) and, for the compiled library,
// its templates instantiated for the v1 models it lists; client_<area>.ipp
// hold the rest, for the library's other units.

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/v1/client.hpp"
#include "mgnify/v1/client_templates.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {
namespace detail {

/// A relative path whose segments ("taxonomy/ssu", "studies/MGYS1/samples")
/// are each percent-encoded alone, so a '/' separates segments and nothing else.
MGNIFY_DECL std::string encode_segments(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    if (!out.empty() || start > 0) out += "/";
    out += http::encode_path_segment(
        path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

MGNIFY_DECL mgnify::detail::ListLimits list_limits(ListKind kind) {
  switch (kind) {
    case ListKind::annotations:
      return {"v1 annotation", kMaxAnnotationPageSize, true};
    case ListKind::cursor:
      return {"v1 cursor", std::numeric_limits<int>::max(), false};
    case ListKind::numbered:
      break;
  }
  return {"v1", kMaxPageSize, true};
}

/// The kind of `/{collection}/{id}/{relation}`: an analysis's contigs walk by
/// cursor, its annotation and taxonomy lists serve up to 1000 per page.
MGNIFY_DECL ListKind relation_kind(const std::string& collection, const std::string& relation) {
  if (collection != "analyses") return ListKind::numbered;
  if (relation == "contigs") return ListKind::cursor;
  static const char* const annotation_lists[] = {
      "go-terms",       "go-slim",      "interpro-identifiers", "pfam-entries",
      "kegg-orthologs", "kegg-modules", "genome-properties",    "antismash-gene-clusters"};
  for (const char* name : annotation_lists) {
    if (relation == name) return ListKind::annotations;
  }
  return relation.rfind("taxonomy", 0) == 0 ? ListKind::annotations : ListKind::numbered;
}

/// The first page's query: the filters, then the page size and page that
/// `list` asks for, checked against what this kind of list accepts.
MGNIFY_DECL http::Query list_params(const Query& filters, const ListOptions& list, ListKind kind) {
  mgnify::detail::validate(list, list_limits(kind));
  http::Query params = filters.params();
  if (list.page_size) params.set("page_size", std::to_string(*list.page_size));
  if (list.start_page != 1) params.set("page", std::to_string(list.start_page));
  return params;
}

/// `{"data": <plain object>}`, the shape of the service's non-resource views.
template <class T>
T decode_data(const http::Response& response) {
  const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
  const auto data = doc.is_object() ? doc.find("data") : doc.end();
  if (!doc.is_object() || data == doc.end() || data->is_null()) {
    throw DecodeError("/data", response.url, "required field is missing");
  }
  try {
    return mgnify::detail::convert_at<T>(*data, "/data");
  } catch (const DecodeError& e) {
    throw DecodeError(e.json_path(), response.url, e.detail());
  }
}

}  // namespace detail

MGNIFY_DECL files::DownloadJob download_job(const Download& file, std::filesystem::path path,
                                            files::DownloadOptions options) {
  const auto url = file.self_link();
  if (!url || url->empty()) {
    throw InvalidArgument("download '" + file.alias + "' has no links.self URL");
  }
  if (!options.checksum && file.file_checksum) {
    options.checksum = files::Checksum::from_record(file.file_checksum->checksum_algorithm,
                                                    file.file_checksum->checksum);
  }
  return files::DownloadJob{*url, std::move(path), std::move(options)};
}

struct LegacyClient::RootDoc {
  std::map<std::string, std::string> categories;
  friend void from_json(const nlohmann::json& j, RootDoc& out) {
    if (!j.is_object()) throw DecodeError("", "", "expected an object");
    auto data = j.find("data");
    if (data == j.end() || !data->is_object()) throw DecodeError("/data", "", "expected an object");
    for (const auto& [name, value] : data->items()) {
      out.categories[name] = mgnify::detail::convert_at<std::string>(value, "/data/" + name);
    }
  }
};

MGNIFY_DECL LegacyClient::LegacyClient(ClientOptions options)
    : LegacyClient(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                   defaults::kBaseUrl)) {}

MGNIFY_DECL LegacyClient::LegacyClient(std::shared_ptr<http::Session> session)
    : ServiceVerbs(session),
      GenomeSearchVerbs<GenomeSearchResult>(session, mgnify::detail::kV1GenomeSearch) {
  validate();
}

MGNIFY_DECL std::map<std::string, std::string> LegacyClient::root(const CallOptions& call) const {
  // The root is the only route with a trailing slash.
  const http::Response response = session().get(session().base_url() + "/", http::per_call(call));
  const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
  return mgnify::detail::decode<RootDoc>(doc, response.url).categories;
}

MGNIFY_DECL Paged<Study> LegacyClient::studies(const Query& filters,
                                               const ListOptions& list) const {
  return resources<Study>("studies", filters, list);
}

MGNIFY_DECL Study LegacyClient::study(const std::string& accession, const CallOptions& call) const {
  return resource<Study>("studies", accession, call);
}

MGNIFY_DECL Paged<Sample> LegacyClient::samples(const Query& filters,
                                                const ListOptions& list) const {
  return resources<Sample>("samples", filters, list);
}

MGNIFY_DECL Sample LegacyClient::sample(const std::string& accession,
                                        const CallOptions& call) const {
  return resource<Sample>("samples", accession, call);
}

MGNIFY_DECL Paged<Biome> LegacyClient::biomes(const Query& filters, const ListOptions& list) const {
  return resources<Biome>("biomes", filters, list);
}

MGNIFY_DECL Biome LegacyClient::biome(const std::string& lineage, const CallOptions& call) const {
  return resource<Biome>("biomes", lineage, call);
}

MGNIFY_DECL Paged<Publication> LegacyClient::publications(const Query& filters,
                                                          const ListOptions& list) const {
  return resources<Publication>("publications", filters, list);
}

MGNIFY_DECL Publication LegacyClient::publication(std::int64_t pubmed_id,
                                                  const CallOptions& call) const {
  return resource<Publication>("publications", checked_pubmed_id(pubmed_id), call);
}

MGNIFY_DECL std::vector<Result<Study>> LegacyClient::get_studies(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Study>("studies", accessions, batch, call);
}

MGNIFY_DECL std::vector<Result<Sample>> LegacyClient::get_samples(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Sample>("samples", accessions, batch, call);
}

MGNIFY_DECL std::vector<Result<Publication>> LegacyClient::get_publications(
    const std::vector<std::int64_t>& pubmed_ids, const BatchOptions& batch,
    const CallOptions& call) const {
  // Each id is checked with its request (item_path), so one bad id fails only its own item.
  std::vector<std::string> ids;
  ids.reserve(pubmed_ids.size());
  for (const std::int64_t id : pubmed_ids) ids.push_back(std::to_string(id));
  return get_resources<Publication>("publications", ids, batch, call);
}

MGNIFY_DECL Paged<Sample> LegacyClient::study_samples(const std::string& acc, const Query& filters,
                                                      const ListOptions& list) const {
  return related<Sample>("studies", acc, "samples", filters, list);
}

MGNIFY_DECL Paged<Biome> LegacyClient::study_biomes(const std::string& acc, const Query& filters,
                                                    const ListOptions& list) const {
  return related<Biome>("studies", acc, "biomes", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::study_studies(const std::string& acc, const Query& filters,
                                                     const ListOptions& list) const {
  return related<Study>("studies", acc, "studies", filters, list);
}

MGNIFY_DECL Paged<Publication> LegacyClient::study_publications(const std::string& acc,
                                                                const Query& filters,
                                                                const ListOptions& list) const {
  return related<Publication>("studies", acc, "publications", filters, list);
}

MGNIFY_DECL Paged<Sample> LegacyClient::biome_samples(const std::string& lineage,
                                                      const Query& filters,
                                                      const ListOptions& list) const {
  return related<Sample>("biomes", lineage, "samples", filters, list);
}

MGNIFY_DECL Paged<Biome> LegacyClient::biome_children(const std::string& lineage,
                                                      const Query& filters,
                                                      const ListOptions& list) const {
  return related<Biome>("biomes", lineage, "children", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::biome_studies(const std::string& lineage,
                                                     const Query& filters,
                                                     const ListOptions& list) const {
  return related<Study>("biomes", lineage, "studies", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::sample_studies(const std::string& acc, const Query& filters,
                                                      const ListOptions& list) const {
  return related<Study>("samples", acc, "studies", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::super_study_flagship_studies(const std::string& id,
                                                                    const Query& filters,
                                                                    const ListOptions& list) const {
  return related<Study>("super-studies", id, "flagship-studies", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::super_study_related_studies(const std::string& id,
                                                                   const Query& filters,
                                                                   const ListOptions& list) const {
  return related<Study>("super-studies", id, "related-studies", filters, list);
}

MGNIFY_DECL Paged<Study> LegacyClient::publication_studies(std::int64_t pubmed_id,
                                                           const Query& filters,
                                                           const ListOptions& list) const {
  return related<Study>("publications", checked_pubmed_id(pubmed_id), "studies", filters, list);
}

MGNIFY_DECL Paged<Sample> LegacyClient::publication_samples(std::int64_t pubmed_id,
                                                            const Query& filters,
                                                            const ListOptions& list) const {
  return related<Sample>("publications", checked_pubmed_id(pubmed_id), "samples", filters, list);
}

MGNIFY_DECL files::DownloadResult LegacyClient::download(const Download& file,
                                                         const std::filesystem::path& path,
                                                         files::DownloadOptions options,
                                                         const CallOptions& call) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return download(job.url, job.path, job.options, call);
}

MGNIFY_DECL TokenResponse LegacyClient::login(const std::string& username,
                                              const std::string& password,
                                              const CallOptions& call) {
  if (username.empty() || password.empty()) {
    throw InvalidArgument("login needs a non-empty username and password");
  }
  http::RequestOptions request = http::per_call(call);
  request.send_token = false;
  http::Response response;
  try {
    response = session().post_json(session().url("utils/token/obtain"),
                                   {{"username", username}, {"password", password}}, request);
  } catch (const AuthError&) {
    throw;
  } catch (const ApiError& e) {
    // The service rejects credentials with 400; to a caller that is an auth failure.
    if (e.status() == 400) throw AuthError(e.info());
    throw;
  }
  const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
  TokenResponse token;
  try {
    const auto data = doc.find("data");
    if (data == doc.end() || !data->is_object())
      throw DecodeError("/data", "", "required field is missing");
    token = data->get<TokenResponse>();
  } catch (const DecodeError& e) {
    const std::string path =
        e.json_path().rfind("/data", 0) == 0 ? e.json_path() : "/data" + e.json_path();
    throw DecodeError(path, response.url, e.detail());
  }
  session().set_token(token.token);
  return token;
}

MGNIFY_DECL Paged<Study> LegacyClient::my_studies(const Query& filters,
                                                  const ListOptions& list) const {
  return list_at<Study>("mydata", filters, list);
}

MGNIFY_DECL bool LegacyClient::verify(const CallOptions& call) const {
  const auto current = session().token();
  if (!current) throw InvalidArgument("verify() needs a token: call login() first");
  http::RequestOptions request = http::per_call(call);
  request.send_token = false;
  try {
    session().post_json(session().url("utils/token/verify"), {{"token", *current}}, request);
    return true;
  } catch (const ApiError& e) {
    if (e.status() == 400) return false;
    throw;
  }
}

MGNIFY_DECL Paged<Study> LegacyClient::recent_studies(const Query& filters,
                                                      const ListOptions& list) const {
  return list_at<Study>("studies/recent", filters, list);
}

MGNIFY_DECL std::vector<Biome> LegacyClient::top10_biomes(const CallOptions& call) const {
  return mgnify::detail::decode_response_fast<ListPage<Biome>>(
             session().get(session().url("biomes/top10"), http::per_call(call)))
      .data;
}

MGNIFY_DECL Paged<Sample> LegacyClient::pipeline_samples(const std::string& version,
                                                         const Query& filters,
                                                         const ListOptions& list) const {
  return related<Sample>("pipelines", version, "samples", filters, list);
}

MGNIFY_DECL Paged<Sample> LegacyClient::experiment_type_samples(const std::string& name,
                                                                const Query& filters,
                                                                const ListOptions& list) const {
  return related<Sample>("experiment-types", name, "samples", filters, list);
}

MGNIFY_DECL Paged<Biome> LegacyClient::super_study_biomes(const std::string& id,
                                                          const Query& filters,
                                                          const ListOptions& list) const {
  return related<Biome>("super-studies", id, "biomes", filters, list);
}

MGNIFY_DECL EuropePmcAnnotations LegacyClient::publication_europe_pmc_annotations(
    std::int64_t pubmed_id, const CallOptions& call) const {
  const http::Response response = session().get(
      session().url("publications/" + checked_pubmed_id(pubmed_id) + "/europe_pmc_annotations"),
      http::per_call(call));
  return detail::decode_data<EuropePmcAnnotations>(response);
}

MGNIFY_DECL std::string LegacyClient::analysis_contig_fasta(const std::string& acc,
                                                            const std::string& contig_id,
                                                            const CallOptions& call) const {
  return http::read_text(session(), contig_url(acc, contig_id, ""), http::media::kFasta, call).text;
}

MGNIFY_DECL http::StreamResult LegacyClient::stream_analysis_contig_fasta(
    const std::string& acc, const std::string& contig_id, const http::BodySink& sink,
    const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), contig_url(acc, contig_id, ""), http::media::kFasta, sink,
                           options, call);
}

MGNIFY_DECL std::string LegacyClient::analysis_contig_gff(const std::string& acc,
                                                          const std::string& contig_id,
                                                          ContigGff kind,
                                                          const CallOptions& call) const {
  return http::read_text(session(), contig_url(acc, contig_id, "/annotations", kind),
                         http::media::kGff, call)
      .text;
}

MGNIFY_DECL http::StreamResult LegacyClient::stream_analysis_contig_gff(
    const std::string& acc, const std::string& contig_id, ContigGff kind,
    const http::BodySink& sink, const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), contig_url(acc, contig_id, "/annotations", kind),
                           http::media::kGff, sink, options, call);
}

MGNIFY_DECL std::string LegacyClient::analysis_qc_chart(const std::string& acc, QcChart chart,
                                                        const CallOptions& call) const {
  return http::read_text(session(), qc_url(acc, chart), http::media::kTsv, call).text;
}

MGNIFY_DECL http::StreamResult LegacyClient::stream_analysis_qc_chart(
    const std::string& acc, QcChart chart, const http::BodySink& sink,
    const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), qc_url(acc, chart), http::media::kTsv, sink, options, call);
}

MGNIFY_DECL std::string LegacyClient::list_csv(const std::string& path, const Query& q,
                                               const CallOptions& call) const {
  return http::read_text(session(), csv_url(path, q), http::media::kCsv, call).text;
}

MGNIFY_DECL http::StreamResult LegacyClient::stream_list_csv(const std::string& path,
                                                             const Query& q,
                                                             const http::BodySink& sink,
                                                             const http::StreamOptions& options,
                                                             const CallOptions& call) const {
  return http::stream_text(session(), csv_url(path, q), http::media::kCsv, sink, options, call);
}

MGNIFY_DECL std::string LegacyClient::list_url(const std::string& path, const Query& filters,
                                               const ListOptions& list,
                                               detail::ListKind kind) const {
  return session().url(path, detail::list_params(filters, list, kind));
}

MGNIFY_DECL std::string LegacyClient::related_url(const std::string& collection,
                                                  const std::string& id,
                                                  const std::string& relation, const Query& filters,
                                                  const ListOptions& list) const {
  require_text("relation", relation);
  return list_url(item_path(collection, id) + "/" + detail::encode_segments(relation), filters,
                  list, detail::relation_kind(collection, relation));
}

MGNIFY_DECL http::Response LegacyClient::get_item(const std::string& collection,
                                                  const std::string& id, const Query& query,
                                                  const CallOptions& call) const {
  return session().get(session().url(item_path(collection, id), query.params()),
                       http::per_call(call));
}

MGNIFY_DECL std::string LegacyClient::resume_url(const std::string& first_url,
                                                 const std::string& token) const {
  session().check_link(token);
  // A v1 token is the URL of the page that failed; it must be a page of this
  // list, or the walk would silently become another list's.
  const auto path_of = [](const std::string& url) { return url.substr(0, url.find('?')); };
  if (path_of(token) != path_of(first_url)) {
    throw InvalidArgument("ListOptions::resume_token '" + token +
                          "' is not a page of this list (" + path_of(first_url) + ")");
  }
  return token;
}

MGNIFY_DECL std::string LegacyClient::collection_path(const std::string& collection) {
  require_text("collection", collection);
  return detail::encode_segments(collection);
}

MGNIFY_DECL std::string LegacyClient::item_path(const std::string& collection,
                                                const std::string& id) {
  return collection_path(collection) + "/" + http::encode_path_segment(checked_id(collection, id));
}

// The collections whose ids have one known form are checked here, where every
// typed call, batch and generic resource() request of them passes.
MGNIFY_DECL std::string LegacyClient::checked_id(const std::string& collection,
                                                 const std::string& id) {
  require_text("id", id);
  if (collection == "analyses") {
    // v1 reads the number after an optional MGYA (`383254` works), so the
    // unpadded forms are sent padded, and anything else is refused.
    std::uint64_t number = 0;
    if (!mgnify::detail::parse_prefixed_number(id, kAnalysisAccession.prefix,
                                               kAnalysisAccession.digits, number) ||
        number == 0) {
      throw InvalidArgument("not an MGYA accession (MGYA + up to 8 digits, or the number): '" +
                            id + "'");
    }
    return kAnalysisAccession.prefix +
           mgnify::detail::zero_padded(number, kAnalysisAccession.digits);
  }
  if (collection == "genomes") return checked_accession(id, kGenomeAccession);
  if (collection == "studies") {
    if (is_insdc_study_accession(id)) return std::string(mgnify::detail::trim_ascii(id));
    return checked_accession(id, kStudyAccession);
  }
  if (collection == "publications") {
    if (!mgnify::detail::parse_positive_integer(id)) {
      throw InvalidArgument("not a PubMed id (a positive number): '" + id + "'");
    }
  }
  return id;
}

MGNIFY_DECL void LegacyClient::require_text(const char* what, const std::string& value) {
  if (value.empty()) throw InvalidArgument(std::string(what) + " must not be empty");
}

MGNIFY_DECL std::string LegacyClient::contig_url(const std::string& acc,
                                                 const std::string& contig_id, const char* tail,
                                                 ContigGff kind) const {
  require_text("contig_id", contig_id);
  http::Query query;
  if (kind == ContigGff::antismash) query.set("antismash", "True");
  return session().url(
      item_path("analyses", acc) + "/contigs/" + http::encode_path_segment(contig_id) + tail,
      query);
}

MGNIFY_DECL std::string LegacyClient::qc_url(const std::string& acc, QcChart chart) const {
  return session().url(item_path("analyses", acc) + "/" + qc_chart_path(chart));
}

MGNIFY_DECL std::string LegacyClient::csv_url(const std::string& path, const Query& q) const {
  require_text("list path", path);
  http::Query query = q.params();
  query.set("format", "csv");
  return session().url(detail::encode_segments(path), query);
}

MGNIFY_DECL void LegacyClient::validate() const {
  if (session().options().parallel_pages == 0) {
    throw InvalidArgument("ClientOptions::parallel_pages must be at least 1");
  }
}

#if !MGNIFY_HEADER_ONLY
// The member templates a program calls with these models (client_templates.hpp).
MGNIFY_V1_INSTANTIATE(Study)
MGNIFY_V1_INSTANTIATE(Sample)
MGNIFY_V1_INSTANTIATE(Biome)
MGNIFY_V1_INSTANTIATE(Publication)
#endif

}  // namespace v1
MGNIFY_NAMESPACE_END
