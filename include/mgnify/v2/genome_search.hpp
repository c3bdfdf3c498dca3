#pragma once

// Genome search models of the v2 client: COBS hits carry the v2 genome
// (GenomeList). The gather job types are shared with v1 (mgnify/genome_search.hpp).

#include "mgnify/genome_search.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

/// One COBS hit: `mgnify` is the genome (GenomeList), `cobs` the k-mer figures.
using GenomeSearchHit = BasicGenomeSearchHit<Genome>;
/// The answer of genome-search/.
using GenomeSearchResult = BasicGenomeSearchResult<Genome>;

}  // namespace v2
MGNIFY_NAMESPACE_END
