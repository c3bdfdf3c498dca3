#pragma once

// The v1 client's calls on genomes, genome catalogues and super studies.
// One translation unit of the compiled library (src/v1_genomes.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client_genomes.ipp"
