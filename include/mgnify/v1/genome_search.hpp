#pragma once

// Genome search models of the v1 client. The v1 service hands the COBS
// backend's genome record through without a fixed schema, so a hit keeps it
// as JSON; the COBS figures and the gather job types are typed and shared
// with v2 (mgnify/genome_search.hpp).

#include <nlohmann/json.hpp>

#include "mgnify/genome_search.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// One COBS hit: `mgnify` is the service's genome record as sent, `cobs` the k-mer figures.
using GenomeSearchHit = BasicGenomeSearchHit<nlohmann::json>;
/// The answer of genome-search.
using GenomeSearchResult = BasicGenomeSearchResult<nlohmann::json>;

}  // namespace v1
MGNIFY_NAMESPACE_END
