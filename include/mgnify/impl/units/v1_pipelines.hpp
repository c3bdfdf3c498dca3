#pragma once

// The v1 client's calls on pipelines, pipeline tools, experiment types, organisms, sample metadata
// and contigs.
// One translation unit of the compiled library (src/v1_pipelines.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client_pipelines.ipp"
