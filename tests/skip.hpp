#pragma once

// A test that cannot check what it is for (no fixtures folder configured, say)
// reports a skip that ctest recognises through SKIP_REGULAR_EXPRESSION in
// tests/CMakeLists.txt, so it shows as "Skipped" and never as "Passed".

#include <catch2/catch.hpp>

#define MGNIFY_SKIPPED_MARKER "MGNIFY_TEST_SKIPPED: "

#define MGNIFY_SKIP_TEST(why)           \
  do {                                  \
    WARN(MGNIFY_SKIPPED_MARKER << why); \
    return;                             \
  } while (false)
