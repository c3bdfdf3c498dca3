#!/usr/bin/env bash
# Builds the benchmarks in Release, starts mgnify-mock on loopback (one
# instance with 0 ms and one with the chosen added latency, plus one with
# compression on for the transport check), runs every scenario for the SDK and
# its baselines, alternating them, and writes BENCHMARKS.md.
#
#   bench/run.sh [--quick] [--runs N] [--latency-ms N] [--threads N]
#                [--build-dir DIR] [--out FILE] [--before GIT-REF] [--scenarios LIST]
#
# --quick shrinks every scenario (and defaults to 2 runs) for iterating; the
# figures in BENCHMARKS.md come from a full run (at least 5 runs each).
# --before REF also builds the SDK bench program of an earlier commit (in a
# temporary git worktree) and runs it alongside the current one in scenarios
# 2, 3 and 5, so before/after figures come from the same machine and run.
# --scenarios 2,3,5 runs a subset (for iterating; the table is partial).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/bench"
out="$root/BENCHMARKS.md"
runs=""
latency=20
threads=64
quick=()
before=""
scenarios=""

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --runs) runs="$2"; shift ;;
    --latency-ms) latency="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    --before) before="$2"; shift ;;
    --scenarios) scenarios="$2"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$runs" ]; then
  if [ ${#quick[@]} -gt 0 ]; then runs=2; else runs=5; fi
fi
if [ ${#quick[@]} -eq 0 ] && [ -z "$scenarios" ] && [ "$runs" -lt 5 ]; then
  echo "a full run needs at least 5 runs per contender" >&2
  exit 2
fi
# The mock must serve more requests at once than the largest concurrency under test (16).
if [ "$threads" -le 16 ]; then
  echo "--threads must exceed 16, the largest concurrency under test" >&2
  exit 2
fi

# Dependencies: the SDK's own, then the baselines' tools.
"$root/scripts/deps.sh"
need=()
/usr/bin/python3 -c 'import requests' 2>/dev/null || need+=(python3-requests)
command -v wrk >/dev/null || need+=(wrk)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${need[@]}"
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DMGNIFY_BUILD_BENCH=ON \
  -DMGNIFY_BUILD_TESTS=OFF -DMGNIFY_BUILD_MOCK=ON -DMGNIFY_BUILD_EXAMPLES=OFF -DMGNIFY_BUILD_TOOL=OFF >/dev/null
cmake --build "$build" -j2 --target mgnify-mock mgnify_sdk_bench mgnify_baseline_curl

work="$(mktemp -d)"
pids=()
before_src=""
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$before_src" ]; then git -C "$root" worktree remove --force "$before_src" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

extra=()
if [ -n "$before" ]; then
  # A fixed path, so that the build dir's CMake cache stays valid from run to run.
  before_src="$build/before-src"
  rm -rf "$before_src"
  git -C "$root" worktree prune
  git -C "$root" worktree add --detach "$before_src" "$before" >/dev/null
  cmake -S "$before_src" -B "$build/before" -DCMAKE_BUILD_TYPE=Release -DMGNIFY_BUILD_BENCH=ON \
    -DMGNIFY_BUILD_TESTS=OFF -DMGNIFY_BUILD_EXAMPLES=OFF -DMGNIFY_BUILD_TOOL=OFF >/dev/null
  cmake --build "$build/before" -j2 --target mgnify_sdk_bench
  extra+=(--before-build "$build/before" --before-label "$(git -C "$root" rev-parse --short "$before")")
fi
[ -n "$scenarios" ] && extra+=(--scenarios "$scenarios")

# Starts a mock on an ephemeral port and sets $origin to its origin. Not run
# in a $(...) subshell, so that its pid reaches the cleanup list.
start_mock() {
  local name="$1"; shift
  "$build/tools/mock/mgnify-mock" --port 0 --threads "$threads" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  for _ in $(seq 1 100); do
    if grep -q '^v2 ' "$work/$name.out" 2>/dev/null; then
      origin="$(sed -n 's#^v1 \(http://[^/]*\)/.*#\1#p' "$work/$name.out")"
      return 0
    fi
    sleep 0.1
  done
  echo "mock $name did not start: $(cat "$work/$name.err")" >&2
  return 1
}

start_mock m0 --latency-ms 0 --no-compression; mock0="$origin"
start_mock m20 --latency-ms "$latency" --no-compression; mock20="$origin"
start_mock mgz --latency-ms 0; mockgz="$origin"

# Warm-up, untimed: the v1 mock renders each page once and then serves it
# from memory ("pre-rendered"), so no contender pays for the first rendering.
# The v2 mock renders each analysis on first use too (about 1.3 s of its CPU
# for the 10,000 of scenario 3), which once landed on whichever contender ran first.
for origin in "$mock0" "$mock20"; do
  "$build/bench/mgnify_baseline_curl" linkwalk --v1 "$origin/metagenomics/api/v1" --page-size 100 >/dev/null
  "$build/bench/mgnify_baseline_curl" counted --v2 "$origin/metagenomics/api/v2" --page-size 100 >/dev/null
done
"$build/bench/mgnify_sdk_bench" memory --v1 "$mock0/metagenomics/api/v1" --items 12000 >/dev/null

/usr/bin/python3 "$root/bench/harness.py" --build "$build" --mock0 "$mock0" --mock20 "$mock20" \
  --mockgz "$mockgz" --latency "$latency" --runs "$runs" --out "$out" --workdir "$work" \
  --mock-threads "$threads" "${quick[@]}" "${extra[@]}"
echo "wrote $out"
