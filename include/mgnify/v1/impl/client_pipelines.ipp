#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for pipelines, pipeline tools, experiment types,
// organisms and taxonomy, sample metadata and contigs. Apart from impl/client.ipp so that the
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

MGNIFY_DECL Paged<ExperimentType> LegacyClient::experiment_types(const Query& filters,
                                                                 const ListOptions& list) const {
  return resources<ExperimentType>("experiment-types", filters, list);
}

MGNIFY_DECL ExperimentType LegacyClient::experiment_type(const std::string& name,
                                                         const CallOptions& call) const {
  return resource<ExperimentType>("experiment-types", name, call);
}

MGNIFY_DECL Paged<Pipeline> LegacyClient::pipelines(const Query& filters,
                                                    const ListOptions& list) const {
  return resources<Pipeline>("pipelines", filters, list);
}

MGNIFY_DECL Pipeline LegacyClient::pipeline(const std::string& version,
                                            const CallOptions& call) const {
  return resource<Pipeline>("pipelines", version, call);
}

MGNIFY_DECL Paged<Organism> LegacyClient::organisms(const Query& filters,
                                                    const ListOptions& list) const {
  return resources<Organism>("annotations/organisms", filters, list);
}

MGNIFY_DECL Paged<AnalysisContig> LegacyClient::analysis_contigs(const std::string& acc,
                                                                 const Query& filters,
                                                                 const ListOptions& list) const {
  return related<AnalysisContig>("analyses", acc, "contigs", filters, list);
}

MGNIFY_DECL Paged<Organism> LegacyClient::analysis_taxonomy(const std::string& acc,
                                                            TaxonomyKind kind, const Query& filters,
                                                            const ListOptions& list) const {
  return related<Organism>("analyses", acc, taxonomy_path(kind), filters, list);
}

MGNIFY_DECL Paged<SampleAnnotation> LegacyClient::sample_metadata(const std::string& acc,
                                                                  const Query& filters,
                                                                  const ListOptions& list) const {
  return related<SampleAnnotation>("samples", acc, "metadata", filters, list);
}

MGNIFY_DECL Paged<PipelineTool> LegacyClient::pipeline_tools(const Query& filters,
                                                             const ListOptions& list) const {
  return list_at<PipelineTool>("pipeline-tools", filters, list);
}

MGNIFY_DECL PipelineTool LegacyClient::pipeline_tool(const std::string& tool_name,
                                                     const std::string& version,
                                                     const CallOptions& call) const {
  require_text("tool_name", tool_name);
  require_text("version", version);
  return follow_one<PipelineTool>(
      session().url("pipeline-tools/" + http::encode_path_segment(tool_name) + "/" +
                    http::encode_path_segment(version)),
      call);
}

MGNIFY_DECL Paged<PipelineTool> LegacyClient::pipeline_release_tools(
    const std::string& version, const Query& filters, const ListOptions& list) const {
  return related<PipelineTool>("pipelines", version, "tools", filters, list);
}

MGNIFY_DECL Paged<Organism> LegacyClient::organism_subtree(const std::string& lineage,
                                                           const Query& filters,
                                                           const ListOptions& list) const {
  require_text("lineage", lineage);
  return list_at<Organism>("annotations/organisms/" + http::encode_path_segment(lineage), filters,
                           list);
}

#if !MGNIFY_HEADER_ONLY
// The member templates a program calls with these models (client_templates.hpp).
MGNIFY_V1_INSTANTIATE(ExperimentType)
MGNIFY_V1_INSTANTIATE(Pipeline)
MGNIFY_V1_INSTANTIATE(Organism)
MGNIFY_V1_INSTANTIATE(AnalysisContig)
MGNIFY_V1_INSTANTIATE(SampleAnnotation)
MGNIFY_V1_INSTANTIATE(PipelineTool)
#endif

}  // namespace v1
MGNIFY_NAMESPACE_END
