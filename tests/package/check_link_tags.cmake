# Objects of the two build modes must not link into one program (mgnify/config.hpp,
# "Link-time tags"). With the compiled library LIBRARY of this build:
#   - an object compiled with MGNIFY_SEPARATE_COMPILATION links with it (the control);
#   - the same object without the library does not: it refers to the library's
#     versioned tag, which is what another version's library would also lack;
#   - a header-only object linked with it and that object does not.
file(REMOVE_RECURSE "${BINARY_DIR}")
file(MAKE_DIRECTORY "${BINARY_DIR}")
file(WRITE "${BINARY_DIR}/separate.cpp" "#include <mgnify/config.hpp>\nint main() { return 0; }\n")
file(WRITE "${BINARY_DIR}/header_only.cpp"
     "#include <mgnify/config.hpp>\nint header_only_part() { return 0; }\n")

function(compile source)
  execute_process(COMMAND ${CXX} -std=c++17 -I${INCLUDE_DIR} ${ARGN} -c "${BINARY_DIR}/${source}.cpp"
                          -o "${BINARY_DIR}/${source}.o"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compiling ${source}.cpp failed: ${err}")
  endif()
endfunction()
compile(separate -DMGNIFY_SEPARATE_COMPILATION)
compile(header_only)

# LINK_LIBS: what the library itself needs (libcurl, libcrypto, threads, ...); SANITIZE:
# the sanitizers it was compiled with.
separate_arguments(link_libs UNIX_COMMAND "${LINK_LIBS}")
if(SANITIZE)
  list(APPEND link_libs -fsanitize=${SANITIZE})
endif()
function(link name expect)
  execute_process(COMMAND ${CXX} ${ARGN} -o "${BINARY_DIR}/${name}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect STREQUAL "links" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: expected to link, failed: ${err}")
  elseif(expect STREQUAL "fails" AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: linked, but objects of mixed modes or versions must not")
  endif()
  message(STATUS "${name}: ${expect} as expected ${err}")
endfunction()
link(control links "${BINARY_DIR}/separate.o" "${LIBRARY}" ${link_libs})
link(without_library fails "${BINARY_DIR}/separate.o")
link(mixed_modes fails "${BINARY_DIR}/separate.o" "${BINARY_DIR}/header_only.o" "${LIBRARY}" ${link_libs})
