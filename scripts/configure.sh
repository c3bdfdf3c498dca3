#!/usr/bin/env bash
# Configures a build tree quietly:
#   ./scripts/configure.sh BUILD_DIR [--lld] [--mimalloc] [CMAKE_ARGS...]
# A new tree uses Ninja when it is installed; a tree configured earlier keeps
# its generator (CMake refuses to switch).
# --lld: programs and shared libraries link with lld (Debian lld, scripts/deps.sh build), in
# about a quarter of ld.bfd's time on the test, TSan and fuzz trees' programs of about 100 MB
# (gold, in binutils, warns on every ASan link). Users' builds keep the default linker.
# --mimalloc: the compiler and the linker run with mimalloc (Debian libmimalloc2.0, scripts/
# deps.sh build) in 2 MB pages (MIMALLOC_LARGE_OS_PAGES): clang++ works over a heap of
# 0.5-2 GB, which in 4 KB pages costs a TLB miss and a page fault for every new page. The
# same units compile in about four fifths of the CPU time (bench/compiler_malloc.py;
# docs/maintainers.md, "Build speed"). g++ gains nothing from it, as it keeps its own heap, so
# the option applies only where -DCMAKE_CXX_COMPILER names clang++. Only the compile and link
# commands get it: the programs the build and the tests run keep their own allocator, as the
# sanitizers require. Without the library the tree is configured as without the option.
set -euo pipefail
build="${1:?usage: $0 BUILD_DIR [--lld] [--mimalloc] [CMAKE_ARGS...]}"
shift
options=()
want_mimalloc=0
while [ $# -gt 0 ]; do
  case "$1" in
    --lld) options+=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld) ;;
    --mimalloc) want_mimalloc=1 ;;
    *) break ;;
  esac
  shift
done
compiler=""
for arg in "$@"; do
  case "$arg" in -DCMAKE_CXX_COMPILER=*) compiler="${arg#*=}" ;; esac
done
if [ "$want_mimalloc" = 1 ] && [[ "$compiler" == *clang++ ]]; then
  # awk reads to the end: leaving early would stop ldconfig with SIGPIPE, which pipefail
  # makes this script's exit status.
  mimalloc="$(/sbin/ldconfig -p | awk '$1 == "libmimalloc.so.2" && !found { print $NF; found = 1 }')"
  if [ -n "$mimalloc" ]; then
    launcher="env;LD_PRELOAD=$mimalloc;MIMALLOC_LARGE_OS_PAGES=1"
    options+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_LINKER_LAUNCHER="$launcher")
  else
    echo "configure.sh: libmimalloc.so.2 is not installed (scripts/deps.sh build); $build compiles without it" >&2
  fi
fi
set -- "${options[@]}" "$@"
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" -B "$build" "${generator[@]}" "$@" >/dev/null
