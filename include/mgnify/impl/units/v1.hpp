#pragma once

// The v1 client: its own calls (sessions, tokens, downloads, text), studies, samples, biomes,
// publications.
// One translation unit of the compiled library (src/v1.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client.ipp"
