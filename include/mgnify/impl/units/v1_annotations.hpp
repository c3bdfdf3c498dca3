#pragma once

// The walks and decoders of the v1 models of the functional annotations (GO, InterPro, Pfam, KEGG,
// genome properties, antiSMASH). One translation unit of the compiled library
// (src/v1_annotations.cpp); include/mgnify/impl/src.hpp explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/client.hpp"
#include "mgnify/v1/client_templates.hpp"
#include "mgnify/version.hpp"

// The walks and decoders of this area's models; units/v1.hpp says why they are apart from the
// client's members.
MGNIFY_NAMESPACE_BEGIN
namespace v1 {
MGNIFY_V1_MODELS_ANNOTATIONS(MGNIFY_V1_INSTANTIATE)
}  // namespace v1
MGNIFY_NAMESPACE_END
