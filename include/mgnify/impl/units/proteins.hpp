#pragma once

// The MGnify Proteins client.
// One translation unit of the compiled library (src/proteins.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/proteins/impl/client.ipp"
#include "mgnify/proteins/impl/sequence_search.ipp"
#include "mgnify/version.hpp"

// ProteinClient's members are those of a class template, instantiated here after every body.
MGNIFY_NAMESPACE_BEGIN
namespace proteins {
template class BasicProteinClient<void>;
}  // namespace proteins
MGNIFY_NAMESPACE_END
