#pragma once

// V2Client: one method per GET endpoint of the MGnify API v2 (plus the auth
// calls). Lists are lazy Paged<T> ranges that walk `page` from 1 until
// `count` items came, in pages of the size the server serves, each page
// checked against the total (detail/counted_pages.hpp); details decode into
// the typed models.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/accession.hpp"
#include "mgnify/auth.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/detail/call_forms.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search/verbs.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/result.hpp"
#include "mgnify/service_verbs.hpp"
#include "mgnify/v2/analyses.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/defaults.hpp"
#include "mgnify/v2/downloads.hpp"
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

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

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
MGNIFY_DECL files::DownloadJob download_job(const DownloadFile& file, std::filesystem::path path,
                                            files::DownloadOptions options = {});

// V2Options' own copies and moves of its deprecated member are not uses of
// it; a program that names the member is still warned.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
/// Behaviour specific to the v2 client.
struct V2Options {
  /// When a rejected token cannot be refreshed, forget it and repeat the call
  /// anonymously (public data still works) instead of throwing AuthError.
  bool anonymous_fallback_on_auth_failure = false;
  /// Deprecated: a batch's concurrency is BatchOptions::concurrency, as for
  /// every client. Still obeyed as this client's default (BatchOptions::concurrency 0).
  [[deprecated("set BatchOptions::concurrency")]] std::size_t concurrency = defaults::kConcurrency;
};
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// The API v2 client. The session, downloads and text reads come from ServiceVerbs,
/// the genome search calls (genome_search, submit_gather, gather_status,
/// wait_for_gather, gather_results, download_gather_results) from GenomeSearchVerbs;
/// see docs/clients.md.
//
// Programs name V2Client (below), which adds nothing to this template. The parameter is
// unused: it makes every member body a template, so that header-only, a file compiles
// only the bodies it calls (and the walks and decoders of their models), not all of them
// wherever the header is included. With MGNIFY_SEPARATE_COMPILATION the library holds
// BasicV2Client<void>. The reference shows this class as V2Client
// (docs/doxygen_client_filter.py).
template <class = void>
class BasicV2Client : public ServiceVerbs, public GenomeSearchVerbs<GenomeSearchResult> {
 public:
  explicit BasicV2Client(ClientOptions options = {}, V2Options v2 = {});

  /// Shares an existing session (its base URL must be the v2 root).
  explicit BasicV2Client(std::shared_ptr<http::Session> session, V2Options v2 = {});

  using ServiceVerbs::base_url;
  using ServiceVerbs::session;
  using ServiceVerbs::shared_session;

  // ---- auth -----------------------------------------------------------------

  /// POST auth/sliding with Webin credentials; on success the token is used
  /// for every following call. Bad credentials throw AuthError ("Invalid credentials").
  TokenResponse login(const std::string& username, const std::string& password,
                      const CallOptions& call = {});

  /// POST auth/sliding/refresh with the current token; the new token replaces it.
  TokenResponse refresh(const CallOptions& call = {});

  /// POST auth/verify: true when the service accepts the current token, false when it answers 401.
  bool verify(const CallOptions& call = {}) const;

  void set_token(std::optional<std::string> token);
  /// Forgets the token; later requests are anonymous.
  void logout();
  bool logged_in() const;

  // Every list takes (ids..., ListOptions, CallOptions), and a list with a query
  // (query, ListOptions, CallOptions); the options before the CallOptions may each be
  // left out (MGNIFY_FILTERED_LIST_FORMS, MGNIFY_CALL_ONLY_FORM, docs/clients.md).

  // ---- studies --------------------------------------------------------------

