#pragma once

// Included by every file that compiles the SDK's bodies for the library
// (src.hpp and the unit lists in units/). Header-only, every header already brings its
// bodies inline; compiling them here as well would give the program two
// copies, so a build that does so is stopped here instead of linking them.

#include "mgnify/config.hpp"

#if MGNIFY_HEADER_ONLY
#error \
    "mgnify/impl/src.hpp and the unit lists in mgnify/impl/units/ compile the SDK's bodies for MGNIFY_SEPARATE_COMPILATION; define it for every translation unit of the program, or include neither"
#endif
