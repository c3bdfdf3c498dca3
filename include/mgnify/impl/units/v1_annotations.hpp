#pragma once

// The v1 client's calls on the functional annotations (GO, InterPro, Pfam, KEGG, genome properties,
// antiSMASH).
// One translation unit of the compiled library (src/v1_annotations.cpp);
// include/mgnify/impl/src.hpp explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client_annotations.ipp"
