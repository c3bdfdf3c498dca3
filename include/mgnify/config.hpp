#pragma once

// How the SDK's function bodies reach a program.
//
// Header-only (the default): every function is inline and comes with its
// header, so nothing needs to be built or linked besides the dependencies.
//
// MGNIFY_SEPARATE_COMPILATION, defined for every translation unit of the
// program: the headers declare the clients, sessions, downloads and decoders,
// and their bodies, with the templates they instantiate for every model, are
// compiled once, by <mgnify/impl/src.hpp> in one source file or by the units
// of CMake's compiled library (-DMGNIFY_SEPARATE_COMPILATION=ON makes
// mgnify::mgnify that library). A file that includes a client header then pays
// for the declarations alone. docs/compile_cost.md measures both modes.

#include "mgnify/version.hpp"

// MGNIFY_API marks what the compiled library exports. It is empty for the
// static library built today; a shared library would define it (visibility,
// dllexport/dllimport) without touching MGNIFY_DECL, which says only whether a
// body is inline.
#if !defined(MGNIFY_API)
#define MGNIFY_API
#endif

#if defined(MGNIFY_SEPARATE_COMPILATION)
#define MGNIFY_HEADER_ONLY 0
#define MGNIFY_DECL MGNIFY_API
#else
#define MGNIFY_HEADER_ONLY 1
#define MGNIFY_DECL inline
#endif

// Link-time tags: objects compiled in different modes, or against another
// version of the compiled library, fail to link instead of mixing bodies.
// - Every object compiled with MGNIFY_SEPARATE_COMPILATION refers to
//   MGNIFY_LINK_TAG, which only the library of the same version defines
//   (impl/link_tags.ipp): "undefined reference to mgnify_compiled_library_v0_1_0"
//   means the library is missing or of another version.
// - Every header-only object defines a function named
//   mgnify_header_only_objects_linked_with_the_compiled_library, and the compiled
//   library a thread-local variable of that name; the linker refuses the pair
//   ("TLS definition ... mismatches non-TLS definition").
// Header-only objects of two versions never meet: their names live in
// different ABI namespaces (version.hpp). GNU-compatible toolchains only.
#define MGNIFY_DETAIL_LINK_TAG(major, minor, patch) MGNIFY_DETAIL_LINK_TAG_(major, minor, patch)
#define MGNIFY_DETAIL_LINK_TAG_(major, minor, patch) \
  mgnify_compiled_library_v##major##_##minor##_##patch
#define MGNIFY_LINK_TAG \
  MGNIFY_DETAIL_LINK_TAG(MGNIFY_VERSION_MAJOR, MGNIFY_VERSION_MINOR, MGNIFY_VERSION_PATCH)
#if defined(__GNUC__)
#if MGNIFY_HEADER_ONLY
extern "C" {
[[gnu::used]] inline void mgnify_header_only_objects_linked_with_the_compiled_library() {}
}
#else
extern "C" const char MGNIFY_LINK_TAG[];
// Internal to each object (one pointer), kept although nothing reads it.
[[gnu::used]] static const char* const mgnify_link_tag_reference = MGNIFY_LINK_TAG;
#endif
#endif
