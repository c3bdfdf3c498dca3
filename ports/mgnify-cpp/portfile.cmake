# Header-only unless the `tool` feature builds the mgnify CLI: one release tree.
set(VCPKG_BUILD_TYPE release)

vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO mgnify-cpp/mgnify-cpp
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main)

# `tool` -> -DMGNIFY_BUILD_TOOL=ON (else OFF, so the port never needs CLI11 or zlib).
vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS
    FEATURES
        tool MGNIFY_BUILD_TOOL)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        ${FEATURE_OPTIONS}
        -DMGNIFY_BUILD_TESTS=OFF
        -DMGNIFY_BUILD_EXAMPLES=OFF
        -DMGNIFY_BUILD_BENCH=OFF
        -DMGNIFY_INSTALL=ON)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(PACKAGE_NAME mgnify CONFIG_PATH share/cmake/mgnify)
vcpkg_fixup_pkgconfig()
if("tool" IN_LIST FEATURES)
    # bin/mgnify -> tools/mgnify-cpp/mgnify, where vcpkg keeps executables.
    vcpkg_copy_tools(TOOL_NAMES mgnify AUTO_CLEAN)
    # The completion scripts and the man page the build generated, kept beside
    # the port's other files (share/<port>/), named as a system install names them.
    # The build writes them by running the tool, which a cross build cannot do
    # (tools/mgnify/CMakeLists.txt skips them when CMAKE_CROSSCOMPILING), so
    # each is kept only where it was installed.
    set(share "${CURRENT_PACKAGES_DIR}/share")
    foreach(installed IN ITEMS
            "bash-completion/completions/mgnify"
            "zsh/site-functions/_mgnify"
            "man/man1/mgnify.1")
        if(EXISTS "${share}/${installed}")
            get_filename_component(folder "${installed}" DIRECTORY)
            file(INSTALL "${share}/${installed}" DESTINATION "${share}/${PORT}/${folder}")
        endif()
    endforeach()
    file(REMOVE_RECURSE "${share}/bash-completion" "${share}/zsh" "${share}/man")
endif()
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/lib" "${CURRENT_PACKAGES_DIR}/debug")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
