#pragma once

// The v1 resource wrappers.
// One translation unit of the compiled library (src/v1_resource.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/v1/impl/resource.ipp"
