#pragma once

// The v2 client's member bodies and the genome search calls that v1 and v2 share.
// One translation unit of the compiled library (src/v2.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/detail/impl/genome_search_calls.ipp"
#include "mgnify/genome_search/impl/gather_csv.ipp"
#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/genome_search.hpp"
#include "mgnify/v2/genome_search.hpp"
#include "mgnify/v2/impl/client.ipp"
#include "mgnify/v2/impl/client_analyses.ipp"
#include "mgnify/v2/impl/client_genomes.ipp"
#include "mgnify/v2/impl/client_studies.ipp"
#include "mgnify/version.hpp"

// As for LegacyClient (units/v1.hpp): the class template is explicitly instantiated here only,
// after every member body, and the v2_<area> units compile the walks and decoders of their models.
MGNIFY_NAMESPACE_BEGIN
namespace v2 {
template class BasicV2Client<void>;
}  // namespace v2
// The COBS search of both clients, here with the calls they share (v1/client.hpp and
// v2/client.hpp declare them extern).
template v1::GenomeSearchResult detail::GenomeSearchCalls::cobs<v1::GenomeSearchResult>(
    const CobsQuery&, const CancelToken&) const;
template v2::GenomeSearchResult detail::GenomeSearchCalls::cobs<v2::GenomeSearchResult>(
    const CobsQuery&, const CancelToken&) const;
MGNIFY_NAMESPACE_END
