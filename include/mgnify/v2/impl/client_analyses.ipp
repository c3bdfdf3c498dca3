#pragma once

// Bodies of V2Client (mgnify/v2/client.hpp) for assemblies, analyses, biomes, publications and
// super studies (see impl/client.ipp).

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
#include "mgnify/v2/impl/client_walks.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

// ---- assemblies ----------------------------------------------------------------

template <class D>
Paged<Assembly> BasicV2Client<D>::assemblies(const ListOptions& list,
                                             const CallOptions& call) const {
  return paged<Assembly>("assemblies/", {}, list, call);
}
template <class D>
AssemblyDetail BasicV2Client<D>::assembly(const AccessionArg<AssemblyAccession>& accession,
                                          const CallOptions& call) const {
  return get<AssemblyDetail>(
      "assemblies/" + segment(checked_accession(accession.str(), AccessionKind::assembly)), {},
      call);
}
template <class D>
Paged<Analysis> BasicV2Client<D>::assembly_analyses(
    const AccessionArg<AssemblyAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<Analysis>(
      sub("assemblies/", checked_accession(accession.str(), AccessionKind::assembly), "/analyses"),
      {}, list, call);
}
template <class D>
Paged<GenomeAssemblyLinkSchema> BasicV2Client<D>::assembly_genome_links(
    const AccessionArg<AssemblyAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<GenomeAssemblyLinkSchema>(
      sub("assemblies/", checked_accession(accession.str(), AccessionKind::assembly),
          "/genome-links"),
      {}, list, call);
}
template <class D>
Paged<AdditionalContainedGenomeSchema> BasicV2Client<D>::assembly_additional_contained_genomes(
    const AccessionArg<AssemblyAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<AdditionalContainedGenomeSchema>(
      sub("assemblies/", checked_accession(accession.str(), AccessionKind::assembly),
          "/additional-contained-genomes"),
      {}, list, call);
}

// ---- analyses ------------------------------------------------------------------

template <class D>
Paged<AnalysisDetail> BasicV2Client<D>::analyses(const ListOptions& list,
                                                 const CallOptions& call) const {
  return paged<AnalysisDetail>("analyses/", {}, list, call);
}
template <class D>
AnalysisDetail BasicV2Client<D>::analysis(const AccessionArg<AnalysisAccession>& accession,
                                          const CallOptions& call) const {
  return get<AnalysisDetail>(
      "analyses/" + segment(checked_accession(accession.str(), kAnalysisAccession)), {}, call);
}
template <class D>
AnalysisWithAnnotations BasicV2Client<D>::analysis_annotations(
    const AccessionArg<AnalysisAccession>& accession, const CallOptions& call) const {
  return get<AnalysisWithAnnotations>(
      sub("analyses/", checked_accession(accession.str(), kAnalysisAccession), "/annotations"), {},
      call);
}
template <class D>
Paged<AnalysisTypedAnnotation> BasicV2Client<D>::analysis_annotations_of_type(
    const AccessionArg<AnalysisAccession>& accession, AnnotationType type, const ListOptions& list,
    const CallOptions& call) const {
  if (type == AnnotationType::unknown)
    throw InvalidArgument("annotation type must be a known value");
  return paged<AnalysisTypedAnnotation>(
      sub("analyses/", checked_accession(accession.str(), kAnalysisAccession), "/annotations/") +
          to_string(type),
      {}, list, call);
}

// ---- biomes --------------------------------------------------------------------

template <class D>
Paged<Biome> BasicV2Client<D>::biomes(const BiomeQuery& query, const ListOptions& list,
                                      const CallOptions& call) const {
  return paged<Biome>("biomes/", query.to_query(), list, call);
}

// ---- publications --------------------------------------------------------------

template <class D>
Paged<Publication> BasicV2Client<D>::publications(const PublicationQuery& query,
                                                  const ListOptions& list,
                                                  const CallOptions& call) const {
  return paged<Publication>("publications/", query.to_query(), list, call);
}
template <class D>
PublicationDetail BasicV2Client<D>::publication(std::int64_t pubmed_id,
                                                const CallOptions& call) const {
  return get<PublicationDetail>("publications/" + checked_pubmed_id(pubmed_id), {}, call);
}
template <class D>
PublicationAnnotations BasicV2Client<D>::publication_annotations(std::int64_t pubmed_id,
                                                                 const CallOptions& call) const {
  return get<PublicationAnnotations>(
      "publications/" + checked_pubmed_id(pubmed_id) + "/annotations", {}, call);
}

// ---- super studies -------------------------------------------------------------

template <class D>
Paged<SuperStudy> BasicV2Client<D>::super_studies(const ListOptions& list,
                                                  const CallOptions& call) const {
  return paged<SuperStudy>("super-studies/", {}, list, call);
}
template <class D>
SuperStudyDetail BasicV2Client<D>::super_study(const std::string& slug,
                                               const CallOptions& call) const {
  return get<SuperStudyDetail>("super-studies/" + segment(slug), {}, call);
}

// ---- batches -------------------------------------------------------------------

template <class D>
std::vector<Result<AssemblyDetail>> BasicV2Client<D>::get_assemblies(
    const AccessionList<AssemblyAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<AssemblyDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return assembly(a, item); });
}
template <class D>
std::vector<Result<AnalysisDetail>> BasicV2Client<D>::get_analyses(
    const AccessionList<AnalysisAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<AnalysisDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return analysis(a, item); });
}
template <class D>
std::vector<Result<PublicationDetail>> BasicV2Client<D>::get_publications(
    const std::vector<std::int64_t>& ids, const BatchOptions& batch,
    const CallOptions& call) const {
  return mgnify::detail::run_batch(
      ids.size(), batch, state_->batch_concurrency, call,
      [this, &ids](std::size_t i, const CallOptions& item) { return publication(ids[i], item); });
}

}  // namespace v2
MGNIFY_NAMESPACE_END
