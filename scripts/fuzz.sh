#!/usr/bin/env bash
# Builds every libFuzzer target with clang (ASan + UBSan) and runs each for a
# bounded time on its seed corpus.
#   ./scripts/fuzz.sh [SECONDS_PER_TARGET]     default 60
# Findings are written to build/fuzz/findings/<target>/ and fail the run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
./scripts/deps.sh
build="build/fuzz"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DMGNIFY_BUILD_TESTS=ON -DMGNIFY_BUILD_EXAMPLES=OFF -DMGNIFY_BUILD_FUZZ=ON >/dev/null
targets=$(cd fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
cmake --build "$build" -j "$(nproc)" --target $targets mgnify_fuzz_seeds

# Seed corpora come from the mock's own responses (and the error shapes).
corpus_root="$build/corpus"
rm -rf "$corpus_root"
"$build/fuzz/mgnify_fuzz_seeds" "$corpus_root"

status=0
for t in $targets; do
  corpus="$corpus_root/$t"
  findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  echo "== $t: ${seconds}s, seeds: $(ls "$corpus" | wc -l)"
  if ! "$build/fuzz/$t" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$findings/" -print_final_stats=1 2>"$build/$t.log"; then
    echo "FINDING in $t (see $findings and $build/$t.log)"
    tail -n 40 "$build/$t.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$t.log" | tr '\n' ' '
    echo " corpus: $(ls "$corpus" | wc -l) files"
  fi
done
exit $status
