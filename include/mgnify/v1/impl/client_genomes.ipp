#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for the genome catalogues: genomes, catalogues,
// genome sets, super studies and the genomes' COG, KEGG and antiSMASH counts.
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
Paged<Genome> BasicLegacyClient<D>::genomes(const Query& filters, const ListOptions& list,
                                            const CallOptions& call) const {
  return resources<Genome>("genomes", filters, list, call);
}

template <class D>
Genome BasicLegacyClient<D>::genome(const AccessionArg<GenomeAccession>& accession,
                                    const CallOptions& call) const {
  return resource<Genome>("genomes", accession, call);
}

template <class D>
Paged<GenomeCatalogue> BasicLegacyClient<D>::genome_catalogues(const Query& filters,
                                                               const ListOptions& list,
                                                               const CallOptions& call) const {
  return resources<GenomeCatalogue>("genome-catalogues", filters, list, call);
}

template <class D>
GenomeCatalogue BasicLegacyClient<D>::genome_catalogue(const std::string& catalogue_id,
                                                       const CallOptions& call) const {
  return resource<GenomeCatalogue>("genome-catalogues", catalogue_id, call);
}

template <class D>
Paged<SuperStudy> BasicLegacyClient<D>::super_studies(const Query& filters, const ListOptions& list,
                                                      const CallOptions& call) const {
  return resources<SuperStudy>("super-studies", filters, list, call);
}

template <class D>
SuperStudy BasicLegacyClient<D>::super_study(const std::string& id, const CallOptions& call) const {
  return resource<SuperStudy>("super-studies", id, call);
}

template <class D>
std::vector<Result<Genome>> BasicLegacyClient<D>::get_genomes(
    const AccessionList<GenomeAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Genome>("genomes", accessions, batch, call);
}

template <class D>
Paged<Genome> BasicLegacyClient<D>::biome_genomes(const std::string& lineage, const Query& filters,
                                                  const ListOptions& list,
                                                  const CallOptions& call) const {
  return related<Genome>("biomes", lineage, "genomes", filters, list, call);
}

template <class D>
Paged<Genome> BasicLegacyClient<D>::catalogue_genomes(const std::string& id, const Query& filters,
                                                      const ListOptions& list,
                                                      const CallOptions& call) const {
  return related<Genome>("genome-catalogues", id, "genomes", filters, list, call);
}

template <class D>
Paged<GenomeCatalogue> BasicLegacyClient<D>::biome_genome_catalogues(
    const std::string& lineage, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<GenomeCatalogue>("biomes", lineage, "genome-catalogues", filters, list, call);
}

template <class D>
Paged<GenomeCatalogue> BasicLegacyClient<D>::super_study_related_genome_catalogues(
    const std::string& id, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<GenomeCatalogue>("super-studies", id, "related-genome-catalogues", filters, list,
                                  call);
}

template <class D>
Paged<GenomeSet> BasicLegacyClient<D>::genome_sets(const Query& filters, const ListOptions& list,
                                                   const CallOptions& call) const {
  return resources<GenomeSet>("genomeset", filters, list, call);
}

template <class D>
GenomeSet BasicLegacyClient<D>::genome_set(const std::string& name, const CallOptions& call) const {
  return resource<GenomeSet>("genomeset", name, call);
}

template <class D>
Paged<Genome> BasicLegacyClient<D>::genome_set_genomes(const std::string& name,
                                                       const Query& filters,
                                                       const ListOptions& list,
                                                       const CallOptions& call) const {
  return related<Genome>("genomeset", name, "genomes", filters, list, call);
}

template <class D>
Paged<CogCategory> BasicLegacyClient<D>::cogs(const Query& filters, const ListOptions& list,
                                              const CallOptions& call) const {
  return resources<CogCategory>("cogs", filters, list, call);
}

template <class D>
Paged<KeggClass> BasicLegacyClient<D>::kegg_classes(const Query& filters, const ListOptions& list,
                                                    const CallOptions& call) const {
  return resources<KeggClass>("kegg-classes", filters, list, call);
}

template <class D>
Paged<GenomeKeggModule> BasicLegacyClient<D>::genome_kegg_modules(const Query& filters,
                                                                  const ListOptions& list,
                                                                  const CallOptions& call) const {
  return resources<GenomeKeggModule>("kegg-modules", filters, list, call);
}

template <class D>
Paged<GenomeAntismashCluster> BasicLegacyClient<D>::genome_antismash_clusters(
    const Query& filters, const ListOptions& list, const CallOptions& call) const {
  return resources<GenomeAntismashCluster>("antismash-geneclusters", filters, list, call);
}

template <class D>
Paged<CogCategory> BasicLegacyClient<D>::genome_cog_counts(const AccessionArg<GenomeAccession>& acc,
                                                           const Query& filters,
                                                           const ListOptions& list,
                                                           const CallOptions& call) const {
  return related<CogCategory>("genomes", acc, "cogs", filters, list, call);
}

template <class D>
Paged<KeggClass> BasicLegacyClient<D>::genome_kegg_class_counts(
    const AccessionArg<GenomeAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<KeggClass>("genomes", acc, "kegg-class", filters, list, call);
}

template <class D>
Paged<GenomeKeggModule> BasicLegacyClient<D>::genome_kegg_module_counts(
    const AccessionArg<GenomeAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<GenomeKeggModule>("genomes", acc, "kegg-module", filters, list, call);
}

template <class D>
Paged<GenomeAntismashCluster> BasicLegacyClient<D>::genome_antismash_cluster_counts(
    const AccessionArg<GenomeAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<GenomeAntismashCluster>("genomes", acc, "antismash-genecluster", filters, list,
                                         call);
}

}  // namespace v1
MGNIFY_NAMESPACE_END