  Paged<Study> studies(const StudyQuery& query = {}, const ListOptions& list = {},
                       const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, studies, StudyQuery, (), ())
  StudyDetail study(const AccessionArg<StudyAccession>& accession,
                    const CallOptions& call = {}) const;
  /// The MGnify accession of an INSDC study (ERP/SRP/DRP/PRJEB/PRJNA/PRJDB
  /// and digits, any case); anything else is InvalidArgument before any request.
  StudyIdentifier study_by_insdc_accession(const AccessionArg<StudyAccession>& insdc_accession,
                                           const CallOptions& call = {}) const;
  Paged<Analysis> study_analyses(const AccessionArg<StudyAccession>& accession,
                                 const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Analysis>, study_analyses, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<SampleWithMetadata> study_samples(const AccessionArg<StudyAccession>& accession,
                                          const ListOptions& list = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<SampleWithMetadata>, study_samples, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<Publication> study_publications(const AccessionArg<StudyAccession>& accession,
                                        const ListOptions& list = {},
                                        const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Publication>, study_publications, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  /// my-data/studies/: the token owner's studies, private ones included (needs a token).
  Paged<Study> my_studies(const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Study>, my_studies, (ListOptions()), (), ())

  // ---- samples --------------------------------------------------------------

  Paged<Sample> samples(const SampleQuery& query = {}, const ListOptions& list = {},
                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, samples, SampleQuery, (), ())
  /// By any of the sample's ENA/BioSample accessions.
  SampleDetail sample(const AccessionArg<SampleAccession>& accession,
                      const CallOptions& call = {}) const;
  Paged<AnalysedRun> sample_runs(const AccessionArg<SampleAccession>& accession,
                                 const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AnalysedRun>, sample_runs, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<AssemblyDetail> sample_assemblies(const AccessionArg<SampleAccession>& accession,
                                          const ListOptions& list = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AssemblyDetail>, sample_assemblies, (ListOptions()),
                        (const std::string& accession, ), (accession, ))

  // ---- runs -----------------------------------------------------------------

  Paged<AnalysedRun> runs(const RunQuery& query = {}, const ListOptions& list = {},
                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<AnalysedRun>, runs, RunQuery, (), ())
  AnalysedRunDetail run(const AccessionArg<RunAccession>& accession,
                        const CallOptions& call = {}) const;
  Paged<Analysis> run_analyses(const AccessionArg<RunAccession>& accession,
                               const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Analysis>, run_analyses, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<AssemblyDetail> run_assemblies(const AccessionArg<RunAccession>& accession,
                                       const ListOptions& list = {},
                                       const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AssemblyDetail>, run_assemblies, (ListOptions()),
                        (const std::string& accession, ), (accession, ))

  // ---- assemblies -----------------------------------------------------------

  Paged<Assembly> assemblies(const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Assembly>, assemblies, (ListOptions()), (), ())
  AssemblyDetail assembly(const AccessionArg<AssemblyAccession>& accession,
                          const CallOptions& call = {}) const;
  Paged<Analysis> assembly_analyses(const AccessionArg<AssemblyAccession>& accession,
                                    const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<Analysis>, assembly_analyses, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<GenomeAssemblyLinkSchema> assembly_genome_links(
      const AccessionArg<AssemblyAccession>& accession, const ListOptions& list = {},
      const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<GenomeAssemblyLinkSchema>, assembly_genome_links, (ListOptions()),
                        (const std::string& accession, ), (accession, ))
  Paged<AdditionalContainedGenomeSchema> assembly_additional_contained_genomes(
      const AccessionArg<AssemblyAccession>& accession, const ListOptions& list = {},
      const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AdditionalContainedGenomeSchema>,
                        assembly_additional_contained_genomes, (ListOptions()),
                        (const std::string& accession, ), (accession, ))

  // ---- analyses -------------------------------------------------------------

  /// Every public analysis, in detail form (downloads included).
  Paged<AnalysisDetail> analyses(const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AnalysisDetail>, analyses, (ListOptions()), (), ())
  AnalysisDetail analysis(const AccessionArg<AnalysisAccession>& accession,
                          const CallOptions& call = {}) const;
  AnalysisWithAnnotations analysis_annotations(const AccessionArg<AnalysisAccession>& accession,
                                               const CallOptions& call = {}) const;
  Paged<AnalysisTypedAnnotation> analysis_annotations_of_type(
      const AccessionArg<AnalysisAccession>& accession, AnnotationType type,
      const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<AnalysisTypedAnnotation>, analysis_annotations_of_type,
                        (ListOptions()), (const std::string& accession, AnnotationType type, ),
                        (accession, type, ))

  // ---- biomes ---------------------------------------------------------------

  Paged<Biome> biomes(const BiomeQuery& query = {}, const ListOptions& list = {},
                      const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Biome>, biomes, BiomeQuery, (), ())

  // ---- publications ---------------------------------------------------------

  Paged<Publication> publications(const PublicationQuery& query = {}, const ListOptions& list = {},
                                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Publication>, publications, PublicationQuery, (), ())
  PublicationDetail publication(std::int64_t pubmed_id, const CallOptions& call = {}) const;
  /// Europe PMC text-mined annotations (proxied live by the service; 404 when Europe PMC fails).
  PublicationAnnotations publication_annotations(std::int64_t pubmed_id,
                                                 const CallOptions& call = {}) const;

  // ---- super studies --------------------------------------------------------

  Paged<SuperStudy> super_studies(const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<SuperStudy>, super_studies, (ListOptions()), (), ())
  SuperStudyDetail super_study(const std::string& slug, const CallOptions& call = {}) const;

  // ---- genomes --------------------------------------------------------------

  Paged<Genome> genomes(const GenomeQuery& query = {}, const ListOptions& list = {},
                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, genomes, GenomeQuery, (), ())
  GenomeDetail genome(const AccessionArg<GenomeAccession>& accession,
                      const GenomeLookup& lookup = {}, const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(GenomeDetail, genome, (GenomeLookup()), (const std::string& accession, ),
                        (accession, ))
  GenomeWithAnnotations genome_annotations(const AccessionArg<GenomeAccession>& accession,
                                           const GenomeLookup& lookup = {},
                                           const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(GenomeWithAnnotations, genome_annotations, (GenomeLookup()),
                        (const std::string& accession, ), (accession, ))
  Paged<GenomeCatalogue> genome_catalogues(const ListOptions& list = {},
                                           const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(Paged<GenomeCatalogue>, genome_catalogues, (ListOptions()), (), ())
  GenomeCatalogueDetail genome_catalogue(const std::string& catalogue_id,
                                         const CallOptions& call = {}) const;
  Paged<Genome> catalogue_genomes(const std::string& catalogue_id, const GenomeQuery& query = {},
                                  const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, catalogue_genomes, GenomeQuery,
                             (const std::string& catalogue_id, ), (catalogue_id, ))

  // ---- batches --------------------------------------------------------------
  // One outcome per accession, in input order; one failure never aborts the batch.
  // BatchOptions::concurrency 0 means defaults::kConcurrency.

  std::vector<Result<StudyDetail>> get_studies(const AccessionList<StudyAccession>& accessions,
                                               const BatchOptions& batch = {},
                                               const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<StudyDetail>>, get_studies, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<SampleDetail>> get_samples(const AccessionList<SampleAccession>& accessions,
                                                const BatchOptions& batch = {},
                                                const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<SampleDetail>>, get_samples, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<AnalysedRunDetail>> get_runs(const AccessionList<RunAccession>& accessions,
                                                  const BatchOptions& batch = {},
                                                  const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<AnalysedRunDetail>>, get_runs, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<AssemblyDetail>> get_assemblies(
      const AccessionList<AssemblyAccession>& accessions, const BatchOptions& batch = {},
      const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<AssemblyDetail>>, get_assemblies, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<AnalysisDetail>> get_analyses(
      const AccessionList<AnalysisAccession>& accessions, const BatchOptions& batch = {},
      const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<AnalysisDetail>>, get_analyses, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<GenomeDetail>> get_genomes(const AccessionList<GenomeAccession>& accessions,
                                                const BatchOptions& batch = {},
                                                const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<GenomeDetail>>, get_genomes, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<PublicationDetail>> get_publications(const std::vector<std::int64_t>& ids,
                                                          const BatchOptions& batch = {},
                                                          const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<PublicationDetail>>, get_publications, (BatchOptions()),
                        (const std::vector<std::int64_t>& ids, ), (ids, ))

  // Files (docs/downloads.md): download(url, ...) and download_many come from ServiceVerbs.
  using ServiceVerbs::download;
  /// Downloads a listed file, checked against its `file_size_bytes` (see download_job).
  files::DownloadResult download(const DownloadFile& file, const std::filesystem::path& path,
                                 files::DownloadOptions options = {},
                                 const CallOptions& call = {}) const;

  // ---- the service's description and text bodies -----------------------------

  /// GET openapi.json: the OpenAPI document the service describes itself with.
  nlohmann::json openapi(const CallOptions& call = {}) const;
  /// The same document as the text the service sent (bounded by ClientOptions::max_body_bytes).
  std::string openapi_text(const CallOptions& call = {}) const;
  // Any text URL (a listed file's `url`, say): read_text and stream_text come from ServiceVerbs.

 private:
  // Shared by the client and every Paged it hands out, so a range may outlive
  // the client. Only the bodies (v2/impl/client.ipp) see its members, so a file
  // that includes this header pays for none of the walk and decode machinery.
  struct State;

  static bool valid_webin_username(const std::string& username);
  static std::int64_t resume_page(const std::string& token);
  static std::string segment(const std::string& value);
  static std::string sub(const char* head, const std::string& id, const char* tail);

  template <class T>
  T get(const std::string& path, const http::Query& query, const CallOptions& call) const;
  template <class T>
  Paged<T> paged(const std::string& path, http::Query filters, const ListOptions& list,
                 const CallOptions& call) const;
  template <class T, class Fn>
  std::vector<Result<T>> many(const std::vector<std::string>& ids, const BatchOptions& batch,
                              const CallOptions& call, Fn fn) const;

  std::shared_ptr<State> state_;
};

#if !MGNIFY_HEADER_ONLY
// The models whose walks (PAGED) and decoders (GET) the compiled library holds,
// by the unit that instantiates them (include/mgnify/impl/units/v2_<area>.hpp).
// Every other file, BasicV2Client<void>'s own unit included, sees them declared
// extern, so that only one unit compiles each model's walk and decoder.
// clang-format off
#define MGNIFY_V2_MODELS_STUDIES(PAGED, GET) \
  PAGED(Study) PAGED(Sample) PAGED(SampleWithMetadata) PAGED(AnalysedRun) PAGED(Analysis) \
  PAGED(AssemblyDetail) PAGED(Publication) GET(StudyDetail) GET(StudyIdentifier) GET(SampleDetail) \
  GET(AnalysedRunDetail)
#define MGNIFY_V2_MODELS_ANALYSES(PAGED, GET) \
  PAGED(Assembly) PAGED(AnalysisDetail) PAGED(AnalysisTypedAnnotation) PAGED(Biome) \
  PAGED(SuperStudy) PAGED(GenomeAssemblyLinkSchema) PAGED(AdditionalContainedGenomeSchema) \
  GET(AssemblyDetail) GET(AnalysisDetail) GET(AnalysisWithAnnotations) GET(PublicationDetail) \
  GET(PublicationAnnotations) GET(SuperStudyDetail)
#define MGNIFY_V2_MODELS_GENOMES(PAGED, GET) \
  PAGED(Genome) PAGED(GenomeCatalogue) GET(GenomeDetail) GET(GenomeWithAnnotations) \
  GET(GenomeCatalogueDetail)
// clang-format on

// BasicV2Client<void>'s member templates for one model T; `head` is `extern` for the declarations.
#define MGNIFY_V2_PAGED(head, T)                        \
  head template Paged<T> BasicV2Client<void>::paged<T>( \
      const std::string&, http::Query, const ListOptions&, const CallOptions&) const;
#define MGNIFY_V2_GET(head, T)                                                        \
  head template T BasicV2Client<void>::get<T>(const std::string&, const http::Query&, \
                                              const CallOptions&) const;
#define MGNIFY_V2_INSTANTIATE_PAGED(T) MGNIFY_V2_PAGED(, T)
#define MGNIFY_V2_INSTANTIATE_GET(T) MGNIFY_V2_GET(, T)
#define MGNIFY_V2_EXTERN_PAGED(T) MGNIFY_V2_PAGED(extern, T)
#define MGNIFY_V2_EXTERN_GET(T) MGNIFY_V2_GET(extern, T)

extern template class MGNIFY_API BasicV2Client<void>;
MGNIFY_V2_MODELS_STUDIES(MGNIFY_V2_EXTERN_PAGED, MGNIFY_V2_EXTERN_GET)
MGNIFY_V2_MODELS_ANALYSES(MGNIFY_V2_EXTERN_PAGED, MGNIFY_V2_EXTERN_GET)
MGNIFY_V2_MODELS_GENOMES(MGNIFY_V2_EXTERN_PAGED, MGNIFY_V2_EXTERN_GET)
#endif

// The API v2 client as programs name it; every member is BasicV2Client's, documented there.
class V2Client : public BasicV2Client<> {
 public:
  using BasicV2Client::BasicV2Client;
};

}  // namespace v2

#if !MGNIFY_HEADER_ONLY
// This client's COBS search, compiled in the library (include/mgnify/impl/units/v2.hpp).
extern template v2::GenomeSearchResult detail::GenomeSearchCalls::cobs<v2::GenomeSearchResult>(
    const CobsQuery&, const CancelToken&) const;
#endif
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
// The bodies, after the state and member templates they share (which include them in turn).
#include "mgnify/v2/impl/client_walks.hpp"
#endif
