#pragma once

// The walks and decoders of the v2 models of genomes and genome catalogues.
// One translation unit of the compiled library (src/v2_genomes.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/impl/client_walks.hpp"
#include "mgnify/version.hpp"

// The walks and decoders of this area's models; units/v2.hpp says why they are apart from the
// client's members.
MGNIFY_NAMESPACE_BEGIN
namespace v2 {
MGNIFY_V2_MODELS_GENOMES(MGNIFY_V2_INSTANTIATE_PAGED, MGNIFY_V2_INSTANTIATE_GET)
}  // namespace v2
MGNIFY_NAMESPACE_END
