# Compiles SOURCE with -DMGNIFY_CASE_<CASE> (syntax only) and checks the outcome:
# EXPECT=pass must compile; EXPECT=fail must not, and then each line of SOURCE marked
# `// error: REGEX` must be reported as an error whose message matches REGEX, and no
# other line of SOURCE may be, so that every call fails for the reason it is there
# and not another.
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST), in a script run with -P
# CXX_LAUNCHER: the tree's compiler launcher, its words separated by '|'.
string(REPLACE "|" ";" launcher "${CXX_LAUNCHER}")
execute_process(
  COMMAND ${launcher} "${CXX}" -std=c++17 -fsyntax-only -fno-diagnostics-color -DMGNIFY_SEPARATE_COMPILATION
          "-I${INCLUDE_DIR}" "-DMGNIFY_CASE_${CASE}" "${SOURCE}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(EXPECT STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "case ${CASE} should compile, but:\n${err}")
  endif()
  message(STATUS "case ${CASE} compiles, as it must")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "case ${CASE} compiled, but must not")
endif()

get_filename_component(source_name "${SOURCE}" NAME)
# Every error the compiler reported in SOURCE itself: line number and message.
string(REPLACE ";" "\\;" err_escaped "${err}")
string(REGEX REPLACE "\r?\n" ";" err_lines "${err_escaped}")
set(error_lines "")
foreach(line IN LISTS err_lines)
  if(line MATCHES "${source_name}:([0-9]+):[0-9]+: (fatal )?error: (.*)$")
    list(APPEND error_lines "${CMAKE_MATCH_1}")
    set("message_of_${CMAKE_MATCH_1}" "${CMAKE_MATCH_3}")
  endif()
endforeach()

file(STRINGS "${SOURCE}" source_lines)
set(number 0)
set(expected_lines "")
set(problems "")
foreach(line IN LISTS source_lines)
  math(EXPR number "${number} + 1")
  if(line MATCHES "^[^/]+// error: (.+)$")
    set(expected_regex "${CMAKE_MATCH_1}")
    list(APPEND expected_lines "${number}")
    if(NOT number IN_LIST error_lines)
      string(APPEND problems "line ${number} compiled, but must not: ${line}\n")
    elseif(NOT "${message_of_${number}}" MATCHES "${expected_regex}")
      string(APPEND problems "line ${number} failed without an error matching "
                             "'${expected_regex}': ${message_of_${number}}\n")
    endif()
  endif()
endforeach()
if(NOT expected_lines)
  message(FATAL_ERROR "no line of ${SOURCE} is marked `// error: REGEX`")
endif()
foreach(number IN LISTS error_lines)
  if(NOT number IN_LIST expected_lines)
    string(APPEND problems "line ${number} is an error no mark expects: ${message_of_${number}}\n")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "case ${CASE}:\n${problems}\nthe compiler said:\n${err}")
endif()
list(LENGTH expected_lines count)
message(STATUS "case ${CASE}: each of its ${count} calls is an error of its own, as it must be")
