#pragma once

// `publications/{pubmed_id}/europe_pmc_annotations`: Europe PMC's text-mined
// annotations of a publication, grouped into sample-processing terms and
// others. Both APIs proxy the same MGnify helper, so v1 answers with the same
// object as v2's publications/{pubmed_id}/annotations, wrapped in `data`.

#include "mgnify/v2/publications.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

using EuropePmcAnnotations = v2::PublicationAnnotations;

}  // namespace v1
MGNIFY_NAMESPACE_END
