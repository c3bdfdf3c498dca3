#!/usr/bin/env bash
# Builds the libFuzzer binary with clang (ASan + UBSan) and runs each of its targets.
#   ./scripts/fuzz.sh [SECONDS_PER_TARGET]   a long run (default 60 s per target)
#   ./scripts/fuzz.sh --smoke                CI's run: replays the committed corpus and
#                                            regression inputs, then fuzzes 5 s per target
#   ./scripts/fuzz.sh --merge SECONDS        a long run whose new coverage is merged into
#                                            the committed corpus (fuzz/corpus/<target>.tar.gz)
# Every run starts from the committed corpus, the seeds written from the mock's own
# responses, and the regression inputs in fuzz/divergences/ (named after their target).
# Findings are written to build/fuzz/findings/<target>/ and fail the run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds=60
merge=0
case "${1:-}" in
  "") ;;
  --smoke) seconds=5 ;;
  --merge) merge=1; seconds="${2:?--merge needs SECONDS}" ;;
  *[!0-9]*) echo "usage: $0 [SECONDS | --smoke | --merge SECONDS]" >&2; exit 2 ;;
  *) seconds="$1" ;;
esac

./scripts/deps.sh build
build="build/fuzz"
# -g1 (line tables) is enough for symbolized findings; see scripts/test.sh.
./scripts/configure.sh "$build" --lld --mimalloc -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_CXX_COMPILER=clang++ \
  -DMGNIFY_BUILD_TESTS=ON -DMGNIFY_BUILD_EXAMPLES=OFF -DMGNIFY_BUILD_TOOL=OFF -DMGNIFY_BUILD_FUZZ=ON
cmake --build "$build" -j "$(nproc)" --target mgnify_fuzz mgnify_fuzz_seeds
# Every target is the one fuzz binary run under the target's name; run under its own
# name, it lists them.
targets=$("$build/fuzz/mgnify_fuzz")
for t in $targets; do ln -sfn mgnify_fuzz "$build/fuzz/$t"; done

seeds_root="$build/seeds"
rm -rf "$seeds_root"
"$build/fuzz/mgnify_fuzz_seeds" "$seeds_root"

# fuzz_target TARGET: replays and fuzzes one target; its report goes to stdout.
fuzz_target() {
  local t=$1
  # The committed corpus is one archive per target: ~1,000 small inputs each.
  archive="fuzz/corpus/$t.tar.gz"
  committed="$build/committed/$t"
  rm -rf "$committed"
  mkdir -p "$committed"
  if [ -f "$archive" ]; then tar -xzf "$archive" -C "$committed"; fi
  seeds="$seeds_root/$t"
  # fuzz/seeds.cpp names its folders after the targets; a name that differs would
  # leave a target without its seeds, silently.
  if [ ! -d "$seeds" ]; then
    echo "no seeds for $t: fuzz/seeds.cpp and fuzz/mgnify_fuzz.cpp name it differently"
    return 1
  fi
  # New inputs go to a scratch folder so that the committed corpus only changes through --merge.
  scratch="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$committed" "$scratch" "$findings"
  regressions=()
  name="${t#fuzz_}"
  if [ -f "fuzz/divergences/$name.json" ]; then regressions=("fuzz/divergences/$name.json"); fi
  echo "== $t: ${seconds}s; committed $(ls "$committed" | wc -l), seeds $(ls "$seeds" | wc -l), regressions ${#regressions[@]}"
  log="$build/$t.log"
  : >"$log"
  ok=1
  # Regression inputs alone first: libFuzzer runs files given by name and stops.
  if [ ${#regressions[@]} -gt 0 ] &&
     ! "$build/fuzz/$t" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" "${regressions[@]}" >>"$log" 2>&1; then
    ok=0
  fi
  # Loading the corpus folders runs every input in them before fuzzing starts.
  if [ $ok = 1 ] && ! "$build/fuzz/$t" "$scratch" "$committed" "$seeds" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 >>"$log" 2>&1; then
    ok=0
  fi
  if [ $ok = 0 ]; then
    echo "FINDING in $t (see $findings and $log)"
    tail -n 40 "$log"
    return 1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '
  echo
  if [ $merge = 1 ]; then
    before=$(ls "$committed" | wc -l)
    "$build/fuzz/$t" -merge=1 "$committed" "$scratch" "$seeds" >>"$log" 2>&1
    # Sorted names, fixed times and owners: the archive changes only when its inputs do.
    tar -C "$committed" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
      gzip -9n >"$archive"
    echo "   merged into $archive: $before -> $(ls "$committed" | wc -l) inputs"
  fi
}

# One target per core at a time: libFuzzer keeps one core busy, and -max_total_time
# is wall time, so each target still gets its seconds of fuzzing. Reports are printed
# in the targets' order once all have finished.
status=0
reports="$build/reports"
rm -rf "$reports"
mkdir -p "$reports"
for t in $targets; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  # A subshell each, under set -e as the script is: any failing step fails its target.
  (trap 'echo $? >"$reports/$t.status"' EXIT; fuzz_target "$t" >"$reports/$t.txt" 2>&1) &
done
wait
for t in $targets; do
  cat "$reports/$t.txt"
  if [ "$(cat "$reports/$t.status" 2>/dev/null)" != 0 ]; then status=1; fi
done
exit $status
