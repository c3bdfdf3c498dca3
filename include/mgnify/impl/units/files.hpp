#pragma once

// Downloads, their manifests and checksums, and the verbs every client shares over them.
// One translation unit of the compiled library (src/files.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/files/impl/checksum.ipp"
#include "mgnify/files/impl/download.ipp"
#include "mgnify/files/impl/shard.ipp"
#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/impl/service_verbs.ipp"
