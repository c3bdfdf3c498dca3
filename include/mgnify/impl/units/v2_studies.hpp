#pragma once

// The v2 client's calls on studies, samples and runs.
// One translation unit of the compiled library (src/v2_studies.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v2/impl/client_studies.ipp"
