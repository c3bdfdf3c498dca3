#pragma once

// Bodies of V2Client (mgnify/v2/client.hpp) for genomes and genome catalogues (see
// impl/client.ipp).

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

// ---- genomes -------------------------------------------------------------------

template <class D>
Paged<Genome> BasicV2Client<D>::genomes(const GenomeQuery& query, const ListOptions& list,
                                        const CallOptions& call) const {
  return paged<Genome>("genomes/", query.to_query(), list, call);
}
template <class D>
GenomeDetail BasicV2Client<D>::genome(const AccessionArg<GenomeAccession>& accession,
                                      const GenomeLookup& lookup, const CallOptions& call) const {
  return get<GenomeDetail>(
      "genomes/" + segment(checked_accession(accession.str(), kGenomeAccession)), lookup.to_query(),
      call);
}
template <class D>
GenomeWithAnnotations BasicV2Client<D>::genome_annotations(
    const AccessionArg<GenomeAccession>& accession, const GenomeLookup& lookup,
    const CallOptions& call) const {
  return get<GenomeWithAnnotations>(
      sub("genomes/", checked_accession(accession.str(), kGenomeAccession), "/annotations"),
      lookup.to_query(), call);
}
template <class D>
Paged<GenomeCatalogue> BasicV2Client<D>::genome_catalogues(const ListOptions& list,
                                                           const CallOptions& call) const {
  return paged<GenomeCatalogue>("genomes/catalogues/", {}, list, call);
}
template <class D>
GenomeCatalogueDetail BasicV2Client<D>::genome_catalogue(const std::string& catalogue_id,
                                                         const CallOptions& call) const {
  return get<GenomeCatalogueDetail>("genomes/catalogues/" + segment(catalogue_id), {}, call);
}
template <class D>
Paged<Genome> BasicV2Client<D>::catalogue_genomes(const std::string& catalogue_id,
                                                  const GenomeQuery& query, const ListOptions& list,
                                                  const CallOptions& call) const {
  return paged<Genome>(sub("genomes/catalogues/", catalogue_id, "/genomes/"), query.to_query(),
                       list, call);
}

// ---- batches -------------------------------------------------------------------

template <class D>
std::vector<Result<GenomeDetail>> BasicV2Client<D>::get_genomes(
    const AccessionList<GenomeAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<GenomeDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return genome(a, {}, item); });
}

}  // namespace v2
MGNIFY_NAMESPACE_END
