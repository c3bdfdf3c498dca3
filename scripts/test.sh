#!/usr/bin/env bash
# Builds everything with warnings as errors and runs every test. The SDK's bodies are
# compiled once, into the library of MGNIFY_SEPARATE_COMPILATION, which the tests, the
# mock, the CLI and the examples (run against the mock by the test examples.against_mock)
# link; the header-only default is proven in the same build by the header-only package
# tests, which install, build and run it.
#   ./scripts/test.sh               clang++, Debug
#   ./scripts/test.sh --prove-header-only
#                                   also what proves the header-only default without running
#                                   anything, as CI builds it: the per-header self-containment
#                                   check (minutes of compile), and the examples header-only
#   ./scripts/test.sh --sanitize    the same under AddressSanitizer + UndefinedBehaviorSanitizer
#                                   (header-only examples as a user builds them, warnings only)
#   ./scripts/test.sh --gcc         g++ instead of clang++, which generates this -O0 code in
#                                   about half g++'s time (CI checks g++'s warnings on every
#                                   unit with scripts/gcc_check.sh); --clang, the default, is
#                                   still accepted
#   ./scripts/test.sh --header-only everything header-only instead (every test program then
#                                   compiles the SDK's bodies again; slower, not needed by CI),
#                                   the per-header check included
#   ./scripts/test.sh --build-only  build, run nothing (CI builds once, then runs the demo from it)
# --separate, the default now, is still accepted.
# MGNIFY_FIXTURES_DIR (default ../shared/fixtures when present) enables the conformance tests;
# without it they report Skipped, and under CI=true a skipped test fails the run.
# MGNIFY_TEST_JOBS: ctest's parallel jobs (default twice the cores).
# The Slurm, Snakemake and shard tests (label beside_build) start as soon as the CLI and
# the mock are built and run while the rest compiles; the log of every test is
# $build/ctest.log, and the last line sums the runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

sanitize=""
sanitize_examples=ON
compiler="clang++"
build="build/test"
build_only=0
separate=ON
prove_header_only=OFF
for arg in "$@"; do
  case "$arg" in
    --prove-header-only) prove_header_only=ON ;;
    --sanitize) sanitize="address,undefined" ;;
    --clang) compiler="clang++" ;;
    --gcc) compiler="g++" ;;
    --separate) separate=ON ;;
    --header-only) separate=OFF ;;
    --build-only) build_only=1 ;;
    *) echo "usage: $0 [--sanitize] [--gcc] [--header-only] [--prove-header-only] [--build-only]" >&2; exit 2 ;;
  esac
done

# A build alone needs only what compiles; the readers and engines the tests run are
# installed before any test runs (CI installs them while it builds).
if [ "$build_only" = 1 ]; then ./scripts/deps.sh build; else ./scripts/deps.sh test; fi

if [ -n "$sanitize" ]; then build="${build}-sanitize"; fi
if [ "$compiler" = g++ ]; then build="${build}-gcc"; fi
if [ "$separate" = OFF ]; then build="${build}-header-only"; prove_header_only=ON; fi
# Sanitized, header-only examples are built as a user builds them, with the warnings only:
# each compiles the SDK's bodies again, 1.6 times as long under the sanitizers. Linked to
# the compiled library they compile only their own code, and are sanitized like it.
if [ -n "$sanitize" ] && [ "$prove_header_only" = ON ]; then sanitize_examples=OFF; fi

fixtures="${MGNIFY_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
  fixtures="$(cd "$root/../shared/fixtures" && pwd)"
fi

started=$SECONDS
# -g1: line tables and function names, enough for symbolized sanitizer stacks and
# backtraces, without the type and variable records that make up most of the
# compile and link time of these -O0 builds. A debugger wants a tree of its own with -g.
./scripts/configure.sh "$build" --lld --mimalloc \
  -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DCMAKE_CXX_COMPILER="$compiler" \
  -DMGNIFY_WARNINGS_AS_ERRORS=ON \
  -DMGNIFY_SANITIZE="$sanitize" \
  -DMGNIFY_SANITIZE_EXAMPLES="$sanitize_examples" \
  -DMGNIFY_SEPARATE_COMPILATION="$separate" \
  -DMGNIFY_HEADER_CHECK="$prove_header_only" \
  -DMGNIFY_EXAMPLES_HEADER_ONLY="$prove_header_only" \
  -DMGNIFY_FIXTURES_DIR="$fixtures"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log="$build/ctest.log"
