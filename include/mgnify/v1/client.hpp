#pragma once

// LegacyClient: the MGnify legacy v1 hypermedia API (deprecated by MGnify in
// June 2026; new code should prefer the v2 API). Lists are lazy Paged<T>
// ranges that follow links.next exactly as the server sent it, so page-number
// and cursor lists walk the same way and every filter in the first URL is
// kept on every later page. With ClientOptions::parallel_pages > 1, page-number
// lists also request later pages by URLs guessed from the first page's links;
// a guessed page is used only if the page before it named that very URL as
// links.next (see detail::guess_page_url and Paged's predicted mode). Page-number
// lists are counted besides: every page is checked against meta.pagination
// (detail::count_check), so a changed count or a missing page is an error,
// never a shorter walk.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/accession.hpp"
#include "mgnify/auth.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/config.hpp"
#include "mgnify/detail/call_forms.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search/verbs.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/result.hpp"
#include "mgnify/service_verbs.hpp"
#include "mgnify/v1/analyses.hpp"
#include "mgnify/v1/annotations.hpp"
#include "mgnify/v1/defaults.hpp"
#include "mgnify/v1/europe_pmc.hpp"
#include "mgnify/v1/genome_annotations.hpp"
#include "mgnify/v1/genome_search.hpp"
#include "mgnify/v1/genomes.hpp"
#include "mgnify/v1/pipeline_tools.hpp"
#include "mgnify/v1/query.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v1/studies.hpp"
#include "mgnify/v1/text.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// The largest ListOptions::page_size of the v1 page-number lists (the server
/// would clamp a larger one silently), and of the per-analysis annotation lists.
inline constexpr int kMaxPageSize = 250;
inline constexpr int kMaxAnnotationPageSize = 1000;

namespace detail {

/// How a v1 list pages, which decides the ListOptions it accepts.
enum class ListKind {
  numbered,     // page and page_size, at most kMaxPageSize per page
  annotations,  // the per-analysis annotation lists: numbered, up to 1000 per page
  cursor        // an opaque cursor in links.next; page_size without a maximum
};

// The templates behind LegacyClient's methods are defined in
// mgnify/v1/client_templates.hpp and only declared here, so that a file
// calling resources<Study>() does not compile the walk and the decoders of
// Study: with MGNIFY_SEPARATE_COMPILATION the compiled library holds them for
// every v1 model.

/// The walk of the list whose first page is `first_url`; `check_first` also
/// holds the first URL to the base URL's host (it came from a response).
/// `call` (the list call's) goes with every page.
template <class T>
Paged<T> make_paged(std::shared_ptr<http::Session> session, std::string first_url,
                    std::optional<std::size_t> max_items, bool check_first,
                    const CallOptions& call);
/// A single-resource document, decoded through the model's field table.
template <class T>
Document<T> decode_document(const http::Response& response);
/// A list page, decoded with the simdjson fast path.
template <class T>
ListPage<T> decode_list_page(const http::Response& response);
/// client.resource<T>(collection, id) for every id, as `batch` says.
template <class T, class Client>
std::vector<Result<T>> get_batch(const Client& client, const std::string& collection,
                                 const std::vector<std::string>& ids, const BatchOptions& batch,
                                 const CallOptions& call);

}  // namespace detail

/// A bulk-download job for a listed file: its links.self URL, verified against
/// its `file-checksum` when the service published one (a checksum already set in
/// `options` wins). Throws InvalidArgument when the record has no self link or
/// names an algorithm other than MD5, SHA1 or SHA256.
MGNIFY_DECL files::DownloadJob download_job(const Download& file, std::filesystem::path path,
                                            files::DownloadOptions options = {});

/// The legacy API v1 client. The session, downloads and text reads come from
/// ServiceVerbs, the genome search calls (genome_search, submit_gather, gather_status,
/// wait_for_gather, gather_results, download_gather_results) from GenomeSearchVerbs;
/// see docs/clients.md.
///
/// With MGNIFY_SEPARATE_COMPILATION, the member templates (resources<T>,
/// follow<T>, ...) are compiled into the library for the models of mgnify/v1;
/// a file that uses them with a model type of its own also includes
/// <mgnify/v1/client_templates.hpp>.
//
// Programs name LegacyClient (below), which adds nothing to this template. The parameter
// is unused: it makes every member body a template, so that header-only, a file compiles
// only the bodies it calls (and the walks and decoders of their models), not all of them
// wherever the header is included. With MGNIFY_SEPARATE_COMPILATION the library holds
// BasicLegacyClient<void>. The reference shows this class as LegacyClient
// (docs/doxygen_client_filter.py).
template <class = void>
class BasicLegacyClient : public ServiceVerbs, public GenomeSearchVerbs<GenomeSearchResult> {
 public:
  explicit BasicLegacyClient(ClientOptions options = {});
  /// Shares a session (its connections, rate limit and token) with other code.
  explicit BasicLegacyClient(std::shared_ptr<http::Session> session);

  using ServiceVerbs::base_url;
  using ServiceVerbs::session;
  using ServiceVerbs::shared_session;

  /// The API root: category name -> absolute URL.
  std::map<std::string, std::string> root(const CallOptions& call = {}) const;

