#pragma once

// The compiled library's half of the link-time tags described in
// mgnify/config.hpp: the versioned symbol its users' objects refer to, and the
// thread-local variable that a header-only object's function of the same name
// cannot link with.

#include "mgnify/config.hpp"

extern "C" {
const char MGNIFY_LINK_TAG[] = MGNIFY_VERSION_STRING;
thread_local char mgnify_header_only_objects_linked_with_the_compiled_library = 0;
}
