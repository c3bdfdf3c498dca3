#pragma once

// The on-disk response cache: its folder, entries and private files.
// One translation unit of the compiled library (src/cache.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/cache/impl/private_files.ipp"
#include "mgnify/cache/impl/response_cache.ipp"
#include "mgnify/impl/compiled_only.hpp"
