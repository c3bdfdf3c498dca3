#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for pipelines, pipeline tools, experiment types,
// organisms and taxonomy, sample metadata and contigs.
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
Paged<ExperimentType> BasicLegacyClient<D>::experiment_types(const Query& filters,
                                                             const ListOptions& list,
                                                             const CallOptions& call) const {
  return resources<ExperimentType>("experiment-types", filters, list, call);
}

template <class D>
ExperimentType BasicLegacyClient<D>::experiment_type(const std::string& name,
                                                     const CallOptions& call) const {
  return resource<ExperimentType>("experiment-types", name, call);
}

template <class D>
Paged<Pipeline> BasicLegacyClient<D>::pipelines(const Query& filters, const ListOptions& list,
                                                const CallOptions& call) const {
  return resources<Pipeline>("pipelines", filters, list, call);
}

template <class D>
Pipeline BasicLegacyClient<D>::pipeline(const std::string& version, const CallOptions& call) const {
  return resource<Pipeline>("pipelines", version, call);
}

template <class D>
Paged<Organism> BasicLegacyClient<D>::organisms(const Query& filters, const ListOptions& list,
                                                const CallOptions& call) const {
  return resources<Organism>("annotations/organisms", filters, list, call);
}

template <class D>
Paged<AnalysisContig> BasicLegacyClient<D>::analysis_contigs(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<AnalysisContig>("analyses", acc, "contigs", filters, list, call);
}

template <class D>
Paged<Organism> BasicLegacyClient<D>::analysis_taxonomy(const AccessionArg<AnalysisAccession>& acc,
                                                        TaxonomyKind kind, const Query& filters,
                                                        const ListOptions& list,
                                                        const CallOptions& call) const {
  return related<Organism>("analyses", acc, taxonomy_path(kind), filters, list, call);
}

template <class D>
Paged<SampleAnnotation> BasicLegacyClient<D>::sample_metadata(
    const AccessionArg<SampleAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<SampleAnnotation>("samples", acc, "metadata", filters, list, call);
}

template <class D>
Paged<PipelineTool> BasicLegacyClient<D>::pipeline_tools(const Query& filters,
                                                         const ListOptions& list,
                                                         const CallOptions& call) const {
  return list_at<PipelineTool>("pipeline-tools", filters, list, call);
}

template <class D>
PipelineTool BasicLegacyClient<D>::pipeline_tool(const std::string& tool_name,
                                                 const std::string& version,
                                                 const CallOptions& call) const {
  require_text("tool_name", tool_name);
  require_text("version", version);
  return follow_one<PipelineTool>(
      session().url("pipeline-tools/" + http::encode_path_segment(tool_name) + "/" +
                    http::encode_path_segment(version)),
      call);
}

template <class D>
Paged<PipelineTool> BasicLegacyClient<D>::pipeline_release_tools(const std::string& version,
                                                                 const Query& filters,
                                                                 const ListOptions& list,
                                                                 const CallOptions& call) const {
  return related<PipelineTool>("pipelines", version, "tools", filters, list, call);
}

template <class D>
Paged<Organism> BasicLegacyClient<D>::organism_subtree(const std::string& lineage,
                                                       const Query& filters,
                                                       const ListOptions& list,
                                                       const CallOptions& call) const {
  require_text("lineage", lineage);
  return list_at<Organism>("annotations/organisms/" + http::encode_path_segment(lineage), filters,
                           list, call);
}

}  // namespace v1
MGNIFY_NAMESPACE_END