beside_log="$build/ctest-beside-build.log"
rm -f "$log" "$beside_log"
beside_pid=""
stop_beside_build() {
  # These tests run in their own process group: a failed build or test run stops them,
  # and each test's own exit trap stops its Slurm daemons and mock.
  if [ -n "$beside_pid" ] && kill -0 "$beside_pid" 2>/dev/null; then
    kill -TERM -- "-$beside_pid" 2>/dev/null || true
    wait "$beside_pid" 2>/dev/null || true
  fi
}
trap stop_beside_build EXIT
# Objects compiled so far: ninja logs a line per step, and a build that compiles nothing
# still logs its glob check.
objects_compiled() { grep -c $'\\.o\t' "$build/.ninja_log" 2>/dev/null || true; }
objects_before_build=$(objects_compiled)
if [ "$build_only" = 0 ]; then
  # The Slurm and Snakemake chains and the shard tests take minutes at a tenth of a core
  # and need only the CLI and the mock: they run while everything else compiles, the two
  # chains (one resource lock each, tests/CMakeLists.txt) and beside them the shard tests.
  cmake --build "$build" -j "$(nproc)" --target mgnify-cli mgnify-mock
  setsid ctest --test-dir "$build" --output-on-failure -L '^beside_build$' -j 3 >"$beside_log" 2>&1 &
  beside_pid=$!
  echo "test.sh: the Slurm, Snakemake and shard tests started after $((SECONDS - started)) s ($beside_log)"
fi
cmake --build "$build" -j "$(nproc)"
echo "test.sh: $build built in $((SECONDS - started)) s"
# What each part of the tree costs to compile, when this run compiled anything: a part
# that grows shows here before it shows in the time of every run.
if [ "$(objects_compiled)" != "$objects_before_build" ]; then
  python3 bench/build_weight.py "$build" || echo "test.sh: bench/build_weight.py failed (above)" >&2
fi
if [ "$build_only" = 1 ]; then exit 0; fi

status=0
# Twice as many jobs as cores (MGNIFY_TEST_JOBS overrides): most tests wait on the mock,
# sleeps or sockets. The ones that compile or keep a core busy count as two jobs
# (tests/CMakeLists.txt).
ctest --test-dir "$build" --output-on-failure -LE '^(beside_build|run_alone)$' \
  -j "${MGNIFY_TEST_JOBS:-$(($(nproc) * 2))}" 2>&1 | tee "$log" || status=1
tests_done=$SECONDS
wait "$beside_pid" || status=1
beside_pid=""
echo "test.sh: waited $((SECONDS - tests_done)) s for the Slurm, Snakemake and shard tests" | tee -a "$log"
tee -a "$log" <"$beside_log"
# Alone: it measures a rate budget that a busy machine could keep it from reaching.
ctest --test-dir "$build" --output-on-failure -L '^run_alone$' 2>&1 | tee -a "$log" || status=1

# Every run's "N% tests passed, F tests failed out of T", summed.
read -r total failed < <(awk '/tests failed out of/ {f += $4; t += $NF} END {print t + 0, f + 0}' "$log")
skipped=$(grep -c '\*\*\*Skipped' "$log" || true)
echo "test.sh: $((total - failed)) of $total tests passed, $failed failed, $skipped skipped, $((SECONDS - started)) s from the configure on"
if [ "$status" != 0 ] || [ "$failed" != 0 ]; then exit 1; fi
if [ "${CI:-}" = true ] && [ "$skipped" != 0 ]; then
  echo "test.sh: CI requires every test to run, and some reported Skipped (is ../shared/fixtures there?)" >&2
  exit 1
fi
