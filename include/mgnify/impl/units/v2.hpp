#pragma once

// The v2 client (construction, tokens, downloads, text) and the genome search calls that v1 and v2
// share.
// One translation unit of the compiled library (src/v2.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/detail/impl/genome_search_calls.ipp"
#include "mgnify/genome_search/impl/gather_csv.ipp"
#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v2/impl/client.ipp"
