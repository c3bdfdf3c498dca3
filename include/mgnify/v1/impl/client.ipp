#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp); client_<area>.ipp hold the rest.

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

template <class D>
struct BasicLegacyClient<D>::RootDoc {
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

template <class D>
BasicLegacyClient<D>::BasicLegacyClient(ClientOptions options)
    : BasicLegacyClient(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                        defaults::kBaseUrl)) {}

template <class D>
BasicLegacyClient<D>::BasicLegacyClient(std::shared_ptr<http::Session> session)
    : ServiceVerbs(session),
      GenomeSearchVerbs<GenomeSearchResult>(session, mgnify::detail::kV1GenomeSearch) {
  validate();
}

template <class D>
std::map<std::string, std::string> BasicLegacyClient<D>::root(const CallOptions& call) const {
  // The root is the only route with a trailing slash.
  const http::Response response = session().get(session().base_url() + "/", http::per_call(call));
  const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
  return mgnify::detail::decode<RootDoc>(doc, response.url).categories;
}

template <class D>
Paged<Study> BasicLegacyClient<D>::studies(const Query& filters, const ListOptions& list,
                                           const CallOptions& call) const {
  return resources<Study>("studies", filters, list, call);
}

template <class D>
Study BasicLegacyClient<D>::study(const AccessionArg<StudyAccession>& accession,
                                  const CallOptions& call) const {
  return resource<Study>("studies", accession, call);
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::samples(const Query& filters, const ListOptions& list,
                                            const CallOptions& call) const {
  return resources<Sample>("samples", filters, list, call);
}

template <class D>
Sample BasicLegacyClient<D>::sample(const AccessionArg<SampleAccession>& accession,
                                    const CallOptions& call) const {
  return resource<Sample>("samples", accession, call);
}

template <class D>
Paged<Biome> BasicLegacyClient<D>::biomes(const Query& filters, const ListOptions& list,
                                          const CallOptions& call) const {
  return resources<Biome>("biomes", filters, list, call);
}

template <class D>
Biome BasicLegacyClient<D>::biome(const std::string& lineage, const CallOptions& call) const {
  return resource<Biome>("biomes", lineage, call);
}

template <class D>
Paged<Publication> BasicLegacyClient<D>::publications(const Query& filters, const ListOptions& list,
                                                      const CallOptions& call) const {
  return resources<Publication>("publications", filters, list, call);
}

template <class D>
Publication BasicLegacyClient<D>::publication(std::int64_t pubmed_id,
                                              const CallOptions& call) const {
  return resource<Publication>("publications", checked_pubmed_id(pubmed_id), call);
}

template <class D>
std::vector<Result<Study>> BasicLegacyClient<D>::get_studies(
    const AccessionList<StudyAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Study>("studies", accessions, batch, call);
}

template <class D>
std::vector<Result<Sample>> BasicLegacyClient<D>::get_samples(
    const AccessionList<SampleAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Sample>("samples", accessions, batch, call);
}

template <class D>
std::vector<Result<Publication>> BasicLegacyClient<D>::get_publications(
    const std::vector<std::int64_t>& pubmed_ids, const BatchOptions& batch,
    const CallOptions& call) const {
  // Each id is checked with its request (item_path), so one bad id fails only its own item.
  std::vector<std::string> ids;
  ids.reserve(pubmed_ids.size());
  for (const std::int64_t id : pubmed_ids) ids.push_back(std::to_string(id));
  return get_resources<Publication>("publications", ids, batch, call);
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::study_samples(const AccessionArg<StudyAccession>& acc,
                                                  const Query& filters, const ListOptions& list,
                                                  const CallOptions& call) const {
  return related<Sample>("studies", acc, "samples", filters, list, call);
}

template <class D>
Paged<Biome> BasicLegacyClient<D>::study_biomes(const AccessionArg<StudyAccession>& acc,
                                                const Query& filters, const ListOptions& list,
                                                const CallOptions& call) const {
  return related<Biome>("studies", acc, "biomes", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::study_studies(const AccessionArg<StudyAccession>& acc,
                                                 const Query& filters, const ListOptions& list,
                                                 const CallOptions& call) const {
  return related<Study>("studies", acc, "studies", filters, list, call);
}

template <class D>
Paged<Publication> BasicLegacyClient<D>::study_publications(const AccessionArg<StudyAccession>& acc,
                                                            const Query& filters,
                                                            const ListOptions& list,
                                                            const CallOptions& call) const {
  return related<Publication>("studies", acc, "publications", filters, list, call);
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::biome_samples(const std::string& lineage, const Query& filters,
                                                  const ListOptions& list,
                                                  const CallOptions& call) const {
  return related<Sample>("biomes", lineage, "samples", filters, list, call);
}

template <class D>
Paged<Biome> BasicLegacyClient<D>::biome_children(const std::string& lineage, const Query& filters,
                                                  const ListOptions& list,
                                                  const CallOptions& call) const {
  return related<Biome>("biomes", lineage, "children", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::biome_studies(const std::string& lineage, const Query& filters,
                                                 const ListOptions& list,
                                                 const CallOptions& call) const {
  return related<Study>("biomes", lineage, "studies", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::sample_studies(const AccessionArg<SampleAccession>& acc,
                                                  const Query& filters, const ListOptions& list,
                                                  const CallOptions& call) const {
  return related<Study>("samples", acc, "studies", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::super_study_flagship_studies(const std::string& id,
                                                                const Query& filters,
                                                                const ListOptions& list,
                                                                const CallOptions& call) const {
  return related<Study>("super-studies", id, "flagship-studies", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::super_study_related_studies(const std::string& id,
                                                               const Query& filters,
                                                               const ListOptions& list,
                                                               const CallOptions& call) const {
  return related<Study>("super-studies", id, "related-studies", filters, list, call);
}

template <class D>
Paged<Study> BasicLegacyClient<D>::publication_studies(std::int64_t pubmed_id, const Query& filters,
                                                       const ListOptions& list,
                                                       const CallOptions& call) const {
  return related<Study>("publications", checked_pubmed_id(pubmed_id), "studies", filters, list,
                        call);
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::publication_samples(std::int64_t pubmed_id,
                                                        const Query& filters,
                                                        const ListOptions& list,
                                                        const CallOptions& call) const {
  return related<Sample>("publications", checked_pubmed_id(pubmed_id), "samples", filters, list,
                         call);
}

template <class D>
files::DownloadResult BasicLegacyClient<D>::download(const Download& file,
                                                     const std::filesystem::path& path,
                                                     files::DownloadOptions options,
                                                     const CallOptions& call) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return download(job.url, job.path, job.options, call);
}

template <class D>
TokenResponse BasicLegacyClient<D>::login(const std::string& username, const std::string& password,
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

template <class D>
Paged<Study> BasicLegacyClient<D>::my_studies(const Query& filters, const ListOptions& list,
                                              const CallOptions& call) const {
  return list_at<Study>("mydata", filters, list, call);
}

template <class D>
bool BasicLegacyClient<D>::verify(const CallOptions& call) const {
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

template <class D>
Paged<Study> BasicLegacyClient<D>::recent_studies(const Query& filters, const ListOptions& list,
                                                  const CallOptions& call) const {
  return list_at<Study>("studies/recent", filters, list, call);
}

template <class D>
std::vector<Biome> BasicLegacyClient<D>::top10_biomes(const CallOptions& call) const {
  return mgnify::detail::decode_response_fast<ListPage<Biome>>(
             session().get(session().url("biomes/top10"), http::per_call(call)))
      .data;
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::pipeline_samples(const std::string& version,
                                                     const Query& filters, const ListOptions& list,
                                                     const CallOptions& call) const {
  return related<Sample>("pipelines", version, "samples", filters, list, call);
}

template <class D>
Paged<Sample> BasicLegacyClient<D>::experiment_type_samples(const std::string& name,
                                                            const Query& filters,
                                                            const ListOptions& list,
                                                            const CallOptions& call) const {
  return related<Sample>("experiment-types", name, "samples", filters, list, call);
}

template <class D>
Paged<Biome> BasicLegacyClient<D>::super_study_biomes(const std::string& id, const Query& filters,
                                                      const ListOptions& list,
                                                      const CallOptions& call) const {
  return related<Biome>("super-studies", id, "biomes", filters, list, call);
}

template <class D>
EuropePmcAnnotations BasicLegacyClient<D>::publication_europe_pmc_annotations(
    std::int64_t pubmed_id, const CallOptions& call) const {
  const http::Response response = session().get(
      session().url("publications/" + checked_pubmed_id(pubmed_id) + "/europe_pmc_annotations"),
      http::per_call(call));
  return detail::decode_data<EuropePmcAnnotations>(response);
}

template <class D>
std::string BasicLegacyClient<D>::analysis_contig_fasta(const AccessionArg<AnalysisAccession>& acc,
                                                        const std::string& contig_id,
                                                        const CallOptions& call) const {
  return http::read_text(session(), contig_url(acc, contig_id, ""), http::media::kFasta, call).text;
}

template <class D>
http::StreamResult BasicLegacyClient<D>::stream_analysis_contig_fasta(
    const AccessionArg<AnalysisAccession>& acc, const std::string& contig_id,
    const http::BodySink& sink, const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), contig_url(acc, contig_id, ""), http::media::kFasta, sink,
                           options, call);
}

template <class D>
std::string BasicLegacyClient<D>::analysis_contig_gff(const AccessionArg<AnalysisAccession>& acc,
                                                      const std::string& contig_id, ContigGff kind,
                                                      const CallOptions& call) const {
  return http::read_text(session(), contig_url(acc, contig_id, "/annotations", kind),
                         http::media::kGff, call)
      .text;
}

template <class D>
http::StreamResult BasicLegacyClient<D>::stream_analysis_contig_gff(
    const AccessionArg<AnalysisAccession>& acc, const std::string& contig_id, ContigGff kind,
    const http::BodySink& sink, const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), contig_url(acc, contig_id, "/annotations", kind),
                           http::media::kGff, sink, options, call);
}

template <class D>
std::string BasicLegacyClient<D>::analysis_qc_chart(const AccessionArg<AnalysisAccession>& acc,
                                                    QcChart chart, const CallOptions& call) const {
  return http::read_text(session(), qc_url(acc, chart), http::media::kTsv, call).text;
}

template <class D>
http::StreamResult BasicLegacyClient<D>::stream_analysis_qc_chart(
    const AccessionArg<AnalysisAccession>& acc, QcChart chart, const http::BodySink& sink,
    const http::StreamOptions& options, const CallOptions& call) const {
  return http::stream_text(session(), qc_url(acc, chart), http::media::kTsv, sink, options, call);
}

template <class D>
std::string BasicLegacyClient<D>::list_csv(const std::string& path, const Query& q,
                                           const CallOptions& call) const {
  return http::read_text(session(), csv_url(path, q), http::media::kCsv, call).text;
}

template <class D>
http::StreamResult BasicLegacyClient<D>::stream_list_csv(const std::string& path, const Query& q,
                                                         const http::BodySink& sink,
                                                         const http::StreamOptions& options,
                                                         const CallOptions& call) const {
  return http::stream_text(session(), csv_url(path, q), http::media::kCsv, sink, options, call);
}

template <class D>
std::string BasicLegacyClient<D>::list_url(const std::string& path, const Query& filters,
                                           const ListOptions& list, detail::ListKind kind) const {
  return session().url(path, detail::list_params(filters, list, kind));
}

template <class D>
std::string BasicLegacyClient<D>::related_url(const std::string& collection, const std::string& id,
                                              const std::string& relation, const Query& filters,
                                              const ListOptions& list) const {
  require_text("relation", relation);
  return list_url(item_path(collection, id) + "/" + detail::encode_segments(relation), filters,
                  list, detail::relation_kind(collection, relation));
}

template <class D>
http::Response BasicLegacyClient<D>::get_item(const std::string& collection, const std::string& id,
                                              const Query& query, const CallOptions& call) const {
  return session().get(session().url(item_path(collection, id), query.params()),
                       http::per_call(call));
}

template <class D>
std::string BasicLegacyClient<D>::resume_url(const std::string& first_url,
                                             const std::string& token) const {
  session().check_link(token);
  // A v1 token is the URL of the page that failed; it must be a page of this
  // list, or the walk would silently become another list's.
  const auto path_of = [](const std::string& url) { return url.substr(0, url.find('?')); };
  if (path_of(token) != path_of(first_url)) {
    throw InvalidArgument("ListOptions::resume_token '" + token + "' is not a page of this list (" +
                          path_of(first_url) + ")");
  }
  return token;
}

template <class D>
std::string BasicLegacyClient<D>::collection_path(const std::string& collection) {
  require_text("collection", collection);
  return detail::encode_segments(collection);
}

template <class D>
std::string BasicLegacyClient<D>::item_path(const std::string& collection, const std::string& id) {
  return collection_path(collection) + "/" + http::encode_path_segment(checked_id(collection, id));
}

// The collections whose ids have one known form are checked here, where every
// typed call, batch and generic resource() request of them passes, by the rule
// each kind has in every client (mgnify/accession.hpp).
template <class D>
std::string BasicLegacyClient<D>::checked_id(const std::string& collection, const std::string& id) {
  require_text("id", id);
  static const std::pair<const char*, AccessionKind> kinds[] = {
      {"studies", AccessionKind::study},     {"samples", AccessionKind::sample},
      {"runs", AccessionKind::run},          {"assemblies", AccessionKind::assembly},
      {"analyses", AccessionKind::analysis}, {"genomes", AccessionKind::genome}};
  for (const auto& [name, kind] : kinds) {
    if (collection == name) return checked_accession(id, kind);
  }
  if (collection == "publications") {
    if (!mgnify::detail::parse_positive_integer(id)) {
      throw InvalidArgument("not a PubMed id (a positive number): '" + id + "'");
    }
  }
  return id;
}

template <class D>
void BasicLegacyClient<D>::require_text(const char* what, const std::string& value) {
  if (value.empty()) throw InvalidArgument(std::string(what) + " must not be empty");
}

template <class D>
std::string BasicLegacyClient<D>::contig_url(const std::string& acc, const std::string& contig_id,
                                             const char* tail, ContigGff kind) const {
  require_text("contig_id", contig_id);
  http::Query query;
  if (kind == ContigGff::antismash) query.set("antismash", "True");
  return session().url(
      item_path("analyses", acc) + "/contigs/" + http::encode_path_segment(contig_id) + tail,
      query);
}

template <class D>
std::string BasicLegacyClient<D>::qc_url(const std::string& acc, QcChart chart) const {
  return session().url(item_path("analyses", acc) + "/" + qc_chart_path(chart));
}

template <class D>
std::string BasicLegacyClient<D>::csv_url(const std::string& path, const Query& q) const {
  require_text("list path", path);
  http::Query query = q.params();
  query.set("format", "csv");
  return session().url(detail::encode_segments(path), query);
}

template <class D>
void BasicLegacyClient<D>::validate() const {
  if (session().options().parallel_pages == 0) {
    throw InvalidArgument("ClientOptions::parallel_pages must be at least 1");
  }
}

}  // namespace v1
MGNIFY_NAMESPACE_END
