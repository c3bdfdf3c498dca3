#!/usr/bin/env python3
"""The facts the CMake build, the pkg-config file, the vcpkg port and the Conan
recipe each state must agree: version, minimum libcurl, libcurl features, and
no language-standard flag forced on consumers."""
import json
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
problems = []


def read(path):
    return (root / path).read_text(encoding="utf-8")


def numbers(version):
    return tuple(int(x) for x in version.split("."))


def same_version(a, b):
    a, b = list(numbers(a)), list(numbers(b))
    width = max(len(a), len(b))
    return a + [0] * (width - len(a)) == b + [0] * (width - len(b))


cmake = read("CMakeLists.txt")
curl_min = re.search(r"set\(MGNIFY_MIN_CURL_VERSION ([0-9.]+)\)", cmake).group(1)
version = re.search(r'MGNIFY_VERSION_STRING "([0-9.]+)"', read("include/mgnify/version.hpp")).group(1)

port = json.loads(read("ports/mgnify-cpp/vcpkg.json"))
if port.get("version-semver") != version:
    problems.append(f"vcpkg.json version {port.get('version-semver')} is not {version}")
curl = next(d for d in port["dependencies"] if isinstance(d, dict) and d.get("name") == "curl")
if not same_version(curl.get("version>=", "0"), curl_min):
    problems.append(f"vcpkg.json curl version>= {curl.get('version>=')} is not {curl_min}")
for feature in ("ssl", "http2", "brotli", "zstd"):
    if feature not in curl.get("features", []):
        problems.append(f"vcpkg.json does not request curl feature '{feature}'")

conan = read("conan/conanfile.py")
if f'version = "{version}"' not in conan:
    problems.append(f"conanfile.py version is not {version}")
conan_curl = re.search(r'"libcurl/\[>=([0-9.]+)', conan)
if not conan_curl or not same_version(conan_curl.group(1), curl_min):
    problems.append(f"conanfile.py libcurl minimum is not {curl_min}")
for option in ("with_nghttp2", "with_brotli", "with_zstd"):
    if f'"libcurl/*:{option}": True' not in conan:
        problems.append(f"conanfile.py does not set libcurl {option}")

pc = read("cmake/mgnify.pc.in")
if "-std=" in pc:
    problems.append("mgnify.pc.in forces a -std= flag on consumers")
if "libcurl >= @MGNIFY_MIN_CURL_VERSION@" not in pc:
    problems.append("mgnify.pc.in does not require the minimum libcurl")

for p in problems:
    print("package metadata:", p)
print(f"package metadata: {len(problems)} problem(s); version {version}, libcurl >= {curl_min}")
sys.exit(1 if problems else 0)
