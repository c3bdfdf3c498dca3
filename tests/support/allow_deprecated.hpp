#pragma once

// Around the one call of a test that proves a deprecated spelling still
// works: the project compiles with -Werror, and no other code may use one.

#if defined(__GNUC__) || defined(__clang__)
#define MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define MGNIFY_TEST_ALLOW_DEPRECATED_END _Pragma("GCC diagnostic pop")
#else
#define MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
#define MGNIFY_TEST_ALLOW_DEPRECATED_END
#endif
