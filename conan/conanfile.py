import os

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, rmdir
from conan.tools.layout import basic_layout

required_conan_version = ">=2.0"


class MgnifyCppConan(ConanFile):
    name = "mgnify-cpp"
    version = "0.1.0"
    description = "Header-only C++17 client SDK for EBI MGnify's Protein, legacy v1 and v2 web services"
    license = "MIT"
    topics = ("mgnify", "metagenomics", "rest", "json-api", "http-client", "header-only")
    # "unknown" when the `tool` option adds the mgnify binary (configure()).
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    # tool: also build and package the mgnify command-line tool (CLI11, zlib),
    # its bash and zsh completion and its man page.
    options = {"tool": [True, False]}
    # The transport asks libcurl for HTTP/2 and for brotli and zstd bodies (README, Options).
    default_options = {
        "tool": False,
        "libcurl/*:with_nghttp2": True,
        "libcurl/*:with_brotli": True,
        "libcurl/*:with_zstd": True,
    }

    def export_sources(self):
        # The recipe lives in the repository, so it packages the checkout it sits in.
        root = os.path.join(self.recipe_folder, "..")
        copy(self, "LICENSE", root, self.export_sources_folder)
        copy(self, "include/*.hpp", root, self.export_sources_folder)
        # What the CMake build of the tool reads.
        copy(self, "CMakeLists.txt", root, self.export_sources_folder)
        copy(self, "cmake/*", root, self.export_sources_folder)
        copy(self, "tools/CMakeLists.txt", root, self.export_sources_folder)
        copy(self, "tools/mgnify/*", root, self.export_sources_folder)

    def configure(self):
        if self.options.tool:
            # Headers for consumers and an executable: neither kind alone.
            self.package_type = "unknown"

    def layout(self):
        if self.options.tool:
            cmake_layout(self, src_folder=".")
        else:
            basic_layout(self, src_folder=".")

    def requirements(self):
        # Header-only: consumers compile our headers (nlohmann, simdjson) and link
        # simdjson, libcurl and libcrypto (checksums) themselves, so all are transitive.
        self.requires("nlohmann_json/[>=3.10 <4]", transitive_headers=True)
        self.requires("simdjson/[>=3.0 <4]", transitive_headers=True, transitive_libs=True)
        self.requires("libcurl/[>=7.68 <9]", transitive_headers=True, transitive_libs=True)
        self.requires("openssl/[>=1.1 <4]", transitive_headers=True, transitive_libs=True)
        if self.options.tool:
            # The tool's own: argument parsing, and gunzip of the summary files.
            self.requires("cli11/[>=2.1 <3]")
            self.requires("zlib/[>=1.2.11 <2]")

    def package_id(self):
        # The headers do not depend on settings; the tool's binary does.
        if not self.info.options.tool:
            self.info.clear()

    def validate(self):
        check_min_cppstd(self, 17)

    def generate(self):
        if self.options.tool:
            toolchain = CMakeToolchain(self)
            toolchain.cache_variables["MGNIFY_BUILD_TOOL"] = True
            toolchain.cache_variables["MGNIFY_BUILD_TESTS"] = False
            toolchain.cache_variables["MGNIFY_BUILD_EXAMPLES"] = False
            toolchain.cache_variables["MGNIFY_BUILD_BENCH"] = False
            toolchain.cache_variables["MGNIFY_INSTALL"] = True
            toolchain.generate()
            CMakeDeps(self).generate()

    def build(self):
        if self.options.tool:
            cmake = CMake(self)
            cmake.configure()
            cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        if self.options.tool:
            CMake(self).install()
            # package_info() describes the library; Conan writes its own config files.
            rmdir(self, os.path.join(self.package_folder, "share", "cmake"))
            rmdir(self, os.path.join(self.package_folder, "share", "pkgconfig"))
            rmdir(self, os.path.join(self.package_folder, "share", "licenses"))
        else:
            copy(self, "*.hpp", os.path.join(self.source_folder, "include"),
                 os.path.join(self.package_folder, "include"))

    def package_info(self):
        # The same names as the CMake install, so consumers write the same two lines.
        self.cpp_info.set_property("cmake_file_name", "mgnify")
        self.cpp_info.set_property("cmake_target_name", "mgnify::mgnify")
        self.cpp_info.set_property("pkg_config_name", "mgnify")
        self.cpp_info.bindirs = ["bin"] if self.options.tool else []
        self.cpp_info.libdirs = []
        if self.settings.os in ["Linux", "FreeBSD"]:
            self.cpp_info.system_libs = ["pthread"]
