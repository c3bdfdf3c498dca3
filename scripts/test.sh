#!/usr/bin/env bash
# Builds everything with warnings as errors and runs every test. The SDK's bodies are
# compiled once, into the library of MGNIFY_SEPARATE_COMPILATION, which the tests, the
# mock and the CLI link; the header-only default is proven in the same build by the
# header self-containment check, the examples (built header-only and run against the
# mock by the test examples.against_mock) and the header-only package tests.
#   ./scripts/test.sh               g++, Debug
#   ./scripts/test.sh --sanitize    the same under AddressSanitizer + UndefinedBehaviorSanitizer
#                                   (the examples as a user builds them, warnings only: each
#                                   compiles the SDK's bodies again, 1.6 times as long sanitized)
#   ./scripts/test.sh --clang       clang++ instead of g++
#   ./scripts/test.sh --header-only everything header-only instead (every test program then
#                                   compiles the SDK's bodies again; slower, not needed by CI)
#   ./scripts/test.sh --build-only  build, run nothing (CI builds once, then runs the demo from it)
# --separate, the default now, is still accepted.
# MGNIFY_FIXTURES_DIR (default ../shared/fixtures when present) enables the conformance tests;
# without it they report Skipped, and under CI=true a skipped test fails the run.
# MGNIFY_TEST_JOBS: ctest's parallel jobs (default twice the cores, plus two).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

sanitize=""
sanitize_examples=ON
compiler="g++"
build="build/test"
build_only=0
separate=ON
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize="address,undefined"; sanitize_examples=OFF; build="build/test-sanitize" ;;
    --clang) compiler="clang++"; build="${build}-clang" ;;
    --separate) separate=ON ;;
    --header-only) separate=OFF ;;
    --build-only) build_only=1 ;;
    *) echo "usage: $0 [--sanitize] [--clang] [--header-only] [--build-only]" >&2; exit 2 ;;
  esac
done

./scripts/deps.sh

if [ "$separate" = OFF ]; then build="${build}-header-only"; fi

fixtures="${MGNIFY_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
  fixtures="$(cd "$root/../shared/fixtures" && pwd)"
fi

started=$SECONDS
# -g1: line tables and function names, enough for symbolized sanitizer stacks and
# backtraces, without the type and variable records that make up most of the
# compile and link time of these -O0 builds. A debugger wants a tree of its own with -g.
./scripts/configure.sh "$build" \
  -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DCMAKE_CXX_COMPILER="$compiler" \
  -DMGNIFY_WARNINGS_AS_ERRORS=ON \
  -DMGNIFY_SANITIZE="$sanitize" \
  -DMGNIFY_SANITIZE_EXAMPLES="$sanitize_examples" \
  -DMGNIFY_SEPARATE_COMPILATION="$separate" \
  -DMGNIFY_FIXTURES_DIR="$fixtures"
cmake --build "$build" -j "$(nproc)"
echo "test.sh: $build built in $((SECONDS - started)) s"
if [ "$build_only" = 1 ]; then exit 0; fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log="$build/ctest.log"
# Twice as many jobs as cores (MGNIFY_TEST_JOBS overrides): most tests wait on the mock,
# sleeps, Slurm or Snakemake. The ones that compile or keep a core busy count as two
# jobs (tests/CMakeLists.txt). Two more for the two chains of Slurm and Snakemake tests,
# which take minutes each at a tenth of a core (tests/CMakeLists.txt).
ctest --test-dir "$build" --output-on-failure -j "${MGNIFY_TEST_JOBS:-$(($(nproc) * 2 + 2))}" | tee "$log"
if [ "${CI:-}" = true ] && grep -q '\*\*\*Skipped' "$log"; then
  echo "test.sh: CI requires every test to run, and some reported Skipped (is ../shared/fixtures there?)" >&2
  exit 1
fi
