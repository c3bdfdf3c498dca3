#pragma once

// How the SDK's function bodies reach a program.
//
// Header-only (the default): every function is inline and comes with its
// header, so nothing needs to be built or linked besides the dependencies.
//
// MGNIFY_SEPARATE_COMPILATION, defined for every translation unit of the
// program: the headers declare the clients, sessions, downloads and decoders,
// and their bodies, with the templates they instantiate for every model, are
// compiled once, in the one source file that includes <mgnify/impl/src.hpp>
// (with CMake, -DMGNIFY_SEPARATE_COMPILATION=ON makes mgnify::mgnify that
// compiled library). A file that includes a client header then pays for the
// declarations alone. docs/compile_cost.md measures both modes.

#if defined(MGNIFY_SEPARATE_COMPILATION)
#define MGNIFY_HEADER_ONLY 0
#define MGNIFY_DECL
#else
#define MGNIFY_HEADER_ONLY 1
#define MGNIFY_DECL inline
#endif
