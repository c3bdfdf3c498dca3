import os

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy
from conan.tools.layout import basic_layout

required_conan_version = ">=2.0"


class MgnifyCppConan(ConanFile):
    name = "mgnify-cpp"
    version = "0.1.0"
    description = "Header-only C++17 client SDK for EBI MGnify's Protein, legacy v1 and v2 web services"
    license = "MIT"
    topics = ("mgnify", "metagenomics", "rest", "json-api", "http-client", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    no_copy_source = True
    # The transport asks libcurl for HTTP/2 and for brotli and zstd bodies (README, Options).
    default_options = {
        "libcurl/*:with_nghttp2": True,
        "libcurl/*:with_brotli": True,
        "libcurl/*:with_zstd": True,
    }

    def export_sources(self):
        # The recipe lives in the repository, so it packages the checkout it sits in.
        root = os.path.join(self.recipe_folder, "..")
        copy(self, "LICENSE", root, self.export_sources_folder)
        copy(self, "include/*.hpp", root, self.export_sources_folder)

    def layout(self):
        basic_layout(self, src_folder=".")

    def requirements(self):
        # Header-only: consumers compile our headers (nlohmann, simdjson) and link
        # simdjson, libcurl and libcrypto (checksums) themselves, so all are transitive.
        self.requires("nlohmann_json/[>=3.10 <4]", transitive_headers=True)
        self.requires("simdjson/[>=3.0 <4]", transitive_headers=True, transitive_libs=True)
        self.requires("libcurl/[>=7.68 <9]", transitive_headers=True, transitive_libs=True)
        self.requires("openssl/[>=1.1 <4]", transitive_headers=True, transitive_libs=True)

    def package_id(self):
        self.info.clear()

    def validate(self):
        check_min_cppstd(self, 17)

    def build(self):
        pass

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        copy(self, "*.hpp", os.path.join(self.source_folder, "include"),
             os.path.join(self.package_folder, "include"))

    def package_info(self):
        # The same names as the CMake install, so consumers write the same two lines.
        self.cpp_info.set_property("cmake_file_name", "mgnify")
        self.cpp_info.set_property("cmake_target_name", "mgnify::mgnify")
        self.cpp_info.set_property("pkg_config_name", "mgnify")
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        if self.settings.os in ["Linux", "FreeBSD"]:
            self.cpp_info.system_libs = ["pthread"]
