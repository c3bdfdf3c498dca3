#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for runs, assemblies, analyses and the lists of
// downloads and resources related to them and to studies. Apart from impl/client.ipp so that the
// compiled library builds them in another unit (include/mgnify/impl/units/), in parallel and in
// less memory.

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

MGNIFY_DECL Paged<Run> LegacyClient::runs(const Query& filters, const ListOptions& list) const {
  return resources<Run>("runs", filters, list);
}

MGNIFY_DECL Run LegacyClient::run(const std::string& accession, const CallOptions& call) const {
  return resource<Run>("runs", accession, call);
}

MGNIFY_DECL Paged<Assembly> LegacyClient::assemblies(const Query& filters,
                                                     const ListOptions& list) const {
  return resources<Assembly>("assemblies", filters, list);
}

MGNIFY_DECL Assembly LegacyClient::assembly(const std::string& accession,
                                            const CallOptions& call) const {
  return resource<Assembly>("assemblies", accession, call);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::analyses(const Query& filters,
                                                   const ListOptions& list) const {
  return resources<Analysis>("analyses", filters, list);
}

MGNIFY_DECL Analysis LegacyClient::analysis(const std::string& accession,
                                            const CallOptions& call) const {
  return resource<Analysis>("analyses", accession, call);
}

MGNIFY_DECL std::vector<Result<Run>> LegacyClient::get_runs(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Run>("runs", accessions, batch, call);
}

MGNIFY_DECL std::vector<Result<Assembly>> LegacyClient::get_assemblies(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Assembly>("assemblies", accessions, batch, call);
}

MGNIFY_DECL std::vector<Result<Analysis>> LegacyClient::get_analyses(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Analysis>("analyses", accessions, batch, call);
}

MGNIFY_DECL Paged<Download> LegacyClient::study_downloads(const std::string& acc,
                                                          const Query& filters,
                                                          const ListOptions& list) const {
  return related<Download>("studies", acc, "downloads", filters, list);
}

MGNIFY_DECL Paged<Resource> LegacyClient::study_geocoordinates(const std::string& acc,
                                                               const Query& filters,
                                                               const ListOptions& list) const {
  return related<Resource>("studies", acc, "geocoordinates", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::study_analyses(const std::string& acc,
                                                         const Query& filters,
                                                         const ListOptions& list) const {
  return related<Analysis>("studies", acc, "analyses", filters, list);
}

MGNIFY_DECL Paged<Run> LegacyClient::sample_runs(const std::string& acc, const Query& filters,
                                                 const ListOptions& list) const {
  return related<Run>("samples", acc, "runs", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::run_analyses(const std::string& acc, const Query& filters,
                                                       const ListOptions& list) const {
  return related<Analysis>("runs", acc, "analyses", filters, list);
}

MGNIFY_DECL Paged<Assembly> LegacyClient::run_assemblies(const std::string& acc,
                                                         const Query& filters,
                                                         const ListOptions& list) const {
  return related<Assembly>("runs", acc, "assemblies", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::assembly_analyses(const std::string& acc,
                                                            const Query& filters,
                                                            const ListOptions& list) const {
  return related<Analysis>("assemblies", acc, "analyses", filters, list);
}

MGNIFY_DECL Paged<Run> LegacyClient::assembly_runs(const std::string& acc, const Query& filters,
                                                   const ListOptions& list) const {
  return related<Run>("assemblies", acc, "runs", filters, list);
}

MGNIFY_DECL Paged<Download> LegacyClient::analysis_downloads(const std::string& acc,
                                                             const Query& filters,
                                                             const ListOptions& list) const {
  return related<Download>("analyses", acc, "downloads", filters, list);
}

MGNIFY_DECL Paged<Download> LegacyClient::genome_downloads(const std::string& acc,
                                                           const Query& filters,
                                                           const ListOptions& list) const {
  return related<Download>("genomes", acc, "downloads", filters, list);
}

MGNIFY_DECL Paged<Download> LegacyClient::catalogue_downloads(const std::string& id,
                                                              const Query& filters,
                                                              const ListOptions& list) const {
  return related<Download>("genome-catalogues", id, "downloads", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::pipeline_analyses(const std::string& version,
                                                            const Query& filters,
                                                            const ListOptions& list) const {
  return related<Analysis>("pipelines", version, "analyses", filters, list);
}

MGNIFY_DECL Paged<Run> LegacyClient::experiment_type_runs(const std::string& name,
                                                          const Query& filters,
                                                          const ListOptions& list) const {
  return related<Run>("experiment-types", name, "runs", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::experiment_type_analyses(const std::string& name,
                                                                   const Query& filters,
                                                                   const ListOptions& list) const {
  return related<Analysis>("experiment-types", name, "analyses", filters, list);
}

MGNIFY_DECL Paged<Analysis> LegacyClient::organism_analyses(const std::string& lineage,
                                                            const Query& filters,
                                                            const ListOptions& list) const {
  return related<Analysis>("annotations/organisms", lineage, "analyses", filters, list);
}

MGNIFY_DECL Paged<Download> LegacyClient::run_extra_annotations(const std::string& acc,
                                                                const Query& filters,
                                                                const ListOptions& list) const {
  return related<Download>("runs", acc, "extra-annotations", filters, list);
}

MGNIFY_DECL Paged<Download> LegacyClient::assembly_extra_annotations(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<Download>("assemblies", acc, "extra-annotations", filters, list);
}

#if !MGNIFY_HEADER_ONLY
// The member templates a program calls with these models (client_templates.hpp).
MGNIFY_V1_INSTANTIATE(Resource)
MGNIFY_V1_INSTANTIATE(Run)
MGNIFY_V1_INSTANTIATE(Assembly)
MGNIFY_V1_INSTANTIATE(Analysis)
MGNIFY_V1_INSTANTIATE(Download)
#endif

}  // namespace v1
MGNIFY_NAMESPACE_END
