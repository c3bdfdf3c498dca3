#pragma once

// V2Client: one method per GET endpoint of the MGnify API v2 (plus the auth
// calls). Lists are lazy Paged<T> ranges that walk `page` from 1 until
// `count` items came, in pages of the size the server serves, each page
// checked against the total (detail/counted_pages.hpp); details decode into
// the typed models.

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

#include "mgnify/auth.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/result.hpp"
#include "mgnify/v2/analyses.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/fast_decode.hpp"
#include "mgnify/v2/genome_search.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/v2/page.hpp"
#include "mgnify/v2/publications.hpp"
#include "mgnify/v2/queries.hpp"
#include "mgnify/v2/runs.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/v2/super_studies.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

inline constexpr const char* kDefaultBaseUrl = "https://www.ebi.ac.uk/metagenomics/api/v2";

/// The largest ListOptions::page_size the v2 lists accept, and the one asked for when unset.
inline constexpr int kMaxPageSize = 100;

/// Added to the text of a 404 from a call that carried a token.
inline constexpr const char* kPrivateNotFoundHint =
    "the MGnify v2 service answers 404, not 403, for private objects the caller may not see: "
    "check that the token belongs to the object's owner";

/// A bulk-download job for a listed file: its `url`, with `file_size_bytes` as the
/// expected size when the service published one (an expected size already set in
/// `options` wins; v2 publishes no digests). Throws InvalidArgument when the file
/// has no URL, as pre-V6 results do.
inline files::DownloadJob download_job(const DownloadFile& file, std::filesystem::path path,
                                       files::DownloadOptions options = {}) {
  if (!file.has_url()) throw InvalidArgument("download '" + file.alias + "' has no url");
  if (!options.expected_size && file.file_size_bytes && *file.file_size_bytes >= 0) {
    options.expected_size = static_cast<std::uint64_t>(*file.file_size_bytes);
  }
  return files::DownloadJob{*file.url, std::move(path), std::move(options)};
}

/// Behaviour specific to the v2 client.
struct V2Options {
  /// When a rejected token cannot be refreshed, forget it and repeat the call
  /// anonymously (public data still works) instead of throwing AuthError.
  bool anonymous_fallback_on_auth_failure = false;
  /// Requests in flight for the get_* batch calls.
  std::size_t concurrency = 8;
};