  // ---- any collection by its path: the JSON:API layer under the typed methods ----
  // `collection` is a path such as "studies" or "annotations/go-terms"; each of
  // its segments is percent-encoded here, as is `id`.

  /// The collection's list (`/{collection}`).
  template <class T = Resource>
  Paged<T> resources(const std::string& collection, const Query& filters = {},
                     const ListOptions& list = {}, const CallOptions& call = {}) const {
    return walk<T>(list_url(collection_path(collection), filters, list), list, call);
  }
  /// One object of the collection by id (accession, lineage, version, ...).
  template <class T = Resource>
  T resource(const std::string& collection, const std::string& id,
             const CallOptions& call = {}) const {
    return document<T>(collection, id, {}, call).data;
  }
  /// One object with the compound `included` objects the query asks for
  /// (Query::include).
  template <class T = Resource>
  Document<T> document(const std::string& collection, const std::string& id,
                       const Query& query = {}, const CallOptions& call = {}) const {
    return detail::decode_document<T>(get_item(collection, id, query, call));
  }
  /// A related list of one object (`/{collection}/{id}/{relation}`; the relation
  /// may have segments, as "taxonomy/ssu" does).
  template <class T = Resource>
  Paged<T> related(const std::string& collection, const std::string& id,
                   const std::string& relation, const Query& filters = {},
                   const ListOptions& list = {}, const CallOptions& call = {}) const {
    return walk<T>(related_url(collection, id, relation, filters, list), list, call);
  }

  // ---- top-level lists (plural) and their objects (singular) -----------------
  // Every list takes (ids..., filters, ListOptions, CallOptions); the filters and the
  // ListOptions may each be left out (MGNIFY_FILTERED_LIST_FORMS, docs/clients.md).
  Paged<Study> studies(const Query& filters = {}, const ListOptions& list = {},
                       const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, studies, Query, (), ())
  Study study(const AccessionArg<StudyAccession>& accession, const CallOptions& call = {}) const;
  Paged<Sample> samples(const Query& filters = {}, const ListOptions& list = {},
                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, samples, Query, (), ())
  Sample sample(const AccessionArg<SampleAccession>& accession, const CallOptions& call = {}) const;
  Paged<Run> runs(const Query& filters = {}, const ListOptions& list = {},
                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Run>, runs, Query, (), ())
  Run run(const AccessionArg<RunAccession>& accession, const CallOptions& call = {}) const;
  Paged<Assembly> assemblies(const Query& filters = {}, const ListOptions& list = {},
                             const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Assembly>, assemblies, Query, (), ())
  Assembly assembly(const AccessionArg<AssemblyAccession>& accession,
                    const CallOptions& call = {}) const;
  Paged<Analysis> analyses(const Query& filters = {}, const ListOptions& list = {},
                           const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, analyses, Query, (), ())
  Analysis analysis(const AccessionArg<AnalysisAccession>& accession,
                    const CallOptions& call = {}) const;
  Paged<Biome> biomes(const Query& filters = {}, const ListOptions& list = {},
                      const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Biome>, biomes, Query, (), ())
  Biome biome(const std::string& lineage, const CallOptions& call = {}) const;
  Paged<Publication> publications(const Query& filters = {}, const ListOptions& list = {},
                                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Publication>, publications, Query, (), ())
  Publication publication(std::int64_t pubmed_id, const CallOptions& call = {}) const;
  Paged<ExperimentType> experiment_types(const Query& filters = {}, const ListOptions& list = {},
                                         const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<ExperimentType>, experiment_types, Query, (), ())
  ExperimentType experiment_type(const std::string& name, const CallOptions& call = {}) const;
  Paged<Pipeline> pipelines(const Query& filters = {}, const ListOptions& list = {},
                            const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Pipeline>, pipelines, Query, (), ())
  Pipeline pipeline(const std::string& version, const CallOptions& call = {}) const;
  Paged<Genome> genomes(const Query& filters = {}, const ListOptions& list = {},
                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, genomes, Query, (), ())
  Genome genome(const AccessionArg<GenomeAccession>& accession, const CallOptions& call = {}) const;
  Paged<GenomeCatalogue> genome_catalogues(const Query& filters = {}, const ListOptions& list = {},
                                           const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeCatalogue>, genome_catalogues, Query, (), ())
  GenomeCatalogue genome_catalogue(const std::string& catalogue_id,
                                   const CallOptions& call = {}) const;
  Paged<SuperStudy> super_studies(const Query& filters = {}, const ListOptions& list = {},
                                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<SuperStudy>, super_studies, Query, (), ())
  SuperStudy super_study(const std::string& id, const CallOptions& call = {}) const;
  Paged<GoTerm> go_terms(const Query& filters = {}, const ListOptions& list = {},
                         const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GoTerm>, go_terms, Query, (), ())
  GoTerm go_term(const std::string& accession, const CallOptions& call = {}) const;
  Paged<InterproIdentifier> interpro_identifiers(const Query& filters = {},
                                                 const ListOptions& list = {},
                                                 const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<InterproIdentifier>, interpro_identifiers, Query, (), ())
  InterproIdentifier interpro_identifier(const std::string& accession,
                                         const CallOptions& call = {}) const;
  Paged<PfamEntry> pfam_entries(const Query& filters = {}, const ListOptions& list = {},
                                const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<PfamEntry>, pfam_entries, Query, (), ())
  PfamEntry pfam_entry(const std::string& accession, const CallOptions& call = {}) const;
  Paged<KeggOrtholog> kegg_orthologs(const Query& filters = {}, const ListOptions& list = {},
                                     const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggOrtholog>, kegg_orthologs, Query, (), ())
  KeggOrtholog kegg_ortholog(const std::string& accession, const CallOptions& call = {}) const;
  Paged<KeggModule> kegg_modules(const Query& filters = {}, const ListOptions& list = {},
                                 const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggModule>, kegg_modules, Query, (), ())
  KeggModule kegg_module(const std::string& accession, const CallOptions& call = {}) const;
  Paged<GenomeProperty> genome_properties(const Query& filters = {}, const ListOptions& list = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeProperty>, genome_properties, Query, (), ())
  GenomeProperty genome_property(const std::string& accession, const CallOptions& call = {}) const;
  Paged<AntismashGeneCluster> antismash_gene_clusters(const Query& filters = {},
                                                      const ListOptions& list = {},
                                                      const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<AntismashGeneCluster>, antismash_gene_clusters, Query, (), ())
  AntismashGeneCluster antismash_gene_cluster(const std::string& accession,
                                              const CallOptions& call = {}) const;
  Paged<Organism> organisms(const Query& filters = {}, const ListOptions& list = {},
                            const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Organism>, organisms, Query, (), ())

