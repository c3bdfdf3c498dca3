# Compiles SOURCE with -DMGNIFY_CASE_<CASE> (syntax only) and checks the outcome:
# EXPECT=pass must compile; EXPECT=fail must not, with an error whose text matches
# ERROR_REGEX, so that a case fails for the reason it is there and not another.
execute_process(
  COMMAND "${CXX}" -std=c++17 -fsyntax-only -DMGNIFY_SEPARATE_COMPILATION "-I${INCLUDE_DIR}"
          "-DMGNIFY_CASE_${CASE}" "${SOURCE}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(EXPECT STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "case ${CASE} should compile, but:\n${err}")
  endif()
elseif(rc EQUAL 0)
  message(FATAL_ERROR "case ${CASE} compiled, but must not")
elseif(NOT err MATCHES "${ERROR_REGEX}")
  message(FATAL_ERROR "case ${CASE} failed without an error matching '${ERROR_REGEX}':\n${err}")
else()
  message(STATUS "case ${CASE} does not compile, as it must")
endif()
