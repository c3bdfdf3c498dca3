# Build speed for the project's own programs (tests, mock, CLI); nothing here
# reaches the mgnify::mgnify INTERFACE target that users link.
#
# On two cores most of a test build was the compiler parsing the SDK, Catch2 and
# cpp-httplib again for every file, and emitting the same inline code again in
# every object. A precompiled header parses them once per build, and a unity
# build compiles a program's files in a few large batches.
# docs/performance.md ("Build time") has the figures.

option(MGNIFY_PRECOMPILE_HEADERS "Precompiled headers for the tests, the mock and the CLI" ON)
option(MGNIFY_UNITY_BUILD "Unity builds for the tests, the mock and the CLI" ON)
set(MGNIFY_UNITY_BATCH_SIZE 8 CACHE STRING "Files per unity batch (MGNIFY_UNITY_BUILD)")

# A target that only owns a precompiled header for others to reuse: one compile
# of the headers serves every program linked to the same libraries and flags.
function(mgnify_add_precompiled_header name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;LINK")
  add_library(${name} OBJECT "${PROJECT_SOURCE_DIR}/cmake/precompiled_header_owner.cpp")
  target_link_libraries(${name} PRIVATE ${arg_LINK})
  if(MGNIFY_PRECOMPILE_HEADERS)
    target_precompile_headers(${name} PRIVATE ${arg_HEADERS})
  endif()
endfunction()

# Applies the precompiled header of `pch_owner` (made by mgnify_add_precompiled_header
# with the same libraries and flags) and unity batches to `target`.
function(mgnify_speed_up target pch_owner)
  if(MGNIFY_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${pch_owner})
    # A header that no longer matches its flags would be ignored silently and
    # the build would only get slower; make that an error instead.
    target_compile_options(${target} PRIVATE -Winvalid-pch)
  endif()
  if(MGNIFY_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES
      UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${MGNIFY_UNITY_BATCH_SIZE})
  endif()
endfunction()
