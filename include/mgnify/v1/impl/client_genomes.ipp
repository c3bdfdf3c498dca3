#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for the genome catalogues: genomes, catalogues,
// genome sets, super studies and the genomes' COG, KEGG and antiSMASH counts. Apart from
// impl/client.ipp so that the compiled library builds them in another unit
// (include/mgnify/impl/units/), in parallel and in less memory.

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

MGNIFY_DECL Paged<Genome> LegacyClient::genomes(const Query& filters,
                                                const ListOptions& list) const {
  return resources<Genome>("genomes", filters, list);
}

MGNIFY_DECL Genome LegacyClient::genome(const std::string& accession,
                                        const CallOptions& call) const {
  return resource<Genome>("genomes", accession, call);
}

MGNIFY_DECL Paged<GenomeCatalogue> LegacyClient::genome_catalogues(const Query& filters,
                                                                   const ListOptions& list) const {
  return resources<GenomeCatalogue>("genome-catalogues", filters, list);
}

MGNIFY_DECL GenomeCatalogue LegacyClient::genome_catalogue(const std::string& catalogue_id,
                                                           const CallOptions& call) const {
  return resource<GenomeCatalogue>("genome-catalogues", catalogue_id, call);
}

MGNIFY_DECL Paged<SuperStudy> LegacyClient::super_studies(const Query& filters,
                                                          const ListOptions& list) const {
  return resources<SuperStudy>("super-studies", filters, list);
}

MGNIFY_DECL SuperStudy LegacyClient::super_study(const std::string& id,
                                                 const CallOptions& call) const {
  return resource<SuperStudy>("super-studies", id, call);
}

MGNIFY_DECL std::vector<Result<Genome>> LegacyClient::get_genomes(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return get_resources<Genome>("genomes", accessions, batch, call);
}

MGNIFY_DECL Paged<Genome> LegacyClient::biome_genomes(const std::string& lineage,
                                                      const Query& filters,
                                                      const ListOptions& list) const {
  return related<Genome>("biomes", lineage, "genomes", filters, list);
}

MGNIFY_DECL Paged<Genome> LegacyClient::catalogue_genomes(const std::string& id,
                                                          const Query& filters,
                                                          const ListOptions& list) const {
  return related<Genome>("genome-catalogues", id, "genomes", filters, list);
}

MGNIFY_DECL Paged<GenomeCatalogue> LegacyClient::biome_genome_catalogues(
    const std::string& lineage, const Query& filters, const ListOptions& list) const {
  return related<GenomeCatalogue>("biomes", lineage, "genome-catalogues", filters, list);
}

MGNIFY_DECL Paged<GenomeCatalogue> LegacyClient::super_study_related_genome_catalogues(
    const std::string& id, const Query& filters, const ListOptions& list) const {
  return related<GenomeCatalogue>("super-studies", id, "related-genome-catalogues", filters, list);
}

MGNIFY_DECL Paged<GenomeSet> LegacyClient::genome_sets(const Query& filters,
                                                       const ListOptions& list) const {
  return resources<GenomeSet>("genomeset", filters, list);
}

MGNIFY_DECL GenomeSet LegacyClient::genome_set(const std::string& name,
                                               const CallOptions& call) const {
  return resource<GenomeSet>("genomeset", name, call);
}

MGNIFY_DECL Paged<Genome> LegacyClient::genome_set_genomes(const std::string& name,
                                                           const Query& filters,
                                                           const ListOptions& list) const {
  return related<Genome>("genomeset", name, "genomes", filters, list);
}

MGNIFY_DECL Paged<CogCategory> LegacyClient::cogs(const Query& filters,
                                                  const ListOptions& list) const {
  return resources<CogCategory>("cogs", filters, list);
}

MGNIFY_DECL Paged<KeggClass> LegacyClient::kegg_classes(const Query& filters,
                                                        const ListOptions& list) const {
  return resources<KeggClass>("kegg-classes", filters, list);
}

MGNIFY_DECL Paged<GenomeKeggModule> LegacyClient::genome_kegg_modules(
    const Query& filters, const ListOptions& list) const {
  return resources<GenomeKeggModule>("kegg-modules", filters, list);
}

MGNIFY_DECL Paged<GenomeAntismashCluster> LegacyClient::genome_antismash_clusters(
    const Query& filters, const ListOptions& list) const {
  return resources<GenomeAntismashCluster>("antismash-geneclusters", filters, list);
}

MGNIFY_DECL Paged<CogCategory> LegacyClient::genome_cog_counts(const std::string& acc,
                                                               const Query& filters,
                                                               const ListOptions& list) const {
  return related<CogCategory>("genomes", acc, "cogs", filters, list);
}

MGNIFY_DECL Paged<KeggClass> LegacyClient::genome_kegg_class_counts(const std::string& acc,
                                                                    const Query& filters,
                                                                    const ListOptions& list) const {
  return related<KeggClass>("genomes", acc, "kegg-class", filters, list);
}

MGNIFY_DECL Paged<GenomeKeggModule> LegacyClient::genome_kegg_module_counts(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<GenomeKeggModule>("genomes", acc, "kegg-module", filters, list);
}

MGNIFY_DECL Paged<GenomeAntismashCluster> LegacyClient::genome_antismash_cluster_counts(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<GenomeAntismashCluster>("genomes", acc, "antismash-genecluster", filters, list);
}

#if !MGNIFY_HEADER_ONLY
// The member templates a program calls with these models (client_templates.hpp).
MGNIFY_V1_INSTANTIATE(Genome)
MGNIFY_V1_INSTANTIATE(GenomeCatalogue)
MGNIFY_V1_INSTANTIATE(SuperStudy)
MGNIFY_V1_INSTANTIATE(GenomeSet)
MGNIFY_V1_INSTANTIATE(CogCategory)
MGNIFY_V1_INSTANTIATE(KeggClass)
MGNIFY_V1_INSTANTIATE(GenomeKeggModule)
MGNIFY_V1_INSTANTIATE(GenomeAntismashCluster)
#endif

}  // namespace v1
MGNIFY_NAMESPACE_END
