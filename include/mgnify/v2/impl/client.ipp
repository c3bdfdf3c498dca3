#pragma once

// Bodies of V2Client and download_job (mgnify/v2/client.hpp), with the walks,
// fast page decoders and batch machinery they instantiate for every model.

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/fast_decode.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

MGNIFY_DECL files::DownloadJob download_job(const DownloadFile& file, std::filesystem::path path,
                                            files::DownloadOptions options) {
  if (!file.has_url()) throw InvalidArgument("download '" + file.alias + "' has no url");
  if (!options.expected_size && file.file_size_bytes && *file.file_size_bytes >= 0) {
    options.expected_size = static_cast<std::uint64_t>(*file.file_size_bytes);
  }
  return files::DownloadJob{*file.url, std::move(path), std::move(options)};
}

struct V2Client::State {
  State(std::shared_ptr<http::Session> s, V2Options o) : session(std::move(s)), v2(o) {
    if (v2.concurrency == 0) throw InvalidArgument("V2Options::concurrency must be at least 1");
    if (parallel_pages() == 0) {
      throw InvalidArgument("ClientOptions::parallel_pages must be at least 1");
    }
    // A present but rejected token gets 401 even for public data, so the
    // session answers a 401 to a call that carried one by refreshing the
    // token once (or, by option, dropping it) and repeating the call:
    // downloads and text included, since they run through the same session.
    http::TokenRefresh policy;
    // The session owns the policy; it calls it only while it is alive.
    policy.refresh = [raw = session.get()](const std::string& rejected) {
      return refresh_token(*raw, rejected).token;
    };
    policy.anonymous_fallback = v2.anonymous_fallback_on_auth_failure;
    policy.not_found_hint = kPrivateNotFoundHint;
    session->set_token_refresh(std::move(policy));
  }
  std::size_t parallel_pages() const { return session->options().parallel_pages; }
  std::shared_ptr<http::Session> session;
  V2Options v2;

  static TokenResponse refresh_token(http::Session& session, const std::string& token) {
    http::CallOptions call;
    call.send_token = false;
    const auto response =
        session.post_json(session.url("auth/sliding/refresh"), {{"token", token}}, call);
    return mgnify::detail::decode_response<TokenResponse>(response);
  }

  http::Response get(const std::string& url, const CancelToken& cancel = CancelToken::never()) {
    http::CallOptions call;
    call.cancel = cancel;
    return session->get(url, call);
  }
};

MGNIFY_DECL V2Client::V2Client(ClientOptions options, V2Options v2)
    : state_(
          std::make_shared<State>(std::make_shared<http::Session>(
                                      with_default_transport(std::move(options)), kDefaultBaseUrl),
                                  v2)) {}

MGNIFY_DECL V2Client::V2Client(std::shared_ptr<http::Session> session, V2Options v2)
    : state_(std::make_shared<State>(require(std::move(session)), v2)) {}

MGNIFY_DECL http::Session& V2Client::session() const noexcept { return *state_->session; }
MGNIFY_DECL std::shared_ptr<http::Session> V2Client::shared_session() const noexcept {
  return state_->session;
}
MGNIFY_DECL const std::string& V2Client::base_url() const noexcept {
  return state_->session->base_url();
}

// ---- private helpers ---------------------------------------------------------

MGNIFY_DECL mgnify::detail::GenomeSearchCalls V2Client::genome_search_calls() const {
  return mgnify::detail::GenomeSearchCalls(*state_->session, mgnify::detail::kV2GenomeSearch);
}

MGNIFY_DECL std::shared_ptr<http::Session> V2Client::require(
    std::shared_ptr<http::Session> session) {
  if (!session) throw InvalidArgument("V2Client needs a session");
  return session;
}

MGNIFY_DECL bool V2Client::valid_webin_username(const std::string& username) {
  std::string rest = username;
  if (rest.rfind("mg-", 0) == 0) rest = rest.substr(3);
  if (rest.rfind("Webin-", 0) != 0 || rest.size() == 6) return false;
  for (std::size_t i = 6; i < rest.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return false;
  }
  return true;
}

MGNIFY_DECL std::int64_t V2Client::resume_page(const std::string& token) {
  // A v2 token is the number of the page that failed.
  const bool digits = !token.empty() && token.size() <= 18 &&
                      token.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoll(token) < 1) {
    throw InvalidArgument("ListOptions::resume_token '" + token +
                          "' is not a page of a v2 list (a page number)");
  }
  return std::stoll(token);
}

