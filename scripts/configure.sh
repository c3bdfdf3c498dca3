#!/usr/bin/env bash
# Configures a build tree quietly: ./scripts/configure.sh BUILD_DIR [--lld] [CMAKE_ARGS...]
# A new tree uses Ninja when it is installed; a tree configured earlier keeps
# its generator (CMake refuses to switch).
# --lld: programs and shared libraries link with lld (Debian lld, scripts/deps.sh build), in
# about a quarter of ld.bfd's time on the test, TSan and fuzz trees' programs of about 100 MB
# (gold, in binutils, warns on every ASan link). Users' builds keep the default linker.
set -euo pipefail
build="${1:?usage: $0 BUILD_DIR [--lld] [CMAKE_ARGS...]}"
shift
if [ "${1:-}" = --lld ]; then
  shift
  set -- -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld "$@"
fi
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" -B "$build" "${generator[@]}" "$@" >/dev/null
