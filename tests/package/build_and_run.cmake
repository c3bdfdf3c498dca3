# Configures, builds and runs a consumer project; any failure fails the test.
file(REMOVE_RECURSE "${BINARY_DIR}")
# The tree's own compiler: a library compiled with one compiler's sanitizers links
# their runtime, which the other compiler's may not match.
set(compiler_args)
if(CXX)
  set(compiler_args "-DCMAKE_CXX_COMPILER=${CXX}")
endif()
# CXX_LAUNCHER: the tree's compiler launcher, its words separated by '|'. CMake takes a
# new tree's launcher from the environment, where the list stays one value.
if(CXX_LAUNCHER)
  string(REPLACE "|" ";" launcher "${CXX_LAUNCHER}")
  set(ENV{CMAKE_CXX_COMPILER_LAUNCHER} "${launcher}")
endif()
set(sanitizer_args)
if(SANITIZE)
  set(sanitizer_args "-DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}"
                     "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}" ${EXTRA_ARGS}
                        ${compiler_args} ${sanitizer_args}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BINARY_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed: ${rc}")
endif()
execute_process(COMMAND "${BINARY_DIR}/${RUN}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer exited with ${rc}")
endif()
