#pragma once

// The v1 client's member bodies.
// One translation unit of the compiled library (src/v1.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client.ipp"
#include "mgnify/v1/impl/client_annotations.ipp"
#include "mgnify/v1/impl/client_genomes.ipp"
#include "mgnify/v1/impl/client_pipelines.ipp"
#include "mgnify/v1/impl/client_runs.ipp"
#include "mgnify/version.hpp"

// LegacyClient's members are those of a class template, which may be explicitly
// instantiated in one unit only and then gets only the members defined above
// it: so this unit has every member body (each a few lines that name a model's
// walk or decoder), and the v1_<area> units compile those walks and decoders,
// the heavy part, for their models (MGNIFY_V1_MODELS_<AREA> in v1/client.hpp).
MGNIFY_NAMESPACE_BEGIN
namespace v1 {
template class BasicLegacyClient<void>;
}  // namespace v1
MGNIFY_NAMESPACE_END
