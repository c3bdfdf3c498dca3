# Installs the header-only SDK from the sources into STAGE: what a user of the
# default mode installs, for the package tests of a MGNIFY_SEPARATE_COMPILATION
# build tree (whose own install is the compiled library). Nothing is compiled.
file(REMOVE_RECURSE "${BINARY_DIR}" "${STAGE}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}"
                  -DMGNIFY_SEPARATE_COMPILATION=OFF -DMGNIFY_INSTALL=ON -DMGNIFY_BUILD_TESTS=OFF
                  -DMGNIFY_BUILD_MOCK=OFF -DMGNIFY_BUILD_EXAMPLES=OFF -DMGNIFY_BUILD_TOOL=OFF
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure of the header-only SDK failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BINARY_DIR}" --prefix "${STAGE}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install of the header-only SDK failed: ${rc}")
endif()
file(READ "${STAGE}/share/pkgconfig/mgnify.pc" pc)
if(pc MATCHES "SEPARATE_COMPILATION|-lmgnify")
  message(FATAL_ERROR "the header-only install's pkg-config file names the compiled library:\n${pc}")
endif()
