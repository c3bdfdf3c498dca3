# A consumer that uses only `pkg-config --cflags --libs mgnify` must compile and run.
set(ENV{PKG_CONFIG_PATH} "${STAGE}/share/pkgconfig")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs mgnify RESULT_VARIABLE rc
                OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config failed: ${err}")
endif()
separate_arguments(flag_list UNIX_COMMAND "${flags}")
set(exe "${BINARY_DIR}/pkgconfig_consumer")
file(MAKE_DIRECTORY "${BINARY_DIR}")
execute_process(COMMAND ${CXX} ${CMAKE_CURRENT_LIST_DIR}/consumer.cpp ${flag_list} -o ${exe}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling with pkg-config flags (${flags}) failed: ${err}")
endif()
execute_process(COMMAND ${exe} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config consumer exited with ${rc}")
endif()
