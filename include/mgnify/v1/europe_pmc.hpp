#pragma once

// `publications/{pubmed_id}/europe_pmc_annotations`: Europe PMC's text-mined
// annotations of a publication, grouped into sample-processing terms and
// others. Both APIs proxy the same MGnify helper, so v1 answers with the same
// object as v2's publications/{pubmed_id}/annotations, wrapped in `data`.

#include "mgnify/v2/publications.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v1 {

using EuropePmcAnnotations = v2::PublicationAnnotations;

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
