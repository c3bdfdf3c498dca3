#!/usr/bin/env bash
# Builds the concurrency tests under ThreadSanitizer and runs them:
#   - tests/faults/concurrency_test.cpp: get_many with faults, read-ahead and
#     counted walks (also abandoned mid-walk), one rate limiter shared by
#     several threads, one client shared by several threads while its token
#     is refreshed;
#   - tests/faults/walk_*_test.cpp, cancel_test.cpp: counted walks whose pages
#     do not fit, and walks, batches and downloads cancelled while the server hangs;
#   - tests/faults/pacing_test.cpp: 8 threads slowing down together after 429s;
#   - the core tests of the executor, Paged read-ahead/counted mode and the
#     rate limiter;
#   - RawJson read from several threads at once (lazy parse published once).
#
#   ./scripts/tsan.sh            g++
#   ./scripts/tsan.sh --clang    clang++ (as CI runs it); then every core and proteins
#                                test runs too
# The SDK's bodies are compiled once, into the library of MGNIFY_SEPARATE_COMPILATION,
# not again in each test program.
# Any race report fails the run (halt_on_error).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

compiler="g++"
build="build/tsan"
whole_suites=0
for arg in "$@"; do
  case "$arg" in
    --clang) compiler="clang++"; build="build/tsan-clang"; whole_suites=1 ;;
    *) echo "usage: $0 [--clang]" >&2; exit 2 ;;
  esac
done

# The fixture tests of the suites run here too, as in scripts/test.sh (without the
# fixtures they report Skipped).
fixtures="${MGNIFY_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
  fixtures="$(cd "$root/../shared/fixtures" && pwd)"
fi
# -g1 (line tables) is enough for the race reports' stacks; see scripts/test.sh.
./scripts/configure.sh "$build" --lld --mimalloc \
  -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DCMAKE_CXX_COMPILER="$compiler" \
  -DMGNIFY_BUILD_EXAMPLES=OFF \
  -DMGNIFY_BUILD_TOOL=OFF \
  -DMGNIFY_WARNINGS_AS_ERRORS=ON \
  -DMGNIFY_SEPARATE_COMPILATION=ON \
  -DMGNIFY_SANITIZE=thread \
  -DMGNIFY_FIXTURES_DIR="$fixtures"
cmake --build "$build" -j "$(nproc)" --target mgnify_faults_tests mgnify_core_tests mgnify_proteins_tests

export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:exitcode=66:suppressions=$root/scripts/tsan.supp"
# name|program|test spec (empty: every test of the program). With --clang the whole core
# and proteins suites run, which hold their concurrency tests.
suites=("faults: [concurrency], [walks], [cancel], [pacing]|mgnify_faults_tests|[concurrency],[walks],[cancel],[pacing]")
if [ "$whole_suites" = 1 ]; then
  suites+=("clang++: every core test|mgnify_core_tests|" "clang++: every proteins test|mgnify_proteins_tests|")
else
  suites+=("core: executor, Paged read-ahead, counted and predicted modes, rate limiter|mgnify_core_tests|[executor],[readahead],[counted],[predicted],[rate]"
           "proteins: RawJson read by several threads|mgnify_proteins_tests|[raw-threads]")
fi
# The suites run side by side: most of their time is spent waiting on sockets, sleeps and
# hung servers, not on the two cores. Each one's report is printed once all have ended.
logs="$build/tsan-logs"
rm -rf "$logs"
mkdir -p "$logs"
pids=()
for i in "${!suites[@]}"; do
  IFS='|' read -r _ program spec <<<"${suites[$i]}"
  args=()
  if [ -n "$spec" ]; then args=("$spec"); fi
  "$build/tests/$program" "${args[@]}" >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!suites[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  echo "== ${suites[$i]%%|*} (exit $status)"
  cat "$logs/$i.log"
  if [ "$status" -ne 0 ]; then failed=1; fi
done
if [ "$failed" -ne 0 ]; then
  echo "ThreadSanitizer: a suite failed or reported a race (above)" >&2
  exit 1
fi
# As in scripts/test.sh: in CI every test must run (tests/skip.hpp's marker).
if [ "${CI:-}" = true ] && grep -l "MGNIFY_TEST_SKIPPED: " "$logs"/*.log; then
  echo "ThreadSanitizer: CI requires every test to run, and the suites above skipped some" >&2
  exit 1
fi
echo "ThreadSanitizer: no race reported"