  // ---- batches ----------------------------------------------------------------
  // One outcome per id, in input order; one failure never aborts the batch.
  // BatchOptions::concurrency 0 means defaults::kConcurrency.

  std::vector<Result<Study>> get_studies(const AccessionList<StudyAccession>& accessions,
                                         const BatchOptions& batch = {},
                                         const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Study>>, get_studies, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Sample>> get_samples(const AccessionList<SampleAccession>& accessions,
                                          const BatchOptions& batch = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Sample>>, get_samples, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Run>> get_runs(const AccessionList<RunAccession>& accessions,
                                    const BatchOptions& batch = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Run>>, get_runs, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Assembly>> get_assemblies(const AccessionList<AssemblyAccession>& accessions,
                                               const BatchOptions& batch = {},
                                               const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Assembly>>, get_assemblies, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Analysis>> get_analyses(const AccessionList<AnalysisAccession>& accessions,
                                             const BatchOptions& batch = {},
                                             const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Analysis>>, get_analyses, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Genome>> get_genomes(const AccessionList<GenomeAccession>& accessions,
                                          const BatchOptions& batch = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Genome>>, get_genomes, (BatchOptions()),
                        (const std::vector<std::string>& accessions, ), (accessions, ))
  std::vector<Result<Publication>> get_publications(const std::vector<std::int64_t>& pubmed_ids,
                                                    const BatchOptions& batch = {},
                                                    const CallOptions& call = {}) const;
  MGNIFY_CALL_ONLY_FORM(std::vector<Result<Publication>>, get_publications, (BatchOptions()),
                        (const std::vector<std::int64_t>& pubmed_ids, ), (pubmed_ids, ))
  /// Many objects of any collection by id, as the get_* batches above.
  template <class T = Resource>
  std::vector<Result<T>> get_resources(const std::string& collection,
                                       const std::vector<std::string>& ids,
                                       const BatchOptions& batch = {},
                                       const CallOptions& call = {}) const {
    return detail::get_batch<T>(*this, collection, ids, batch, call);
  }

  // Related lists of a study.
  Paged<Sample> study_samples(const AccessionArg<StudyAccession>& acc, const Query& filters = {},
                              const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, study_samples, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  Paged<Download> study_downloads(const AccessionArg<StudyAccession>& acc,
                                  const Query& filters = {}, const ListOptions& list = {},
                                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, study_downloads, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  Paged<Biome> study_biomes(const AccessionArg<StudyAccession>& acc, const Query& filters = {},
                            const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Biome>, study_biomes, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  /// Studies sharing samples with this one.
  Paged<Study> study_studies(const AccessionArg<StudyAccession>& acc, const Query& filters = {},
                             const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, study_studies, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  /// Sampling locations; the service documents no typed shape, so these stay Resources.
  Paged<Resource> study_geocoordinates(const AccessionArg<StudyAccession>& acc,
                                       const Query& filters = {}, const ListOptions& list = {},
                                       const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Resource>, study_geocoordinates, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  Paged<Publication> study_publications(const AccessionArg<StudyAccession>& acc,
                                        const Query& filters = {}, const ListOptions& list = {},
                                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Publication>, study_publications, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))
  Paged<Analysis> study_analyses(const AccessionArg<StudyAccession>& acc, const Query& filters = {},
                                 const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, study_analyses, Query,
                             (const AccessionArg<StudyAccession>& acc, ), (acc, ))

  // Related lists of a biome (each covers the whole subtree).
  Paged<Sample> biome_samples(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, biome_samples, Query, (const std::string& lineage, ),
                             (lineage, ))
  /// The subtree below a biome, the biome itself included.
  Paged<Biome> biome_children(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Biome>, biome_children, Query, (const std::string& lineage, ),
                             (lineage, ))
  Paged<Genome> biome_genomes(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, biome_genomes, Query, (const std::string& lineage, ),
                             (lineage, ))
  Paged<Study> biome_studies(const std::string& lineage, const Query& filters = {},
                             const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, biome_studies, Query, (const std::string& lineage, ),
                             (lineage, ))

  // Related lists of a sample, run and assembly.
  Paged<Run> sample_runs(const AccessionArg<SampleAccession>& acc, const Query& filters = {},
                         const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Run>, sample_runs, Query,
                             (const AccessionArg<SampleAccession>& acc, ), (acc, ))
  Paged<Study> sample_studies(const AccessionArg<SampleAccession>& acc, const Query& filters = {},
                              const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, sample_studies, Query,
                             (const AccessionArg<SampleAccession>& acc, ), (acc, ))
  Paged<Analysis> run_analyses(const AccessionArg<RunAccession>& acc, const Query& filters = {},
                               const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, run_analyses, Query,
                             (const AccessionArg<RunAccession>& acc, ), (acc, ))
  Paged<Assembly> run_assemblies(const AccessionArg<RunAccession>& acc, const Query& filters = {},
                                 const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Assembly>, run_assemblies, Query,
                             (const AccessionArg<RunAccession>& acc, ), (acc, ))
  Paged<Analysis> assembly_analyses(const AccessionArg<AssemblyAccession>& acc,
                                    const Query& filters = {}, const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, assembly_analyses, Query,
                             (const AccessionArg<AssemblyAccession>& acc, ), (acc, ))
  Paged<Run> assembly_runs(const AccessionArg<AssemblyAccession>& acc, const Query& filters = {},
                           const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Run>, assembly_runs, Query,
                             (const AccessionArg<AssemblyAccession>& acc, ), (acc, ))

  // Related lists of an analysis.
  /// Cursor-paginated: the pager follows the opaque links.next; the total is
  /// meta.pagination.count.
  Paged<AnalysisContig> analysis_contigs(const AccessionArg<AnalysisAccession>& acc,
                                         const Query& filters = {}, const ListOptions& list = {},
                                         const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<AnalysisContig>, analysis_contigs, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<Download> analysis_downloads(const AccessionArg<AnalysisAccession>& acc,
                                     const Query& filters = {}, const ListOptions& list = {},
                                     const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, analysis_downloads, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<GoTerm> analysis_go_terms(const AccessionArg<AnalysisAccession>& acc,
                                  const Query& filters = {}, const ListOptions& list = {},
                                  const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GoTerm>, analysis_go_terms, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<GoTerm> analysis_go_slim(const AccessionArg<AnalysisAccession>& acc,
                                 const Query& filters = {}, const ListOptions& list = {},
                                 const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GoTerm>, analysis_go_slim, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<InterproIdentifier> analysis_interpro_identifiers(
      const AccessionArg<AnalysisAccession>& acc, const Query& filters = {},
      const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<InterproIdentifier>, analysis_interpro_identifiers, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<PfamEntry> analysis_pfam_entries(const AccessionArg<AnalysisAccession>& acc,
                                         const Query& filters = {}, const ListOptions& list = {},
                                         const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<PfamEntry>, analysis_pfam_entries, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<KeggOrtholog> analysis_kegg_orthologs(const AccessionArg<AnalysisAccession>& acc,
                                              const Query& filters = {},
                                              const ListOptions& list = {},
                                              const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggOrtholog>, analysis_kegg_orthologs, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<KeggModule> analysis_kegg_modules(const AccessionArg<AnalysisAccession>& acc,
                                          const Query& filters = {}, const ListOptions& list = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggModule>, analysis_kegg_modules, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<GenomeProperty> analysis_genome_properties(const AccessionArg<AnalysisAccession>& acc,
                                                   const Query& filters = {},
                                                   const ListOptions& list = {},
                                                   const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeProperty>, analysis_genome_properties, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  Paged<AntismashGeneCluster> analysis_antismash_gene_clusters(
      const AccessionArg<AnalysisAccession>& acc, const Query& filters = {},
      const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<AntismashGeneCluster>, analysis_antismash_gene_clusters, Query,
                             (const AccessionArg<AnalysisAccession>& acc, ), (acc, ))
  /// Use ssu/lsu/itsonedb/unite for pipeline 4+ analyses: the legacy list is
  /// empty for them on the real service.
  Paged<Organism> analysis_taxonomy(const AccessionArg<AnalysisAccession>& acc, TaxonomyKind kind,
                                    const Query& filters = {}, const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Organism>, analysis_taxonomy, Query,
                             (const AccessionArg<AnalysisAccession>& acc, TaxonomyKind kind, ),
                             (acc, kind, ))

  // Genomes and catalogues.
  Paged<Download> genome_downloads(const AccessionArg<GenomeAccession>& acc,
                                   const Query& filters = {}, const ListOptions& list = {},
                                   const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, genome_downloads, Query,
                             (const AccessionArg<GenomeAccession>& acc, ), (acc, ))
  Paged<Genome> catalogue_genomes(const std::string& id, const Query& filters = {},
                                  const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, catalogue_genomes, Query, (const std::string& id, ),
                             (id, ))
  Paged<Download> catalogue_downloads(const std::string& id, const Query& filters = {},
                                      const ListOptions& list = {},
                                      const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, catalogue_downloads, Query, (const std::string& id, ),
                             (id, ))

  // Super-studies and publications.
  Paged<Study> super_study_flagship_studies(const std::string& id, const Query& filters = {},
                                            const ListOptions& list = {},
                                            const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, super_study_flagship_studies, Query,
                             (const std::string& id, ), (id, ))
  Paged<Study> super_study_related_studies(const std::string& id, const Query& filters = {},
                                           const ListOptions& list = {},
                                           const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, super_study_related_studies, Query,
                             (const std::string& id, ), (id, ))
  Paged<Study> publication_studies(std::int64_t pubmed_id, const Query& filters = {},
                                   const ListOptions& list = {},
                                   const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, publication_studies, Query, (std::int64_t pubmed_id, ),
                             (pubmed_id, ))
  Paged<Sample> publication_samples(std::int64_t pubmed_id, const Query& filters = {},
                                    const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, publication_samples, Query, (std::int64_t pubmed_id, ),
                             (pubmed_id, ))

  // Files (docs/downloads.md): download(url, ...) and download_many come from ServiceVerbs.
  using ServiceVerbs::download;
  /// Downloads a listed file, verified against its `file-checksum` (see download_job).
  files::DownloadResult download(const Download& file, const std::filesystem::path& path,
                                 files::DownloadOptions options = {},
                                 const CallOptions& call = {}) const;

  /// Walks any list URL a response gave (a relationship's links.related, a
  /// Paged's resume_token()). Only URLs on the base URL's host are accepted.
  /// The URL names its page and page size, so of `list` only max_items applies.
  template <class T>
  Paged<T> follow(const std::string& url, const ListOptions& list = {},
                  const CallOptions& call = {}) const {
    if (list.page_size || list.start_page != 1 || list.resume_token) {
      throw InvalidArgument(
          "follow() walks the URL as given, which names its page and page size; only "
          "ListOptions::max_items applies");
    }
    session().check_link(url);
    return detail::make_paged<T>(shared_session(), url, list.max_items, true,
                                 mgnify::detail::list_call(list, call));
  }
  /// Walks a relationship's related list.
  template <class T>
  Paged<T> follow(const Relationship& relationship, const ListOptions& list = {},
                  const CallOptions& call = {}) const {
    if (!relationship.related) throw InvalidArgument("relationship has no links.related URL");
    return follow<T>(*relationship.related, list, call);
  }
  /// One list page exactly as sent (data, links, meta.pagination, included),
  /// for callers who paginate by hand or need the envelope.
  template <class T>
  ListPage<T> fetch_page(const std::string& url, const CallOptions& call = {}) const {
    session().check_link(url);
    return detail::decode_list_page<T>(session().get(url, http::per_call(call)));
  }
  /// Fetches a single object by its URL (links.self, a to-one links.related).
  template <class T>
  T follow_one(const std::string& url, const CallOptions& call = {}) const {
    session().check_link(url);
    return detail::decode_document<T>(session().get(url, http::per_call(call))).data;
  }

  /// Exchanges ENA/Webin credentials for a token and sends it on every later
  /// request. Bad credentials throw AuthError with the server's message.
  TokenResponse login(const std::string& username, const std::string& password,
                      const CallOptions& call = {});
  /// A token obtained earlier (login() on another client, a saved one).
  void set_token(std::optional<std::string> token) { session().set_token(std::move(token)); }
  /// Forgets the token; later requests are anonymous.
  void logout() { session().set_token(std::nullopt); }
  bool logged_in() const { return session().has_token(); }

  /// GET mydata: the caller's own studies, private ones included (needs a token).
  Paged<Study> my_studies(const Query& filters = {}, const ListOptions& list = {},
                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, my_studies, Query, (), ())

  // ---- smaller endpoints ------------------------------------------------------

  /// POST utils/token/verify with the current token: true when the service
  /// accepts it, false when it rejects it (400: undecodable or expired).
  bool verify(const CallOptions& call = {}) const;

  /// A sample's metadata as resources (key, value, unit), one page at a time.
  Paged<SampleAnnotation> sample_metadata(const AccessionArg<SampleAccession>& acc,
                                          const Query& filters = {}, const ListOptions& list = {},
                                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<SampleAnnotation>, sample_metadata, Query,
                             (const AccessionArg<SampleAccession>& acc, ), (acc, ))
  /// The most recently updated studies (at most 25 on the real service).
  Paged<Study> recent_studies(const Query& filters = {}, const ListOptions& list = {},
                              const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Study>, recent_studies, Query, (), ())
  /// The ten biomes with the most samples; not paginated.
  std::vector<Biome> top10_biomes(const CallOptions& call = {}) const;
  /// Every tool of every pipeline release.
  Paged<PipelineTool> pipeline_tools(const Query& filters = {}, const ListOptions& list = {},
                                     const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<PipelineTool>, pipeline_tools, Query, (), ())
  /// One tool at one version (`pipeline-tools/{tool_name}/{version}`).
  PipelineTool pipeline_tool(const std::string& tool_name, const std::string& version,
                             const CallOptions& call = {}) const;
  /// The tools one pipeline release runs (`pipelines/{version}/tools`).
  Paged<PipelineTool> pipeline_release_tools(const std::string& version, const Query& filters = {},
                                             const ListOptions& list = {},
                                             const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<PipelineTool>, pipeline_release_tools, Query,
                             (const std::string& version, ), (version, ))
  Paged<Sample> pipeline_samples(const std::string& version, const Query& filters = {},
                                 const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, pipeline_samples, Query, (const std::string& version, ),
                             (version, ))
  Paged<Analysis> pipeline_analyses(const std::string& version, const Query& filters = {},
                                    const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, pipeline_analyses, Query,
                             (const std::string& version, ), (version, ))
  Paged<Sample> experiment_type_samples(const std::string& name, const Query& filters = {},
                                        const ListOptions& list = {},
                                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Sample>, experiment_type_samples, Query,
                             (const std::string& name, ), (name, ))
  Paged<Run> experiment_type_runs(const std::string& name, const Query& filters = {},
                                  const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Run>, experiment_type_runs, Query, (const std::string& name, ),
                             (name, ))
  Paged<Analysis> experiment_type_analyses(const std::string& name, const Query& filters = {},
                                           const ListOptions& list = {},
                                           const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, experiment_type_analyses, Query,
                             (const std::string& name, ), (name, ))

  /// Genome catalogues whose biome lies in this biome's subtree.
  Paged<GenomeCatalogue> biome_genome_catalogues(const std::string& lineage,
                                                 const Query& filters = {},
                                                 const ListOptions& list = {},
                                                 const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeCatalogue>, biome_genome_catalogues, Query,
                             (const std::string& lineage, ), (lineage, ))
  Paged<GenomeCatalogue> super_study_related_genome_catalogues(const std::string& id,
                                                               const Query& filters = {},
                                                               const ListOptions& list = {},
                                                               const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeCatalogue>, super_study_related_genome_catalogues, Query,
                             (const std::string& id, ), (id, ))
  Paged<Biome> super_study_biomes(const std::string& id, const Query& filters = {},
                                  const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Biome>, super_study_biomes, Query, (const std::string& id, ),
                             (id, ))
  /// An organism and every organism below it (`annotations/organisms/{lineage}`, a list).
  Paged<Organism> organism_subtree(const std::string& lineage, const Query& filters = {},
                                   const ListOptions& list = {},
                                   const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Organism>, organism_subtree, Query,
                             (const std::string& lineage, ), (lineage, ))
  Paged<Analysis> organism_analyses(const std::string& lineage, const Query& filters = {},
                                    const ListOptions& list = {},
                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Analysis>, organism_analyses, Query,
                             (const std::string& lineage, ), (lineage, ))

  // Genome catalogues' groupings and annotation vocabularies.
  Paged<GenomeSet> genome_sets(const Query& filters = {}, const ListOptions& list = {},
                               const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeSet>, genome_sets, Query, (), ())
  GenomeSet genome_set(const std::string& name, const CallOptions& call = {}) const;
  Paged<Genome> genome_set_genomes(const std::string& name, const Query& filters = {},
                                   const ListOptions& list = {},
                                   const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Genome>, genome_set_genomes, Query, (const std::string& name, ),
                             (name, ))
  Paged<CogCategory> cogs(const Query& filters = {}, const ListOptions& list = {},
                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<CogCategory>, cogs, Query, (), ())
  Paged<KeggClass> kegg_classes(const Query& filters = {}, const ListOptions& list = {},
                                const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggClass>, kegg_classes, Query, (), ())
  /// The catalogues' KEGG modules (`kegg-modules`; the annotation vocabulary is kegg_modules()).
  Paged<GenomeKeggModule> genome_kegg_modules(const Query& filters = {},
                                              const ListOptions& list = {},
                                              const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeKeggModule>, genome_kegg_modules, Query, (), ())
  Paged<GenomeAntismashCluster> genome_antismash_clusters(const Query& filters = {},
                                                          const ListOptions& list = {},
                                                          const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeAntismashCluster>, genome_antismash_clusters, Query, (),
                             ())
  Paged<CogCategory> genome_cog_counts(const AccessionArg<GenomeAccession>& acc,
                                       const Query& filters = {}, const ListOptions& list = {},
                                       const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<CogCategory>, genome_cog_counts, Query,
                             (const AccessionArg<GenomeAccession>& acc, ), (acc, ))
  Paged<KeggClass> genome_kegg_class_counts(const AccessionArg<GenomeAccession>& acc,
                                            const Query& filters = {}, const ListOptions& list = {},
                                            const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<KeggClass>, genome_kegg_class_counts, Query,
                             (const AccessionArg<GenomeAccession>& acc, ), (acc, ))
  Paged<GenomeKeggModule> genome_kegg_module_counts(const AccessionArg<GenomeAccession>& acc,
                                                    const Query& filters = {},
                                                    const ListOptions& list = {},
                                                    const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeKeggModule>, genome_kegg_module_counts, Query,
                             (const AccessionArg<GenomeAccession>& acc, ), (acc, ))
  Paged<GenomeAntismashCluster> genome_antismash_cluster_counts(
      const AccessionArg<GenomeAccession>& acc, const Query& filters = {},
      const ListOptions& list = {}, const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<GenomeAntismashCluster>, genome_antismash_cluster_counts, Query,
                             (const AccessionArg<GenomeAccession>& acc, ), (acc, ))

  /// Files attached to a run or an assembly beyond the analysis results; each
  /// record's links.self is the file, for download().
  Paged<Download> run_extra_annotations(const AccessionArg<RunAccession>& acc,
                                        const Query& filters = {}, const ListOptions& list = {},
                                        const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, run_extra_annotations, Query,
                             (const AccessionArg<RunAccession>& acc, ), (acc, ))
  Paged<Download> assembly_extra_annotations(const AccessionArg<AssemblyAccession>& acc,
                                             const Query& filters = {},
                                             const ListOptions& list = {},
                                             const CallOptions& call = {}) const;
  MGNIFY_FILTERED_LIST_FORMS(Paged<Download>, assembly_extra_annotations, Query,
                             (const AccessionArg<AssemblyAccession>& acc, ), (acc, ))

  /// Europe PMC's text-mined annotations of a publication
  /// (`publications/{pubmed_id}/europe_pmc_annotations`, proxied live by the service).
  EuropePmcAnnotations publication_europe_pmc_annotations(std::int64_t pubmed_id,
                                                          const CallOptions& call = {}) const;

  // ---- text bodies (FASTA, GFF, TSV, CSV) ---------------------------------------
  // Read whole (bounded by ClientOptions::max_body_bytes) or streamed to a sink
  // (bounded by StreamOptions::max_bytes); see http/text.hpp.
  // Each read call and its stream_ twin take the same leading arguments in the
  // same order; the stream call adds its sink and options; both end with the
  // per-call options.

  /// One contig's sequence as FASTA (`analyses/{acc}/contigs/{contig_id}`).
  std::string analysis_contig_fasta(const AccessionArg<AnalysisAccession>& acc,
                                    const std::string& contig_id,
                                    const CallOptions& call = {}) const;
  http::StreamResult stream_analysis_contig_fasta(const AccessionArg<AnalysisAccession>& acc,
                                                  const std::string& contig_id,
                                                  const http::BodySink& sink,
                                                  const http::StreamOptions& options = {},
                                                  const CallOptions& call = {}) const;
  /// One contig's annotations as GFF (`.../contigs/{contig_id}/annotations`);
  /// ContigGff::antismash asks for the antiSMASH GFF instead.
  std::string analysis_contig_gff(const AccessionArg<AnalysisAccession>& acc,
                                  const std::string& contig_id,
                                  ContigGff kind = ContigGff::pipeline,
                                  const CallOptions& call = {}) const;
  http::StreamResult stream_analysis_contig_gff(const AccessionArg<AnalysisAccession>& acc,
                                                const std::string& contig_id, ContigGff kind,
                                                const http::BodySink& sink,
                                                const http::StreamOptions& options = {},
                                                const CallOptions& call = {}) const;
  /// The pipeline's GFF, streamed.
  http::StreamResult stream_analysis_contig_gff(const AccessionArg<AnalysisAccession>& acc,
                                                const std::string& contig_id,
                                                const http::BodySink& sink,
                                                const http::StreamOptions& options = {},
                                                const CallOptions& call = {}) const {
    return stream_analysis_contig_gff(acc, contig_id, ContigGff::pipeline, sink, options, call);
  }
  /// A QC chart's data as TSV (`analyses/{acc}/gc-distribution`, ...).
  std::string analysis_qc_chart(const AccessionArg<AnalysisAccession>& acc, QcChart chart,
                                const CallOptions& call = {}) const;
  http::StreamResult stream_analysis_qc_chart(const AccessionArg<AnalysisAccession>& acc,
                                              QcChart chart, const http::BodySink& sink,
                                              const http::StreamOptions& options = {},
                                              const CallOptions& call = {}) const;
  /// A whole list as CSV (`{path}?format=csv`, e.g. "studies" or
  /// "biomes/root:Engineered/samples"; each segment is encoded here). The
  /// service renders at most kMaxCsvRows rows and answers a longer list with
  /// 413, thrown as ApiError.
  std::string list_csv(const std::string& path, const Query& q = {},
                       const CallOptions& call = {}) const;
  http::StreamResult stream_list_csv(const std::string& path, const Query& q,
                                     const http::BodySink& sink,
                                     const http::StreamOptions& options = {},
                                     const CallOptions& call = {}) const;
  /// The whole unfiltered list as CSV, streamed.
  http::StreamResult stream_list_csv(const std::string& path, const http::BodySink& sink,
                                     const http::StreamOptions& options = {},
                                     const CallOptions& call = {}) const {
    return stream_list_csv(path, Query(), sink, options, call);
  }
  // Any text URL (a download's links.self, say): read_text and stream_text come from ServiceVerbs.

 private:
  /// A list whose first page is `first_url`, built by the caller, or the page
  /// of it that list.resume_token names.
  template <class T>
  Paged<T> walk(std::string first_url, const ListOptions& list, const CallOptions& call) const {
    if (list.resume_token) first_url = resume_url(first_url, *list.resume_token);
    return detail::make_paged<T>(shared_session(), std::move(first_url), list.max_items, false,
                                 mgnify::detail::list_call(list, call));
  }
  /// `token` when it is a page of the list at `first_url` (same origin and path).
  std::string resume_url(const std::string& first_url, const std::string& token) const;
  /// `path` is already encoded.
  template <class T>
  Paged<T> list_at(const std::string& path, const Query& filters, const ListOptions& list,
                   const CallOptions& call,
                   detail::ListKind kind = detail::ListKind::numbered) const {
    return walk<T>(list_url(path, filters, list, kind), list, call);
  }
  /// The first page's URL of the list at `path` (already encoded).
  std::string list_url(const std::string& path, const Query& filters, const ListOptions& list,
                       detail::ListKind kind = detail::ListKind::numbered) const;
  /// The first page's URL of `/{collection}/{id}/{relation}`.
  std::string related_url(const std::string& collection, const std::string& id,
                          const std::string& relation, const Query& filters,
                          const ListOptions& list) const;
  http::Response get_item(const std::string& collection, const std::string& id, const Query& query,
                          const CallOptions& call) const;
  static std::string collection_path(const std::string& collection);
  static std::string item_path(const std::string& collection, const std::string& id);
  static std::string checked_id(const std::string& collection, const std::string& id);
  static void require_text(const char* what, const std::string& value);

  std::string contig_url(const std::string& acc, const std::string& contig_id, const char* tail,
                         ContigGff kind = ContigGff::pipeline) const;
  std::string qc_url(const std::string& acc, QcChart chart) const;
  std::string csv_url(const std::string& path, const Query& q) const;

  /// The API root's document, read by root().
  struct RootDoc;

  void validate() const;
};

#if !MGNIFY_HEADER_ONLY
// The models whose templates the compiled library holds, by the unit that
// instantiates them (include/mgnify/impl/units/: v1_resource.hpp for CORE,
// v1_<area>.hpp for the others). Every other file, BasicLegacyClient<void>'s
// own unit included, sees them declared extern, so that only one unit compiles
// each model's walk and decoders.
// clang-format off
#define MGNIFY_V1_MODELS_CORE(X) \
  X(Study) X(Sample) X(Biome) X(Publication)
#define MGNIFY_V1_MODELS_RUNS(X) \
  X(Resource) X(Run) X(Assembly) X(Analysis) X(Download)
#define MGNIFY_V1_MODELS_ANNOTATIONS(X) \
  X(GoTerm) X(InterproIdentifier) X(PfamEntry) X(KeggOrtholog) X(KeggModule) X(GenomeProperty) \
  X(AntismashGeneCluster)
#define MGNIFY_V1_MODELS_PIPELINES(X) \
  X(ExperimentType) X(Pipeline) X(Organism) X(AnalysisContig) X(SampleAnnotation) X(PipelineTool)
#define MGNIFY_V1_MODELS_GENOMES(X) \
  X(Genome) X(GenomeCatalogue) X(SuperStudy) X(GenomeSet) X(CogCategory) X(KeggClass) \
  X(GenomeKeggModule) X(GenomeAntismashCluster)
// clang-format on

// The templates of detail for one model T (defined in client_templates.hpp); `head` is `extern` for
// the declarations.
#define MGNIFY_V1_TEMPLATES(head, T)                                                        \
  head template Paged<T> detail::make_paged<T>(std::shared_ptr<http::Session>, std::string, \
                                               std::optional<std::size_t>, bool,            \
                                               const CallOptions&);                         \
  head template Document<T> detail::decode_document<T>(const http::Response&);              \
  head template ListPage<T> detail::decode_list_page<T>(const http::Response&);             \
  head template std::vector<Result<T>> detail::get_batch<T, BasicLegacyClient<void>>(       \
      const BasicLegacyClient<void>&, const std::string&, const std::vector<std::string>&,  \
      const BatchOptions&, const CallOptions&);
#define MGNIFY_V1_INSTANTIATE(T) MGNIFY_V1_TEMPLATES(, T)
#define MGNIFY_V1_EXTERN(T) MGNIFY_V1_TEMPLATES(extern, T)

MGNIFY_V1_MODELS_CORE(MGNIFY_V1_EXTERN)
MGNIFY_V1_MODELS_RUNS(MGNIFY_V1_EXTERN)
MGNIFY_V1_MODELS_ANNOTATIONS(MGNIFY_V1_EXTERN)
MGNIFY_V1_MODELS_PIPELINES(MGNIFY_V1_EXTERN)
MGNIFY_V1_MODELS_GENOMES(MGNIFY_V1_EXTERN)
extern template class MGNIFY_API BasicLegacyClient<void>;
#endif

// The legacy API v1 client as programs name it; every member is BasicLegacyClient's,
// documented there.
class LegacyClient : public BasicLegacyClient<> {
 public:
  using BasicLegacyClient::BasicLegacyClient;
};

}  // namespace v1

#if !MGNIFY_HEADER_ONLY
// This client's COBS search, compiled in the library (include/mgnify/impl/units/v2.hpp).
extern template v1::GenomeSearchResult detail::GenomeSearchCalls::cobs<v1::GenomeSearchResult>(
    const CobsQuery&, const CancelToken&) const;
#endif
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/v1/impl/client.ipp"
#include "mgnify/v1/impl/client_annotations.ipp"
#include "mgnify/v1/impl/client_genomes.ipp"
#include "mgnify/v1/impl/client_pipelines.ipp"
#include "mgnify/v1/impl/client_runs.ipp"
#endif
