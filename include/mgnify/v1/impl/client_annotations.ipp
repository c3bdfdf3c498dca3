#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for the functional annotations (GO, InterPro,
// Pfam, KEGG, genome properties, antiSMASH), listed and per analysis. Apart from impl/client.ipp
// (and the pipelines and organisms, impl/client_pipelines.ipp) so that the compiled library builds
// them in another unit (include/mgnify/impl/units/), in parallel and in less memory.

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

MGNIFY_DECL Paged<GoTerm> LegacyClient::go_terms(const Query& filters,
                                                 const ListOptions& list) const {
  return resources<GoTerm>("annotations/go-terms", filters, list);
}

MGNIFY_DECL GoTerm LegacyClient::go_term(const std::string& accession,
                                         const CallOptions& call) const {
  return resource<GoTerm>("annotations/go-terms", accession, call);
}

MGNIFY_DECL Paged<InterproIdentifier> LegacyClient::interpro_identifiers(
    const Query& filters, const ListOptions& list) const {
  return resources<InterproIdentifier>("annotations/interpro-identifiers", filters, list);
}

MGNIFY_DECL InterproIdentifier LegacyClient::interpro_identifier(const std::string& accession,
                                                                 const CallOptions& call) const {
  return resource<InterproIdentifier>("annotations/interpro-identifiers", accession, call);
}

MGNIFY_DECL Paged<PfamEntry> LegacyClient::pfam_entries(const Query& filters,
                                                        const ListOptions& list) const {
  return resources<PfamEntry>("annotations/pfam-entries", filters, list);
}

MGNIFY_DECL PfamEntry LegacyClient::pfam_entry(const std::string& accession,
                                               const CallOptions& call) const {
  return resource<PfamEntry>("annotations/pfam-entries", accession, call);
}

MGNIFY_DECL Paged<KeggOrtholog> LegacyClient::kegg_orthologs(const Query& filters,
                                                             const ListOptions& list) const {
  return resources<KeggOrtholog>("annotations/kegg-orthologs", filters, list);
}

MGNIFY_DECL KeggOrtholog LegacyClient::kegg_ortholog(const std::string& accession,
                                                     const CallOptions& call) const {
  return resource<KeggOrtholog>("annotations/kegg-orthologs", accession, call);
}

MGNIFY_DECL Paged<KeggModule> LegacyClient::kegg_modules(const Query& filters,
                                                         const ListOptions& list) const {
  return resources<KeggModule>("annotations/kegg-modules", filters, list);
}

MGNIFY_DECL KeggModule LegacyClient::kegg_module(const std::string& accession,
                                                 const CallOptions& call) const {
  return resource<KeggModule>("annotations/kegg-modules", accession, call);
}

MGNIFY_DECL Paged<GenomeProperty> LegacyClient::genome_properties(const Query& filters,
                                                                  const ListOptions& list) const {
  return resources<GenomeProperty>("annotations/genome-properties", filters, list);
}

MGNIFY_DECL GenomeProperty LegacyClient::genome_property(const std::string& accession,
                                                         const CallOptions& call) const {
  return resource<GenomeProperty>("annotations/genome-properties", accession, call);
}

MGNIFY_DECL Paged<AntismashGeneCluster> LegacyClient::antismash_gene_clusters(
    const Query& filters, const ListOptions& list) const {
  return resources<AntismashGeneCluster>("annotations/antismash-gene-clusters", filters, list);
}

MGNIFY_DECL AntismashGeneCluster
LegacyClient::antismash_gene_cluster(const std::string& accession, const CallOptions& call) const {
  return resource<AntismashGeneCluster>("annotations/antismash-gene-clusters", accession, call);
}

MGNIFY_DECL Paged<GoTerm> LegacyClient::analysis_go_terms(const std::string& acc,
                                                          const Query& filters,
                                                          const ListOptions& list) const {
  return related<GoTerm>("analyses", acc, "go-terms", filters, list);
}

MGNIFY_DECL Paged<GoTerm> LegacyClient::analysis_go_slim(const std::string& acc,
                                                         const Query& filters,
                                                         const ListOptions& list) const {
  return related<GoTerm>("analyses", acc, "go-slim", filters, list);
}

MGNIFY_DECL Paged<InterproIdentifier> LegacyClient::analysis_interpro_identifiers(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<InterproIdentifier>("analyses", acc, "interpro-identifiers", filters, list);
}

MGNIFY_DECL Paged<PfamEntry> LegacyClient::analysis_pfam_entries(const std::string& acc,
                                                                 const Query& filters,
                                                                 const ListOptions& list) const {
  return related<PfamEntry>("analyses", acc, "pfam-entries", filters, list);
}

MGNIFY_DECL Paged<KeggOrtholog> LegacyClient::analysis_kegg_orthologs(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<KeggOrtholog>("analyses", acc, "kegg-orthologs", filters, list);
}

MGNIFY_DECL Paged<KeggModule> LegacyClient::analysis_kegg_modules(const std::string& acc,
                                                                  const Query& filters,
                                                                  const ListOptions& list) const {
  return related<KeggModule>("analyses", acc, "kegg-modules", filters, list);
}

MGNIFY_DECL Paged<GenomeProperty> LegacyClient::analysis_genome_properties(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<GenomeProperty>("analyses", acc, "genome-properties", filters, list);
}

MGNIFY_DECL Paged<AntismashGeneCluster> LegacyClient::analysis_antismash_gene_clusters(
    const std::string& acc, const Query& filters, const ListOptions& list) const {
  return related<AntismashGeneCluster>("analyses", acc, "antismash-gene-clusters", filters, list);
}

#if !MGNIFY_HEADER_ONLY
// The member templates a program calls with these models (client_templates.hpp).
MGNIFY_V1_INSTANTIATE(GoTerm)
MGNIFY_V1_INSTANTIATE(InterproIdentifier)
MGNIFY_V1_INSTANTIATE(PfamEntry)
MGNIFY_V1_INSTANTIATE(KeggOrtholog)
MGNIFY_V1_INSTANTIATE(KeggModule)
MGNIFY_V1_INSTANTIATE(GenomeProperty)
MGNIFY_V1_INSTANTIATE(AntismashGeneCluster)
#endif

}  // namespace v1
MGNIFY_NAMESPACE_END
