#pragma once

// The version macros and the versioned inline namespace let two builds of the SDK
// coexist in one program (symbols differ by namespace) while user code names
// everything as mgnify::X.

#define MGNIFY_VERSION_MAJOR 0
#define MGNIFY_VERSION_MINOR 1
#define MGNIFY_VERSION_PATCH 0
#define MGNIFY_VERSION_STRING "0.1.0"

namespace mgnify {
inline namespace v0 {

inline constexpr int version_major = MGNIFY_VERSION_MAJOR;
inline constexpr int version_minor = MGNIFY_VERSION_MINOR;
inline constexpr int version_patch = MGNIFY_VERSION_PATCH;

inline constexpr const char* version_string() noexcept { return MGNIFY_VERSION_STRING; }

}  // namespace v0
}  // namespace mgnify
