#!/usr/bin/env bash
# Configures a build tree quietly: ./scripts/configure.sh BUILD_DIR [CMAKE_ARGS...]
# A new tree uses Ninja when it is installed; a tree configured earlier keeps
# its generator (CMake refuses to switch).
set -euo pipefail
build="${1:?usage: $0 BUILD_DIR [CMAKE_ARGS...]}"
shift
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" -B "$build" "${generator[@]}" "$@" >/dev/null
