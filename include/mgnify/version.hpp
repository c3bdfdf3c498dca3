#pragma once

// The version macros, and the inline namespace every SDK name lives in.
//
// The inline namespace is named after the ABI (abi_<major>_<minor>_<patch>), so
// objects built against two versions of the SDK never share a symbol: a program
// that mixes them links both bodies side by side instead of calling one
// version's body with the other's layout. User code names everything as
// mgnify::X; the service namespaces (mgnify::v1, mgnify::v2) sit inside it and
// are the only version-like names users see.

#define MGNIFY_VERSION_MAJOR 0
#define MGNIFY_VERSION_MINOR 1
#define MGNIFY_VERSION_PATCH 0
#define MGNIFY_VERSION_STRING "0.1.0"

#define MGNIFY_DETAIL_ABI_NAME(major, minor, patch) MGNIFY_DETAIL_ABI_NAME_(major, minor, patch)
#define MGNIFY_DETAIL_ABI_NAME_(major, minor, patch) abi_##major##_##minor##_##patch

/// The inline namespace inside `mgnify`; spell it only through the two macros below.
#define MGNIFY_ABI_NAMESPACE \
  MGNIFY_DETAIL_ABI_NAME(MGNIFY_VERSION_MAJOR, MGNIFY_VERSION_MINOR, MGNIFY_VERSION_PATCH)

/// Opens `namespace mgnify` and its ABI namespace; every SDK header uses it.
#define MGNIFY_NAMESPACE_BEGIN \
  namespace mgnify {           \
  inline namespace MGNIFY_ABI_NAMESPACE {
/// Closes what MGNIFY_NAMESPACE_BEGIN opened.
#define MGNIFY_NAMESPACE_END \
  }                          \
  }

MGNIFY_NAMESPACE_BEGIN

inline constexpr int version_major = MGNIFY_VERSION_MAJOR;
inline constexpr int version_minor = MGNIFY_VERSION_MINOR;
inline constexpr int version_patch = MGNIFY_VERSION_PATCH;

inline constexpr const char* version_string() noexcept { return MGNIFY_VERSION_STRING; }

MGNIFY_NAMESPACE_END
