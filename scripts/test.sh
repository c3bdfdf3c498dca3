#!/usr/bin/env bash
# Builds everything with warnings as errors and runs every test.
#   ./scripts/test.sh              g++, Debug
#   ./scripts/test.sh --sanitize   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   ./scripts/test.sh --clang      clang++ instead of g++
# MGNIFY_FIXTURES_DIR (default ../shared/fixtures when present) enables the conformance tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

sanitize=""
compiler="g++"
build="build/test"
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize="address,undefined"; build="build/test-sanitize" ;;
    --clang) compiler="clang++"; build="${build}-clang" ;;
    *) echo "usage: $0 [--sanitize] [--clang]" >&2; exit 2 ;;
  esac
done

./scripts/deps.sh

fixtures="${MGNIFY_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
  fixtures="$(cd "$root/../shared/fixtures" && pwd)"
fi

cmake -S . -B "$build" \
  -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_COMPILER="$compiler" \
  -DMGNIFY_WARNINGS_AS_ERRORS=ON \
  -DMGNIFY_SANITIZE="$sanitize" \
  -DMGNIFY_FIXTURES_DIR="$fixtures"
cmake --build "$build" -j "$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