MGNIFY_DECL std::string V2Client::segment(const std::string& value) {
  return http::encode_path_segment(value);
}
MGNIFY_DECL std::string V2Client::sub(const char* head, const std::string& id, const char* tail) {
  return head + segment(id) + tail;
}
template <class T>
T V2Client::get(const std::string& path, const http::Query& query) const {
  const auto response = state_->get(state_->session->url(path, query));
  return mgnify::detail::decode_response<T>(response);
}

template <class T>
Paged<T> V2Client::paged(const std::string& path, http::Query filters,
                         const ListOptions& list) const {
  mgnify::detail::validate(list, {"v2", kMaxPageSize, true});
  const std::int64_t page_size = list.page_size.value_or(kMaxPageSize);
  const std::int64_t start_page = list.resume_token ? resume_page(*list.resume_token)
                                                    : list.start_page;
  std::shared_ptr<State> state = state_;
  // Every page is checked against the total and the server's page size
  // (detail/counted_pages.hpp), which also decides where the walk ends.
  auto pages = std::make_shared<mgnify::detail::CountedPages>(page_size);
  mgnify::detail::WalkSpec<T> spec;
  spec.first_token = std::to_string(start_page);
  spec.max_items = list.max_items;
  spec.fetch = [state, path, filters = std::move(filters), page_size, pages](
                   const std::string& token,
                   const mgnify::detail::PageProgress<T>& progress) -> mgnify::Page<T> {
    const std::int64_t page = std::stoll(token);
    http::Query query = filters;
    query.set("page", token);
    query.set("page_size", std::to_string(page_size));
    const auto response = state->get(state->session->url(path, query), progress.cancel());
    progress.received();
    auto decoded = mgnify::detail::decode_response_fast<v2::Page<T>>(response);
    const auto items = static_cast<std::int64_t>(decoded.items.size());
    if (const auto choice = pages->open_size_choice(page, items, decoded.count)) {
      // A walk resumed on a short page: it is either the list's last page
      // or a page of a server that clamps to its length. The page after it,
      // empty past the end of a v2 list, tells which, so that no item is
      // silently left out.
      query.set("page", std::to_string(page + 1));
      const auto look_ahead = state->get(state->session->url(path, query), progress.cancel());
      const bool more =
          !mgnify::detail::decode_response_fast<v2::Page<T>>(look_ahead).items.empty();
      pages->settle_size(more ? choice->if_more : choice->if_last);
    }
    const auto next = pages->accept(page, items, decoded.count, response.url);
    mgnify::Page<T> out;
    out.total = decoded.count;
    out.url = response.url;
    out.page = page;
    out.page_size = pages->server_size().value_or(page_size);
    if (next) out.next = std::to_string(*next);
    out.items = std::move(decoded.items);
    return out;
  };
  if (state_->session->options().read_ahead) {
    // Page numbers are known once the first page gave `count` and the
    // server's page size, so several pages can be in flight; the fetcher
    // only uses the thread-safe State and CountedPages.
    spec.mode = mgnify::detail::WalkMode::counted;
    spec.window = state_->parallel_pages();
    spec.token_at = [start_page, pages](std::size_t index,
                                        const mgnify::Page<T>&) -> std::optional<std::string> {
      if (index >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - start_page)) {
        return std::nullopt;
      }
      const std::int64_t page = start_page + static_cast<std::int64_t>(index);
      if (!pages->has_page(page)) return std::nullopt;
      return std::to_string(page);
    };
  }
  return mgnify::detail::make_walk(std::move(spec));
}

template <class T, class Fn>
std::vector<Result<T>> V2Client::many(const std::vector<std::string>& ids,
                                      const BatchOptions& batch, Fn fn) const {
  return mgnify::detail::run_batch(ids.size(), batch, state_->v2.concurrency,
                                   [&ids, &fn](std::size_t i) { return fn(ids[i]); });
}

// ---- auth ----------------------------------------------------------------------

MGNIFY_DECL TokenResponse V2Client::login(const std::string& username,
                                          const std::string& password) {
  if (!valid_webin_username(username)) {
    throw InvalidArgument(
        "username must be a Webin account ('Webin-<digits>' or "
        "'mg-Webin-<digits>'), got '" +
        username + "'");
  }
  if (password.empty()) throw InvalidArgument("password must not be empty");
  http::CallOptions call;
  call.send_token = false;
  const auto response = state_->session->post_json(
      state_->session->url("auth/sliding"), {{"username", username}, {"password", password}}, call);
  auto token = mgnify::detail::decode_response<TokenResponse>(response);
  state_->session->set_token(token.token);
  return token;
}

