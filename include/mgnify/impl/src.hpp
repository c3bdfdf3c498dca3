#pragma once

// The bodies of the SDK for MGNIFY_SEPARATE_COMPILATION, in one translation
// unit: include this header in exactly one source file of a program built
// without CMake. CMake's compiled mgnify library compiles the same bodies in
// parallel instead, one src/<unit>.cpp per header in units/.
//
// Each .ipp file under include/mgnify is listed in exactly one header of units/,
// and that list is the only one: a new .ipp goes into the unit of its area
// (or a new units/<area>.hpp with a src/<area>.cpp of one #include, listed
// below). cmake/mgnify_units.cmake fails the configure, and the ctest
// build.compile_units, when an .ipp is in no unit or in two, or a unit lacks
// its source file or its line here.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/impl/units/cache.hpp"
#include "mgnify/impl/units/core.hpp"
#include "mgnify/impl/units/files.hpp"
#include "mgnify/impl/units/proteins.hpp"
#include "mgnify/impl/units/tables.hpp"
#include "mgnify/impl/units/transport.hpp"
#include "mgnify/impl/units/v1.hpp"
#include "mgnify/impl/units/v1_annotations.hpp"
#include "mgnify/impl/units/v1_genomes.hpp"
#include "mgnify/impl/units/v1_pipelines.hpp"
#include "mgnify/impl/units/v1_resource.hpp"
#include "mgnify/impl/units/v1_runs.hpp"
#include "mgnify/impl/units/v2.hpp"
#include "mgnify/impl/units/v2_analyses.hpp"
#include "mgnify/impl/units/v2_genomes.hpp"
#include "mgnify/impl/units/v2_studies.hpp"
