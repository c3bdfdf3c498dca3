#!/usr/bin/env python3
"""The facts the CMake build, the pkg-config file, the vcpkg port and the Conan
recipe each state must agree: version, minimum libcurl, libcurl features, no
language-standard flag forced on consumers, and how each builds the mgnify tool
(vcpkg feature `tool`, Conan option `tool`, CMake option MGNIFY_BUILD_TOOL)."""
import json
import re
import sys
import types
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

# The vcpkg `tool` feature: the tool's dependencies, the CMake option, the binary
# moved to tools/, the completion scripts and man page kept.
if not re.search(r"option\(MGNIFY_BUILD_TOOL ", cmake):
    problems.append("CMakeLists.txt has no MGNIFY_BUILD_TOOL option")
tool_feature = port.get("features", {}).get("tool")
if tool_feature is None:
    problems.append("vcpkg.json has no 'tool' feature")
else:
    names = {d if isinstance(d, str) else d.get("name") for d in tool_feature.get("dependencies", [])}
    for dep in ("cli11", "zlib"):
        if dep not in names:
            problems.append(f"vcpkg.json feature 'tool' does not depend on {dep}")
    base = {d if isinstance(d, str) else d.get("name") for d in port["dependencies"]}
    for dep in ("cli11", "zlib"):
        if dep in base:
            problems.append(f"vcpkg.json needs {dep} without the 'tool' feature")
portfile = read("ports/mgnify-cpp/portfile.cmake")
if not re.search(r"vcpkg_check_features\([^)]*\btool\s+MGNIFY_BUILD_TOOL\b", portfile):
    problems.append("portfile.cmake does not map feature 'tool' to MGNIFY_BUILD_TOOL")
if "${FEATURE_OPTIONS}" not in portfile:
    problems.append("portfile.cmake does not pass the feature options to CMake")
if not re.search(r"vcpkg_copy_tools\(TOOL_NAMES mgnify\b", portfile):
    problems.append("portfile.cmake does not copy the mgnify tool")
for installed in ("completions/mgnify", "site-functions/_mgnify", "man1/mgnify.1"):
    if installed not in portfile:
        problems.append(f"portfile.cmake drops the tool's {installed}")
# A cross build installs no completions or man page (the tool cannot run to
# write them), so the portfile must not demand them.
if not re.search(r'if\(EXISTS "\$\{share\}/\$\{installed\}"\)', portfile):
    problems.append("portfile.cmake installs the completions without checking they were built")


def conan_recipe_class(source):
    """The recipe's class, loaded over stand-ins for the Conan API (Conan itself
    is not needed to check what the recipe asks for)."""

    class ConanFile:
        pass

    def noop(*args, **kwargs):
        return None

    modules = {
        "conan": {"ConanFile": ConanFile},
        "conan.tools": {},
        "conan.tools.build": {"check_min_cppstd": noop, "can_run": noop},
        "conan.tools.cmake": {"CMake": noop, "CMakeDeps": noop, "CMakeToolchain": noop,
                              "cmake_layout": noop},
        "conan.tools.files": {"copy": noop, "rmdir": noop},
        "conan.tools.layout": {"basic_layout": noop},
    }
    saved = {name: sys.modules.get(name) for name in modules}
    try:
        for name, attributes in modules.items():
            module = types.ModuleType(name)
            module.__dict__.update(attributes)
            sys.modules[name] = module
        namespace = {}
        exec(compile(source, "conan/conanfile.py", "exec"), namespace)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return next(v for v in namespace.values()
                if isinstance(v, type) and issubclass(v, ConanFile) and v is not ConanFile)


def conan_with_tool(recipe_class, tool):
    """What the recipe asks for with option tool=`tool`: requirements, package
    type, whether package_id clears the settings, and the CMake variables."""
    recipe = recipe_class()
    recipe.options = types.SimpleNamespace(tool=tool)
    recipe.settings = types.SimpleNamespace(os="Linux")
    requires = []
    recipe.requires = lambda ref, **traits: requires.append(ref.split("/")[0])
    cleared = []
    recipe.info = types.SimpleNamespace(options=types.SimpleNamespace(tool=tool),
                                        clear=lambda: cleared.append(True))
    if hasattr(recipe, "configure"):
        recipe.configure()
    recipe.requirements()
    recipe.package_id()
    return requires, recipe.package_type, bool(cleared)


try:
    recipe_class = conan_recipe_class(conan)
except Exception as error:  # a recipe that does not load is a problem to report
    problems.append(f"conanfile.py does not load: {error!r}")
    recipe_class = None
if recipe_class is not None:
    if getattr(recipe_class, "options", {}).get("tool") != [True, False]:
        problems.append("conanfile.py has no boolean option 'tool'")
    if getattr(recipe_class, "default_options", {}).get("tool") is not False:
        problems.append("conanfile.py option 'tool' is not False by default")
    off_requires, off_type, off_cleared = conan_with_tool(recipe_class, False)
    on_requires, on_type, on_cleared = conan_with_tool(recipe_class, True)
    for dep in ("cli11", "zlib"):
        if dep in off_requires:
            problems.append(f"conanfile.py requires {dep} without the tool")
        if dep not in on_requires:
            problems.append(f"conanfile.py does not require {dep} with the tool")
    if off_type != "header-library" or not off_cleared:
        problems.append("conanfile.py without the tool is not a header-library with a cleared package_id")
    if on_type == "header-library" or on_cleared:
        problems.append("conanfile.py with the tool is still a header-library, or its package_id ignores the settings")
    if 'cache_variables["MGNIFY_BUILD_TOOL"] = True' not in conan:
        problems.append("conanfile.py does not build with MGNIFY_BUILD_TOOL")

pc = read("cmake/mgnify.pc.in")
if "-std=" in pc:
    problems.append("mgnify.pc.in forces a -std= flag on consumers")
if "libcurl >= @MGNIFY_MIN_CURL_VERSION@" not in pc:
    problems.append("mgnify.pc.in does not require the minimum libcurl")

for p in problems:
    print("package metadata:", p)
print(f"package metadata: {len(problems)} problem(s); version {version}, libcurl >= {curl_min}")
sys.exit(1 if problems else 0)