MGNIFY_DECL TokenResponse V2Client::refresh() {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("refresh() needs a token: call login() or set_token() first");
  auto token = State::refresh_token(*state_->session, *current);
  state_->session->set_token(token.token);
  return token;
}

MGNIFY_DECL bool V2Client::verify() const {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("verify() needs a token: call login() or set_token() first");
  http::CallOptions call;
  call.send_token = false;
  try {
    state_->session->post_json(state_->session->url("auth/verify"), {{"token", *current}}, call);
    return true;
  } catch (const AuthError& e) {
    if (e.status() == 401) return false;
    throw;
  }
}

MGNIFY_DECL void V2Client::set_token(std::optional<std::string> token) {
  state_->session->set_token(std::move(token));
}
MGNIFY_DECL void V2Client::logout() { state_->session->set_token(std::nullopt); }
MGNIFY_DECL bool V2Client::logged_in() const { return state_->session->has_token(); }

// ---- studies -------------------------------------------------------------------

MGNIFY_DECL Paged<Study> V2Client::studies(const StudyQuery& query, const ListOptions& list) const {
  return paged<Study>("studies/", query.to_query(), list);
}
MGNIFY_DECL StudyDetail V2Client::study(const std::string& accession) const {
  return get<StudyDetail>("studies/" + segment(checked_accession(accession, kStudyAccession)));
}
MGNIFY_DECL StudyIdentifier
V2Client::study_by_insdc_accession(const std::string& insdc_accession) const {
  return get<StudyIdentifier>("studies/insdc/" + segment(insdc_accession));
}
MGNIFY_DECL Paged<Analysis> V2Client::study_analyses(const std::string& accession,
                                                     const ListOptions& list) const {
  return paged<Analysis>(sub("studies/", checked_accession(accession, kStudyAccession), "/analyses/"), {},
                         list);
}
MGNIFY_DECL Paged<SampleWithMetadata> V2Client::study_samples(const std::string& accession,
                                                              const ListOptions& list) const {
  return paged<SampleWithMetadata>(
      sub("studies/", checked_accession(accession, kStudyAccession), "/samples/"), {}, list);
}
MGNIFY_DECL Paged<Publication> V2Client::study_publications(const std::string& accession,
                                                            const ListOptions& list) const {
  return paged<Publication>(sub("studies/", checked_accession(accession, kStudyAccession), "/publications/"),
                            {}, list);
}
MGNIFY_DECL Paged<Study> V2Client::my_studies(const ListOptions& list) const {
  if (!logged_in())
    throw InvalidArgument("my_studies() needs a token: call login() or set_token() first");
  return paged<Study>("my-data/studies/", {}, list);
}

// ---- samples -------------------------------------------------------------------

MGNIFY_DECL Paged<Sample> V2Client::samples(const SampleQuery& query,
                                            const ListOptions& list) const {
  return paged<Sample>("samples/", query.to_query(), list);
}
MGNIFY_DECL SampleDetail V2Client::sample(const std::string& accession) const {
  return get<SampleDetail>("samples/" + segment(accession));
}
MGNIFY_DECL Paged<AnalysedRun> V2Client::sample_runs(const std::string& accession,
                                                     const ListOptions& list) const {
  return paged<AnalysedRun>(sub("samples/", accession, "/runs/"), {}, list);
}
MGNIFY_DECL Paged<AssemblyDetail> V2Client::sample_assemblies(const std::string& accession,
                                                              const ListOptions& list) const {
  return paged<AssemblyDetail>(sub("samples/", accession, "/assemblies/"), {}, list);
}

// ---- runs ----------------------------------------------------------------------

MGNIFY_DECL Paged<AnalysedRun> V2Client::runs(const RunQuery& query,
                                              const ListOptions& list) const {
  return paged<AnalysedRun>("runs/", query.to_query(), list);
}
MGNIFY_DECL AnalysedRunDetail V2Client::run(const std::string& accession) const {
  return get<AnalysedRunDetail>("runs/" + segment(accession));
}
MGNIFY_DECL Paged<Analysis> V2Client::run_analyses(const std::string& accession,
                                                   const ListOptions& list) const {
  return paged<Analysis>(sub("runs/", accession, "/analyses/"), {}, list);
}
MGNIFY_DECL Paged<AssemblyDetail> V2Client::run_assemblies(const std::string& accession,
                                                           const ListOptions& list) const {
  return paged<AssemblyDetail>(sub("runs/", accession, "/assemblies/"), {}, list);
}

