#pragma once

// The v1 client's calls on runs, assemblies, analyses and their downloads.
// One translation unit of the compiled library (src/v1_runs.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client_runs.ipp"