/// The genome search methods (genome_search, submit_gather, gather_status,
/// wait_for_gather, gather_results, download_gather_results) come from
/// GenomeSearchMethods; see docs/v2.md.
class V2Client : public mgnify::detail::GenomeSearchMethods<V2Client, GenomeSearchResult> {
 public:
  explicit V2Client(ClientOptions options = {}, V2Options v2 = {})
      : state_(std::make_shared<State>(
            std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                            kDefaultBaseUrl),
            v2)) {}

  /// Shares an existing session (its base URL must be the v2 root).
  explicit V2Client(std::shared_ptr<http::Session> session, V2Options v2 = {})
      : state_(std::make_shared<State>(require(std::move(session)), v2)) {}

  http::Session& session() const noexcept { return *state_->session; }
  std::shared_ptr<http::Session> shared_session() const noexcept { return state_->session; }
  const std::string& base_url() const noexcept { return state_->session->base_url(); }

  // ---- auth -----------------------------------------------------------------

  /// POST auth/sliding with Webin credentials; on success the token is used
  /// for every following call. Bad credentials throw AuthError ("Invalid credentials").
  TokenResponse login(const std::string& username, const std::string& password) {
    if (!valid_webin_username(username)) {
      throw InvalidArgument(
          "username must be a Webin account ('Webin-<digits>' or "
          "'mg-Webin-<digits>'), got '" +
          username + "'");
    }
    if (password.empty()) throw InvalidArgument("password must not be empty");
    http::CallOptions call;
    call.send_token = false;
    const auto response =
        state_->session->post_json(state_->session->url("auth/sliding"),
                                   {{"username", username}, {"password", password}}, call);
    auto token = mgnify::detail::decode_response<TokenResponse>(response);
    state_->session->set_token(token.token);
    return token;
  }

  /// POST auth/sliding/refresh with the current token; the new token replaces it.
  TokenResponse refresh() {
    const auto current = state_->session->token();
    if (!current)
      throw InvalidArgument("refresh() needs a token: call login() or set_token() first");
    auto token = State::refresh_token(*state_->session, *current);
    state_->session->set_token(token.token);
    return token;
  }

  /// POST auth/verify: true when the service accepts the current token, false when it answers 401.
  bool verify() const {
    const auto current = state_->session->token();
    if (!current)
      throw InvalidArgument("verify() needs a token: call login() or set_token() first");
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

  void set_token(std::optional<std::string> token) { state_->session->set_token(std::move(token)); }
  /// Forgets the token; later requests are anonymous.
  void logout() { state_->session->set_token(std::nullopt); }
  bool logged_in() const { return state_->session->has_token(); }

  // ---- studies --------------------------------------------------------------

  Paged<Study> studies(const StudyQuery& query = {}, const ListOptions& list = {}) const {
    return paged<Study>("studies/", query.to_query(), list);
  }
  StudyDetail study(const std::string& accession) const {
    return get<StudyDetail>("studies/" + segment(mgnify_accession(accession, "MGYS")));
  }
  /// The MGnify accession of an INSDC study (ERP/SRP/DRP/PRJ...).
  StudyIdentifier study_by_insdc_accession(const std::string& insdc_accession) const {
    return get<StudyIdentifier>("studies/insdc/" + segment(insdc_accession));
  }
  Paged<Analysis> study_analyses(const std::string& accession, const ListOptions& list = {}) const {
    return paged<Analysis>(sub("studies/", mgnify_accession(accession, "MGYS"), "/analyses/"), {},
                           list);
  }
  Paged<SampleWithMetadata> study_samples(const std::string& accession,
                                          const ListOptions& list = {}) const {
    return paged<SampleWithMetadata>(
        sub("studies/", mgnify_accession(accession, "MGYS"), "/samples/"), {}, list);
  }
  Paged<Publication> study_publications(const std::string& accession,
                                        const ListOptions& list = {}) const {
    return paged<Publication>(
        sub("studies/", mgnify_accession(accession, "MGYS"), "/publications/"), {}, list);
  }
  /// my-data/studies/: the token owner's studies, private ones included (needs a token).
  Paged<Study> my_studies(const ListOptions& list = {}) const {
    if (!logged_in())
      throw InvalidArgument("my_studies() needs a token: call login() or set_token() first");
    return paged<Study>("my-data/studies/", {}, list);
  }

  // ---- samples --------------------------------------------------------------

  Paged<Sample> samples(const SampleQuery& query = {}, const ListOptions& list = {}) const {
    return paged<Sample>("samples/", query.to_query(), list);
  }
  /// By any of the sample's ENA/BioSample accessions.
  SampleDetail sample(const std::string& accession) const {
    return get<SampleDetail>("samples/" + segment(accession));
  }
  Paged<AnalysedRun> sample_runs(const std::string& accession, const ListOptions& list = {}) const {
    return paged<AnalysedRun>(sub("samples/", accession, "/runs/"), {}, list);
  }
  Paged<AssemblyDetail> sample_assemblies(const std::string& accession,
                                          const ListOptions& list = {}) const {
    return paged<AssemblyDetail>(sub("samples/", accession, "/assemblies/"), {}, list);
  }

  // ---- runs -----------------------------------------------------------------

  Paged<AnalysedRun> runs(const RunQuery& query = {}, const ListOptions& list = {}) const {
    return paged<AnalysedRun>("runs/", query.to_query(), list);
  }
  AnalysedRunDetail run(const std::string& accession) const {
    return get<AnalysedRunDetail>("runs/" + segment(accession));
  }
  Paged<Analysis> run_analyses(const std::string& accession, const ListOptions& list = {}) const {
    return paged<Analysis>(sub("runs/", accession, "/analyses/"), {}, list);
  }
  Paged<AssemblyDetail> run_assemblies(const std::string& accession,
                                       const ListOptions& list = {}) const {
    return paged<AssemblyDetail>(sub("runs/", accession, "/assemblies/"), {}, list);
  }

  // ---- assemblies -----------------------------------------------------------

  Paged<Assembly> assemblies(const ListOptions& list = {}) const {
    return paged<Assembly>("assemblies/", {}, list);
  }
  AssemblyDetail assembly(const std::string& accession) const {
    return get<AssemblyDetail>("assemblies/" + segment(accession));
  }
  Paged<Analysis> assembly_analyses(const std::string& accession,
                                    const ListOptions& list = {}) const {
    return paged<Analysis>(sub("assemblies/", accession, "/analyses"), {}, list);
  }
  Paged<GenomeAssemblyLinkSchema> assembly_genome_links(const std::string& accession,
                                                        const ListOptions& list = {}) const {
    return paged<GenomeAssemblyLinkSchema>(sub("assemblies/", accession, "/genome-links"), {},
                                           list);
  }
  Paged<AdditionalContainedGenomeSchema> assembly_additional_contained_genomes(
      const std::string& accession, const ListOptions& list = {}) const {
    return paged<AdditionalContainedGenomeSchema>(
        sub("assemblies/", accession, "/additional-contained-genomes"), {}, list);
  }

  // ---- analyses -------------------------------------------------------------

  /// Every public analysis, in detail form (downloads included).
  Paged<AnalysisDetail> analyses(const ListOptions& list = {}) const {
    return paged<AnalysisDetail>("analyses/", {}, list);
  }
  AnalysisDetail analysis(const std::string& accession) const {
    return get<AnalysisDetail>("analyses/" + segment(mgnify_accession(accession, "MGYA")));
  }
  AnalysisWithAnnotations analysis_annotations(const std::string& accession) const {
    return get<AnalysisWithAnnotations>(
        sub("analyses/", mgnify_accession(accession, "MGYA"), "/annotations"));
  }
  Paged<AnalysisTypedAnnotation> analysis_annotations_of_type(const std::string& accession,
                                                              AnnotationType type,
                                                              const ListOptions& list = {}) const {
    if (type == AnnotationType::unknown)
      throw InvalidArgument("annotation type must be a known value");
    return paged<AnalysisTypedAnnotation>(
        sub("analyses/", mgnify_accession(accession, "MGYA"), "/annotations/") + to_string(type),
        {}, list);
  }

  // ---- biomes ---------------------------------------------------------------

  Paged<Biome> biomes(const BiomeQuery& query = {}, const ListOptions& list = {}) const {
    return paged<Biome>("biomes/", query.to_query(), list);
  }

  // ---- publications ---------------------------------------------------------

  Paged<Publication> publications(const PublicationQuery& query = {},
                                  const ListOptions& list = {}) const {
    return paged<Publication>("publications/", query.to_query(), list);
  }
  PublicationDetail publication(std::int64_t pubmed_id) const {
    return get<PublicationDetail>("publications/" + pubmed(pubmed_id));
  }
  /// Europe PMC text-mined annotations (proxied live by the service; 404 when Europe PMC fails).
  PublicationAnnotations publication_annotations(std::int64_t pubmed_id) const {
    return get<PublicationAnnotations>("publications/" + pubmed(pubmed_id) + "/annotations");
  }

  // ---- super studies --------------------------------------------------------

  Paged<SuperStudy> super_studies(const ListOptions& list = {}) const {
    return paged<SuperStudy>("super-studies/", {}, list);
  }
  SuperStudyDetail super_study(const std::string& slug) const {
    return get<SuperStudyDetail>("super-studies/" + segment(slug));
  }

  // ---- genomes --------------------------------------------------------------

  Paged<Genome> genomes(const GenomeQuery& query = {}, const ListOptions& list = {}) const {
    return paged<Genome>("genomes/", query.to_query(), list);
  }
  GenomeDetail genome(const std::string& accession, const GenomeLookup& lookup = {}) const {
    return get<GenomeDetail>("genomes/" + segment(accession), lookup.to_query());
  }
  GenomeWithAnnotations genome_annotations(const std::string& accession,
                                           const GenomeLookup& lookup = {}) const {
    return get<GenomeWithAnnotations>(sub("genomes/", accession, "/annotations"),
                                      lookup.to_query());
  }
  Paged<GenomeCatalogue> genome_catalogues(const ListOptions& list = {}) const {
    return paged<GenomeCatalogue>("genomes/catalogues/", {}, list);
  }
  GenomeCatalogueDetail genome_catalogue(const std::string& catalogue_id) const {
    return get<GenomeCatalogueDetail>("genomes/catalogues/" + segment(catalogue_id));
  }
  Paged<Genome> catalogue_genomes(const std::string& catalogue_id, const GenomeQuery& query = {},
                                  const ListOptions& list = {}) const {
    return paged<Genome>(sub("genomes/catalogues/", catalogue_id, "/genomes/"), query.to_query(),
                         list);
  }

  // ---- batches --------------------------------------------------------------
  // One outcome per accession, in input order; one failure never aborts the batch.
  // BatchOptions::concurrency 0 means V2Options::concurrency.

  std::vector<Result<StudyDetail>> get_studies(const std::vector<std::string>& accessions,
                                               const BatchOptions& batch = {}) const {
    return many<StudyDetail>(accessions, batch, [this](const std::string& a) { return study(a); });
  }
  std::vector<Result<SampleDetail>> get_samples(const std::vector<std::string>& accessions,
                                                const BatchOptions& batch = {}) const {
    return many<SampleDetail>(accessions, batch,
                              [this](const std::string& a) { return sample(a); });
  }
  std::vector<Result<AnalysedRunDetail>> get_runs(const std::vector<std::string>& accessions,
                                                  const BatchOptions& batch = {}) const {
    return many<AnalysedRunDetail>(accessions, batch,
                                   [this](const std::string& a) { return run(a); });
  }
  std::vector<Result<AssemblyDetail>> get_assemblies(const std::vector<std::string>& accessions,
                                                     const BatchOptions& batch = {}) const {
    return many<AssemblyDetail>(accessions, batch,
                                [this](const std::string& a) { return assembly(a); });
  }
  std::vector<Result<AnalysisDetail>> get_analyses(const std::vector<std::string>& accessions,
                                                   const BatchOptions& batch = {}) const {
    return many<AnalysisDetail>(accessions, batch,
                                [this](const std::string& a) { return analysis(a); });
  }
  std::vector<Result<GenomeDetail>> get_genomes(const std::vector<std::string>& accessions,
                                                const BatchOptions& batch = {}) const {
    return many<GenomeDetail>(accessions, batch,
                              [this](const std::string& a) { return genome(a); });
  }
  std::vector<Result<PublicationDetail>> get_publications(const std::vector<std::int64_t>& ids,
                                                          const BatchOptions& batch = {}) const {
    return mgnify::detail::run_batch(ids.size(), batch, state_->v2.concurrency,
                                     [this, &ids](std::size_t i) { return publication(ids[i]); });
  }

  // Files (docs/downloads.md): streamed to <path>.part, resumed, verified, renamed.
  /// Downloads `url` over this client's session; the token goes only to its origin.
  files::DownloadResult download(const std::string& url, const std::filesystem::path& path,
                                 const files::DownloadOptions& options = {}) const {
    return files::download(*state_->session, url, path, options);
  }
  /// Downloads a listed file, checked against its `file_size_bytes` (see download_job).
  files::DownloadResult download(const DownloadFile& file, const std::filesystem::path& path,
                                 files::DownloadOptions options = {}) const {
    files::DownloadJob job = download_job(file, path, std::move(options));
    return files::download(*state_->session, job.url, job.path, job.options);
  }
  /// Several downloads at once as `batch` says (concurrency, 0 meaning
  /// files::kDefaultDownloadConcurrency; files finished; cancel); one outcome
  /// per job, in order (files::download_many, which `bytes_progress` is passed to).
  std::vector<Result<files::DownloadResult>> download_many(
      const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch = {},
      files::BatchProgressCallback bytes_progress = {}) const {
    return files::download_many(*state_->session, jobs, batch, std::move(bytes_progress));
  }

  // ---- the service's description and text bodies -----------------------------

  /// GET openapi.json: the OpenAPI document the service describes itself with.
  nlohmann::json openapi(const CancelToken& cancel = CancelToken::never()) const {
    const auto response = state_->get(state_->session->url("openapi.json"), cancel);
    return mgnify::detail::parse_body(response.body, response.url);
  }
  /// The same document as the text the service sent (bounded by ClientOptions::max_body_bytes).
  std::string openapi_text(const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*state_->session, state_->session->url("openapi.json"),
                           http::media::kJson, cancel)
        .text;
  }
  /// Any text URL (a listed file's `url`, say), read whole; as with
  /// download(), the token goes only to the base URL's origin.
  http::TextBody read_text(const std::string& url, const std::string& accept = "*/*",
                           const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*state_->session, url, accept, cancel);
  }
  /// Any text URL, each chunk handed to `sink` (bounded by StreamOptions::max_bytes).
  http::StreamResult stream_text(const std::string& url, const http::BodySink& sink,
                                 const std::string& accept = "*/*",
                                 const http::StreamOptions& options = {}) const {
    return http::stream_text(*state_->session, url, accept, sink, options);
  }

 private:
  // Shared by the client and every Paged it hands out, so a range may outlive the client.
  struct State {
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

  friend class mgnify::detail::GenomeSearchMethods<V2Client, GenomeSearchResult>;
  mgnify::detail::GenomeSearchCalls genome_search_calls() const {
    return mgnify::detail::GenomeSearchCalls(*state_->session, mgnify::detail::kV2GenomeSearch);
  }

  static std::shared_ptr<http::Session> require(std::shared_ptr<http::Session> session) {
    if (!session) throw InvalidArgument("V2Client needs a session");
    return session;
  }

  static bool valid_webin_username(const std::string& username) {
    std::string rest = username;
    if (rest.rfind("mg-", 0) == 0) rest = rest.substr(3);
    if (rest.rfind("Webin-", 0) != 0 || rest.size() == 6) return false;
    for (std::size_t i = 6; i < rest.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return false;
    }
    return true;
  }

  /// Accepts any case and surrounding spaces; requires the prefix and 8 digits.
  static std::string mgnify_accession(const std::string& text, const char* prefix) {
    std::string a;
    for (char c : text) {
      if (!std::isspace(static_cast<unsigned char>(c))) {
        a.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      }
    }
    const std::string p = prefix;
    bool ok = a.size() == p.size() + 8 && a.compare(0, p.size(), p) == 0;
    for (std::size_t i = p.size(); ok && i < a.size(); ++i) {
      ok = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    }
    if (!ok)
      throw InvalidArgument("not an " + p + " accession (" + p + " + 8 digits): '" + text + "'");
    return a;
  }

  static std::string segment(const std::string& value) { return http::encode_path_segment(value); }
  static std::string sub(const char* head, const std::string& id, const char* tail) {
    return head + segment(id) + tail;
  }
  static std::string pubmed(std::int64_t id) {
    if (id <= 0) throw InvalidArgument("pubmed_id must be positive, got " + std::to_string(id));
    return std::to_string(id);
  }

  template <class T>
  T get(const std::string& path, const http::Query& query = {}) const {
    const auto response = state_->get(state_->session->url(path, query));
    return mgnify::detail::decode_response<T>(response);
  }

  template <class T>
  Paged<T> paged(const std::string& path, http::Query filters, const ListOptions& list) const {
    mgnify::detail::validate(list, {"v2", kMaxPageSize, true});
    const std::int64_t page_size = list.page_size.value_or(kMaxPageSize);
    std::shared_ptr<State> state = state_;
    // Every page is checked against the total and the server's page size
    // (detail/counted_pages.hpp), which also decides where the walk ends.
    auto pages = std::make_shared<mgnify::detail::CountedPages>(page_size);
    mgnify::detail::WalkSpec<T> spec;
    spec.first_token = std::to_string(list.start_page);
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
      const std::int64_t start_page = list.start_page;
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
  std::vector<Result<T>> many(const std::vector<std::string>& ids, const BatchOptions& batch,
                              Fn fn) const {
    return mgnify::detail::run_batch(ids.size(), batch, state_->v2.concurrency,
                                     [&ids, &fn](std::size_t i) { return fn(ids[i]); });
  }

  std::shared_ptr<State> state_;
};

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