// ---- assemblies ----------------------------------------------------------------

MGNIFY_DECL Paged<Assembly> V2Client::assemblies(const ListOptions& list) const {
  return paged<Assembly>("assemblies/", {}, list);
}
MGNIFY_DECL AssemblyDetail V2Client::assembly(const std::string& accession) const {
  return get<AssemblyDetail>("assemblies/" + segment(accession));
}
MGNIFY_DECL Paged<Analysis> V2Client::assembly_analyses(const std::string& accession,
                                                        const ListOptions& list) const {
  return paged<Analysis>(sub("assemblies/", accession, "/analyses"), {}, list);
}
MGNIFY_DECL Paged<GenomeAssemblyLinkSchema> V2Client::assembly_genome_links(
    const std::string& accession, const ListOptions& list) const {
  return paged<GenomeAssemblyLinkSchema>(sub("assemblies/", accession, "/genome-links"), {}, list);
}
MGNIFY_DECL Paged<AdditionalContainedGenomeSchema> V2Client::assembly_additional_contained_genomes(
    const std::string& accession, const ListOptions& list) const {
  return paged<AdditionalContainedGenomeSchema>(
      sub("assemblies/", accession, "/additional-contained-genomes"), {}, list);
}

// ---- analyses ------------------------------------------------------------------

MGNIFY_DECL Paged<AnalysisDetail> V2Client::analyses(const ListOptions& list) const {
  return paged<AnalysisDetail>("analyses/", {}, list);
}
MGNIFY_DECL AnalysisDetail V2Client::analysis(const std::string& accession) const {
  return get<AnalysisDetail>("analyses/" + segment(checked_accession(accession, kAnalysisAccession)));
}
MGNIFY_DECL AnalysisWithAnnotations
V2Client::analysis_annotations(const std::string& accession) const {
  return get<AnalysisWithAnnotations>(
      sub("analyses/", checked_accession(accession, kAnalysisAccession), "/annotations"));
}
MGNIFY_DECL Paged<AnalysisTypedAnnotation> V2Client::analysis_annotations_of_type(
    const std::string& accession, AnnotationType type, const ListOptions& list) const {
  if (type == AnnotationType::unknown)
    throw InvalidArgument("annotation type must be a known value");
  return paged<AnalysisTypedAnnotation>(
      sub("analyses/", checked_accession(accession, kAnalysisAccession), "/annotations/") + to_string(type), {},
      list);
}

// ---- biomes --------------------------------------------------------------------

MGNIFY_DECL Paged<Biome> V2Client::biomes(const BiomeQuery& query, const ListOptions& list) const {
  return paged<Biome>("biomes/", query.to_query(), list);
}

// ---- publications --------------------------------------------------------------

MGNIFY_DECL Paged<Publication> V2Client::publications(const PublicationQuery& query,
                                                      const ListOptions& list) const {
  return paged<Publication>("publications/", query.to_query(), list);
}
MGNIFY_DECL PublicationDetail V2Client::publication(std::int64_t pubmed_id) const {
  return get<PublicationDetail>("publications/" + checked_pubmed_id(pubmed_id));
}
MGNIFY_DECL PublicationAnnotations V2Client::publication_annotations(std::int64_t pubmed_id) const {
  return get<PublicationAnnotations>("publications/" + checked_pubmed_id(pubmed_id) + "/annotations");
}

// ---- super studies -------------------------------------------------------------

MGNIFY_DECL Paged<SuperStudy> V2Client::super_studies(const ListOptions& list) const {
  return paged<SuperStudy>("super-studies/", {}, list);
}
MGNIFY_DECL SuperStudyDetail V2Client::super_study(const std::string& slug) const {
  return get<SuperStudyDetail>("super-studies/" + segment(slug));
}

// ---- genomes -------------------------------------------------------------------

