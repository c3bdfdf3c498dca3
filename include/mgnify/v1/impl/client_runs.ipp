#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for runs, assemblies, analyses and the lists of
// downloads and resources related to them and to studies.
// A file of its own only to keep impl/client.ipp readable: all are compiled in one unit
// (include/mgnify/impl/units/v1.hpp).

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

template <class D>
Paged<Run> BasicLegacyClient<D>::runs(const Query& filters, const ListOptions& list,
                                      const CallOptions& call) const {
  return resources<Run>("runs", filters, list, call);
}

template <class D>
Run BasicLegacyClient<D>::run(const AccessionArg<RunAccession>& accession,
                              const CallOptions& call) const {
  return resource<Run>("runs", accession, call);
}

template <class D>
Paged<Assembly> BasicLegacyClient<D>::assemblies(const Query& filters, const ListOptions& list,
                                                 const CallOptions& call) const {
  return resources<Assembly>("assemblies", filters, list, call);
}

template <class D>
Assembly BasicLegacyClient<D>::assembly(const AccessionArg<AssemblyAccession>& accession,
                                        const CallOptions& call) const {
  return resource<Assembly>("assemblies", accession, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::analyses(const Query& filters, const ListOptions& list,
                                               const CallOptions& call) const {
  return resources<Analysis>("analyses", filters, list, call);
}

template <class D>
Analysis BasicLegacyClient<D>::analysis(const AccessionArg<AnalysisAccession>& accession,
                                        const CallOptions& call) const {
  return resource<Analysis>("analyses", accession, call);
}

template <class D>
std::vector<Result<Run>> BasicLegacyClient<D>::get_runs(
    const AccessionList<RunAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Run>("runs", accessions, batch, call);
}

template <class D>
std::vector<Result<Assembly>> BasicLegacyClient<D>::get_assemblies(
    const AccessionList<AssemblyAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Assembly>("assemblies", accessions, batch, call);
}

template <class D>
std::vector<Result<Analysis>> BasicLegacyClient<D>::get_analyses(
    const AccessionList<AnalysisAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Analysis>("analyses", accessions, batch, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::study_downloads(const AccessionArg<StudyAccession>& acc,
                                                      const Query& filters, const ListOptions& list,
                                                      const CallOptions& call) const {
  return related<Download>("studies", acc, "downloads", filters, list, call);
}

template <class D>
Paged<Resource> BasicLegacyClient<D>::study_geocoordinates(const AccessionArg<StudyAccession>& acc,
                                                           const Query& filters,
                                                           const ListOptions& list,
                                                           const CallOptions& call) const {
  return related<Resource>("studies", acc, "geocoordinates", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::study_analyses(const AccessionArg<StudyAccession>& acc,
                                                     const Query& filters, const ListOptions& list,
                                                     const CallOptions& call) const {
  return related<Analysis>("studies", acc, "analyses", filters, list, call);
}

template <class D>
Paged<Run> BasicLegacyClient<D>::sample_runs(const AccessionArg<SampleAccession>& acc,
                                             const Query& filters, const ListOptions& list,
                                             const CallOptions& call) const {
  return related<Run>("samples", acc, "runs", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::run_analyses(const AccessionArg<RunAccession>& acc,
                                                   const Query& filters, const ListOptions& list,
                                                   const CallOptions& call) const {
  return related<Analysis>("runs", acc, "analyses", filters, list, call);
}

template <class D>
Paged<Assembly> BasicLegacyClient<D>::run_assemblies(const AccessionArg<RunAccession>& acc,
                                                     const Query& filters, const ListOptions& list,
                                                     const CallOptions& call) const {
  return related<Assembly>("runs", acc, "assemblies", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::assembly_analyses(const AccessionArg<AssemblyAccession>& acc,
                                                        const Query& filters,
                                                        const ListOptions& list,
                                                        const CallOptions& call) const {
  return related<Analysis>("assemblies", acc, "analyses", filters, list, call);
}

template <class D>
Paged<Run> BasicLegacyClient<D>::assembly_runs(const AccessionArg<AssemblyAccession>& acc,
                                               const Query& filters, const ListOptions& list,
                                               const CallOptions& call) const {
  return related<Run>("assemblies", acc, "runs", filters, list, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::analysis_downloads(const AccessionArg<AnalysisAccession>& acc,
                                                         const Query& filters,
                                                         const ListOptions& list,
                                                         const CallOptions& call) const {
  return related<Download>("analyses", acc, "downloads", filters, list, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::genome_downloads(const AccessionArg<GenomeAccession>& acc,
                                                       const Query& filters,
                                                       const ListOptions& list,
                                                       const CallOptions& call) const {
  return related<Download>("genomes", acc, "downloads", filters, list, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::catalogue_downloads(const std::string& id,
                                                          const Query& filters,
                                                          const ListOptions& list,
                                                          const CallOptions& call) const {
  return related<Download>("genome-catalogues", id, "downloads", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::pipeline_analyses(const std::string& version,
                                                        const Query& filters,
                                                        const ListOptions& list,
                                                        const CallOptions& call) const {
  return related<Analysis>("pipelines", version, "analyses", filters, list, call);
}

template <class D>
Paged<Run> BasicLegacyClient<D>::experiment_type_runs(const std::string& name, const Query& filters,
                                                      const ListOptions& list,
                                                      const CallOptions& call) const {
  return related<Run>("experiment-types", name, "runs", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::experiment_type_analyses(const std::string& name,
                                                               const Query& filters,
                                                               const ListOptions& list,
                                                               const CallOptions& call) const {
  return related<Analysis>("experiment-types", name, "analyses", filters, list, call);
}

template <class D>
Paged<Analysis> BasicLegacyClient<D>::organism_analyses(const std::string& lineage,
                                                        const Query& filters,
                                                        const ListOptions& list,
                                                        const CallOptions& call) const {
  return related<Analysis>("annotations/organisms", lineage, "analyses", filters, list, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::run_extra_annotations(const AccessionArg<RunAccession>& acc,
                                                            const Query& filters,
                                                            const ListOptions& list,
                                                            const CallOptions& call) const {
  return related<Download>("runs", acc, "extra-annotations", filters, list, call);
}

template <class D>
Paged<Download> BasicLegacyClient<D>::assembly_extra_annotations(
    const AccessionArg<AssemblyAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<Download>("assemblies", acc, "extra-annotations", filters, list, call);
}

}  // namespace v1
MGNIFY_NAMESPACE_END
