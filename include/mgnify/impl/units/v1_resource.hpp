#pragma once

// The v1 resource wrappers, and the walks and decoders of the v1 studies, samples, biomes and
// publications (in this light unit rather than with the client's members, units/v1.hpp).
// One translation unit of the compiled library (src/v1_resource.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/client.hpp"
#include "mgnify/v1/client_templates.hpp"
#include "mgnify/v1/impl/resource.ipp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {
MGNIFY_V1_MODELS_CORE(MGNIFY_V1_INSTANTIATE)
}  // namespace v1
MGNIFY_NAMESPACE_END