MGNIFY_DECL Paged<Genome> V2Client::genomes(const GenomeQuery& query,
                                            const ListOptions& list) const {
  return paged<Genome>("genomes/", query.to_query(), list);
}
MGNIFY_DECL GenomeDetail V2Client::genome(const std::string& accession,
                                          const GenomeLookup& lookup) const {
  return get<GenomeDetail>("genomes/" + segment(checked_accession(accession, kGenomeAccession)),
                           lookup.to_query());
}
MGNIFY_DECL GenomeWithAnnotations V2Client::genome_annotations(const std::string& accession,
                                                               const GenomeLookup& lookup) const {
  return get<GenomeWithAnnotations>(
      sub("genomes/", checked_accession(accession, kGenomeAccession), "/annotations"),
      lookup.to_query());
}
MGNIFY_DECL Paged<GenomeCatalogue> V2Client::genome_catalogues(const ListOptions& list) const {
  return paged<GenomeCatalogue>("genomes/catalogues/", {}, list);
}
MGNIFY_DECL GenomeCatalogueDetail
V2Client::genome_catalogue(const std::string& catalogue_id) const {
  return get<GenomeCatalogueDetail>("genomes/catalogues/" + segment(catalogue_id));
}
MGNIFY_DECL Paged<Genome> V2Client::catalogue_genomes(const std::string& catalogue_id,
                                                      const GenomeQuery& query,
                                                      const ListOptions& list) const {
  return paged<Genome>(sub("genomes/catalogues/", catalogue_id, "/genomes/"), query.to_query(),
                       list);
}

// ---- batches -------------------------------------------------------------------

MGNIFY_DECL std::vector<Result<StudyDetail>> V2Client::get_studies(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<StudyDetail>(accessions, batch, [this](const std::string& a) { return study(a); });
}
MGNIFY_DECL std::vector<Result<SampleDetail>> V2Client::get_samples(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<SampleDetail>(accessions, batch, [this](const std::string& a) { return sample(a); });
}
MGNIFY_DECL std::vector<Result<AnalysedRunDetail>> V2Client::get_runs(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<AnalysedRunDetail>(accessions, batch,
                                 [this](const std::string& a) { return run(a); });
}
MGNIFY_DECL std::vector<Result<AssemblyDetail>> V2Client::get_assemblies(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<AssemblyDetail>(accessions, batch,
                              [this](const std::string& a) { return assembly(a); });
}
MGNIFY_DECL std::vector<Result<AnalysisDetail>> V2Client::get_analyses(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<AnalysisDetail>(accessions, batch,
                              [this](const std::string& a) { return analysis(a); });
}
MGNIFY_DECL std::vector<Result<GenomeDetail>> V2Client::get_genomes(
    const std::vector<std::string>& accessions, const BatchOptions& batch) const {
  return many<GenomeDetail>(accessions, batch, [this](const std::string& a) { return genome(a); });
}
MGNIFY_DECL std::vector<Result<PublicationDetail>> V2Client::get_publications(
    const std::vector<std::int64_t>& ids, const BatchOptions& batch) const {
  return mgnify::detail::run_batch(ids.size(), batch, state_->v2.concurrency,
                                   [this, &ids](std::size_t i) { return publication(ids[i]); });
}

// ---- files ---------------------------------------------------------------------

MGNIFY_DECL files::DownloadResult V2Client::download(const std::string& url,
                                                     const std::filesystem::path& path,
                                                     const files::DownloadOptions& options) const {
  return files::download(*state_->session, url, path, options);
}
MGNIFY_DECL files::DownloadResult V2Client::download(const DownloadFile& file,
                                                     const std::filesystem::path& path,
                                                     files::DownloadOptions options) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return files::download(*state_->session, job.url, job.path, job.options);
}
MGNIFY_DECL std::vector<Result<files::DownloadResult>> V2Client::download_many(
    const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch,
    files::BatchProgressCallback bytes_progress) const {
  return files::download_many(*state_->session, jobs, batch, std::move(bytes_progress));
}

// ---- the service's description and text bodies ---------------------------------

MGNIFY_DECL nlohmann::json V2Client::openapi(const CancelToken& cancel) const {
  const auto response = state_->get(state_->session->url("openapi.json"), cancel);
  return mgnify::detail::parse_body(response.body, response.url);
}
MGNIFY_DECL std::string V2Client::openapi_text(const CancelToken& cancel) const {
  return http::read_text(*state_->session, state_->session->url("openapi.json"), http::media::kJson,
                         cancel)
      .text;
}
MGNIFY_DECL http::TextBody V2Client::read_text(const std::string& url, const std::string& accept,
                                               const CancelToken& cancel) const {
  return http::read_text(*state_->session, url, accept, cancel);
}
MGNIFY_DECL http::StreamResult V2Client::stream_text(const std::string& url,
                                                     const http::BodySink& sink,
                                                     const std::string& accept,
                                                     const http::StreamOptions& options) const {
  return http::stream_text(*state_->session, url, accept, sink, options);
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
