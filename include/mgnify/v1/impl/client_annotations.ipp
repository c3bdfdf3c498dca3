#pragma once

// Bodies of LegacyClient (mgnify/v1/client.hpp) for the functional annotations (GO, InterPro,
// Pfam, KEGG, genome properties, antiSMASH), listed and per analysis.
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
Paged<GoTerm> BasicLegacyClient<D>::go_terms(const Query& filters, const ListOptions& list,
                                             const CallOptions& call) const {
  return resources<GoTerm>("annotations/go-terms", filters, list, call);
}

template <class D>
GoTerm BasicLegacyClient<D>::go_term(const std::string& accession, const CallOptions& call) const {
  return resource<GoTerm>("annotations/go-terms", accession, call);
}

template <class D>
Paged<InterproIdentifier> BasicLegacyClient<D>::interpro_identifiers(
    const Query& filters, const ListOptions& list, const CallOptions& call) const {
  return resources<InterproIdentifier>("annotations/interpro-identifiers", filters, list, call);
}

template <class D>
InterproIdentifier BasicLegacyClient<D>::interpro_identifier(const std::string& accession,
                                                             const CallOptions& call) const {
  return resource<InterproIdentifier>("annotations/interpro-identifiers", accession, call);
}

template <class D>
Paged<PfamEntry> BasicLegacyClient<D>::pfam_entries(const Query& filters, const ListOptions& list,
                                                    const CallOptions& call) const {
  return resources<PfamEntry>("annotations/pfam-entries", filters, list, call);
}

template <class D>
PfamEntry BasicLegacyClient<D>::pfam_entry(const std::string& accession,
                                           const CallOptions& call) const {
  return resource<PfamEntry>("annotations/pfam-entries", accession, call);
}

template <class D>
Paged<KeggOrtholog> BasicLegacyClient<D>::kegg_orthologs(const Query& filters,
                                                         const ListOptions& list,
                                                         const CallOptions& call) const {
  return resources<KeggOrtholog>("annotations/kegg-orthologs", filters, list, call);
}

template <class D>
KeggOrtholog BasicLegacyClient<D>::kegg_ortholog(const std::string& accession,
                                                 const CallOptions& call) const {
  return resource<KeggOrtholog>("annotations/kegg-orthologs", accession, call);
}

template <class D>
Paged<KeggModule> BasicLegacyClient<D>::kegg_modules(const Query& filters, const ListOptions& list,
                                                     const CallOptions& call) const {
  return resources<KeggModule>("annotations/kegg-modules", filters, list, call);
}

template <class D>
KeggModule BasicLegacyClient<D>::kegg_module(const std::string& accession,
                                             const CallOptions& call) const {
  return resource<KeggModule>("annotations/kegg-modules", accession, call);
}

template <class D>
Paged<GenomeProperty> BasicLegacyClient<D>::genome_properties(const Query& filters,
                                                              const ListOptions& list,
                                                              const CallOptions& call) const {
  return resources<GenomeProperty>("annotations/genome-properties", filters, list, call);
}

template <class D>
GenomeProperty BasicLegacyClient<D>::genome_property(const std::string& accession,
                                                     const CallOptions& call) const {
  return resource<GenomeProperty>("annotations/genome-properties", accession, call);
}

template <class D>
Paged<AntismashGeneCluster> BasicLegacyClient<D>::antismash_gene_clusters(
    const Query& filters, const ListOptions& list, const CallOptions& call) const {
  return resources<AntismashGeneCluster>("annotations/antismash-gene-clusters", filters, list,
                                         call);
}

template <class D>
AntismashGeneCluster BasicLegacyClient<D>::antismash_gene_cluster(const std::string& accession,
                                                                  const CallOptions& call) const {
  return resource<AntismashGeneCluster>("annotations/antismash-gene-clusters", accession, call);
}

template <class D>
Paged<GoTerm> BasicLegacyClient<D>::analysis_go_terms(const AccessionArg<AnalysisAccession>& acc,
                                                      const Query& filters, const ListOptions& list,
                                                      const CallOptions& call) const {
  return related<GoTerm>("analyses", acc, "go-terms", filters, list, call);
}

template <class D>
Paged<GoTerm> BasicLegacyClient<D>::analysis_go_slim(const AccessionArg<AnalysisAccession>& acc,
                                                     const Query& filters, const ListOptions& list,
                                                     const CallOptions& call) const {
  return related<GoTerm>("analyses", acc, "go-slim", filters, list, call);
}

template <class D>
Paged<InterproIdentifier> BasicLegacyClient<D>::analysis_interpro_identifiers(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<InterproIdentifier>("analyses", acc, "interpro-identifiers", filters, list, call);
}

template <class D>
Paged<PfamEntry> BasicLegacyClient<D>::analysis_pfam_entries(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<PfamEntry>("analyses", acc, "pfam-entries", filters, list, call);
}

template <class D>
Paged<KeggOrtholog> BasicLegacyClient<D>::analysis_kegg_orthologs(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<KeggOrtholog>("analyses", acc, "kegg-orthologs", filters, list, call);
}

template <class D>
Paged<KeggModule> BasicLegacyClient<D>::analysis_kegg_modules(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<KeggModule>("analyses", acc, "kegg-modules", filters, list, call);
}

template <class D>
Paged<GenomeProperty> BasicLegacyClient<D>::analysis_genome_properties(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<GenomeProperty>("analyses", acc, "genome-properties", filters, list, call);
}

template <class D>
Paged<AntismashGeneCluster> BasicLegacyClient<D>::analysis_antismash_gene_clusters(
    const AccessionArg<AnalysisAccession>& acc, const Query& filters, const ListOptions& list,
    const CallOptions& call) const {
  return related<AntismashGeneCluster>("analyses", acc, "antismash-gene-clusters", filters, list,
                                       call);
}

}  // namespace v1
MGNIFY_NAMESPACE_END
