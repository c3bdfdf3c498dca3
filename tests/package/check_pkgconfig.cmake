# A consumer that uses only `pkg-config --cflags --libs mgnify` must compile and run,
# as C++17 and as C++20.
set(ENV{PKG_CONFIG_PATH} "${STAGE}/share/pkgconfig")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs mgnify RESULT_VARIABLE rc
                OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config failed: ${err}")
endif()
separate_arguments(flag_list UNIX_COMMAND "${flags}")
# A library compiled with sanitizers needs their runtime in the program that links it.
if(SANITIZE)
  list(APPEND flag_list "-fsanitize=${SANITIZE}")
endif()
# The user's program picks its language standard; the package must not.
if(flags MATCHES "-std=")
  message(FATAL_ERROR "pkg-config flags force a language standard: ${flags}")
endif()
file(MAKE_DIRECTORY "${BINARY_DIR}")
# CXX_LAUNCHER: the tree's compiler launcher, its words separated by '|'.
string(REPLACE "|" ";" launcher "${CXX_LAUNCHER}")
foreach(standard c++17 c++20)
  set(exe "${BINARY_DIR}/pkgconfig_consumer_${standard}")
  execute_process(COMMAND ${launcher} ${CXX} -std=${standard} ${CMAKE_CURRENT_LIST_DIR}/consumer.cpp ${flag_list}
                          -o ${exe}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compiling as ${standard} with pkg-config flags (${flags}) failed: ${err}")
  endif()
  execute_process(COMMAND ${exe} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config consumer (${standard}) exited with ${rc}")
  endif()
endforeach()
