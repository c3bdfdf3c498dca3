# Build speed for the project's own programs (tests, mock, CLI); nothing here
# reaches the mgnify::mgnify INTERFACE target that users link.
#
# On two cores nearly all of a test build is the compiler working through the
# SDK, Catch2 and cpp-httplib again for every translation unit: parsing them,
# then instantiating the same templates at the end of each unit. A precompiled
# header saves the parse; only fewer translation units (unity batches) save the
# instantiation. docs/performance.md ("Build time") has the figures.

option(MGNIFY_PRECOMPILE_HEADERS "Precompiled headers for the tests, the mock and (clang++) the linked examples" ON)
option(MGNIFY_UNITY_BUILD "Unity builds for the tests, the mock and the CLI" ON)
set(MGNIFY_UNITY_BATCH_SIZE 16 CACHE STRING "Files per unity batch (MGNIFY_UNITY_BUILD)")

# Makes `owner` build a precompiled header of HEADERS that other targets linked to
# the same libraries with the same flags can reuse (mgnify_speed_up). The owner
# is a real target, so no compile is spent on a target that exists only for it.
function(mgnify_precompile_headers owner)
  if(MGNIFY_PRECOMPILE_HEADERS)
    target_precompile_headers(${owner} PRIVATE ${ARGN})
    # A header that no longer matches its flags would be ignored silently and
    # the build would only get slower; make that an error instead.
    target_compile_options(${owner} PRIVATE -Winvalid-pch)
  endif()
endfunction()

# Makes `target` compile with the precompiled header of `owner` (mgnify_precompile_headers).
function(mgnify_reuse_precompiled_header target owner)
  if(MGNIFY_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${owner})
    target_compile_options(${target} PRIVATE -Winvalid-pch)
  endif()
endfunction()

# Unity batches for `target`, and the precompiled header of `pch_owner` when one is named.
function(mgnify_speed_up target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "REUSE_PCH_FROM" "")
  if(arg_REUSE_PCH_FROM)
    mgnify_reuse_precompiled_header(${target} ${arg_REUSE_PCH_FROM})
  endif()
  if(MGNIFY_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES
      UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${MGNIFY_UNITY_BATCH_SIZE})
  endif()
endfunction()
