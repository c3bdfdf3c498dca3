# Header-only: one release tree, no libraries.
set(VCPKG_BUILD_TYPE release)

vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO mgnify-cpp/mgnify-cpp
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DMGNIFY_BUILD_TESTS=OFF
        -DMGNIFY_BUILD_EXAMPLES=OFF
        -DMGNIFY_BUILD_TOOL=OFF
        -DMGNIFY_BUILD_BENCH=OFF
        -DMGNIFY_INSTALL=ON)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(PACKAGE_NAME mgnify CONFIG_PATH share/cmake/mgnify)
vcpkg_fixup_pkgconfig()
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/lib" "${CURRENT_PACKAGES_DIR}/debug")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
