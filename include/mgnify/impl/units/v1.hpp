#pragma once

// The v1 client and its templates instantiated for every v1 model.
// One translation unit of the compiled library (src/v1.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/client.ipp"
