#pragma once

// The v2 client's calls on assemblies, analyses, biomes, publications and super studies.
// One translation unit of the compiled library (src/v2_analyses.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v2/impl/client_analyses.ipp"
