#!/usr/bin/env bash
# Issue 50's measurement of the Snakemake workflow: three studies of the mock
# (20 ms added latency), 4 shards, --cores 2, one budget, run to the end by the
# workflow of this tree and by the workflow of BEFORE (a commit), each in a
# fresh folder with the same CLI: wall time, requests the mock saw (API pages
# and files), API URLs requested more than once, mean requests per second.
# BEFORE's Snakefile copied the shard's result manifest from its old place in
# DATA; that one line is adapted to the CLI's result logs (`--results
# {output}`), nothing else. Prints Markdown rows for BENCHMARKS.md.
# Usage: bench/workflow_bench.sh MGNIFY MOCK [BEFORE=de39328] [RATE=20]
MGNIFY=$(realpath "$1") MOCK=$(realpath "$2")
BEFORE=${3:-de39328} RATE=${4:-20}
SRC="$(cd "$(dirname "$0")/.." && pwd)"
source "$SRC/tests/cluster/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

start_mock 20
cd "$WORK"
studies="$("$MGNIFY" --rate-limit 0 --format tsv --columns accession --max 3 v2 studies list \
  --lineage root:Engineered:Wastewater --pipeline V6 | tail -n +2 | paste -sd, -)"
[ "$(echo "$studies" | tr ',' '\n' | wc -l)" -eq 3 ] || fail "not three studies: $studies"

mkdir -p before/workflow
git -C "$SRC" show "$BEFORE:workflows/snakemake/Snakefile" |
  sed 's#"cp {DATA}/.mgnify-results/shard-{wildcards.i}-of-{SHARDS}.tsv {output}"#"true"#;
       s#"--total-rate {TOTAL_RATE} --dir {DATA} > /dev/null \&\& "#"--total-rate {TOTAL_RATE} --dir {DATA} --results {output} > /dev/null \&\& "#' \
    >before/workflow/Snakefile
grep -q -- '--results {output}' before/workflow/Snakefile || fail "could not adapt $BEFORE's Snakefile"
git -C "$SRC" show "$BEFORE:workflows/snakemake/config.yaml" >before/config.yaml

# measure NAME SNAKEFILE CONFIG ARGS...: one run in a fresh folder NAME/run.
measure() {
  local name=$1 snakefile=$2 configfile=$3
  shift 3
  mkdir -p "$name/run"
  local from start wall
  from=$(($(wc -l <requests.log) + 1))
  start=$(date +%s.%N)
  (cd "$name/run" && timeout 1800 snakemake -s "$snakefile" --configfile "$configfile" --cores 2 \
    --config mgnify="$MGNIFY" total_rate="$RATE" "studies=[$studies]" "$@" >snakemake.log 2>&1) ||
    fail "$name: snakemake failed: $(tail -20 "$name/run/snakemake.log")"
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  requests_since "$from" | python3 -c '
import collections, sys
name, wall = sys.argv[1], float(sys.argv[2])
rows = [l.rstrip("\n").split("\t") for l in sys.stdin if l.strip()]
api = [r[2] for r in rows if not r[2].startswith("/pub/")]
files = len(rows) - len(api)
repeated = sum(n - 1 for n in collections.Counter(api).values() if n > 1)
print(f"| {name} | {wall:.1f} s | {len(rows)} | {len(api)} | {files} | {repeated} | {len(rows) / wall:.1f} req/s |")
' "$name" "$wall"
}

echo "| 3 studies ($studies), 4 shards, --cores 2, budget $RATE req/s, 20 ms | wall | requests | API | files | API requests repeated | mean rate |"
echo "|---|---|---|---|---|---|---|"
measure "before ($BEFORE)" "$WORK/before/workflow/Snakefile" "$WORK/before/config.yaml" --resources api_slots=4
measure "after" "$SRC/workflows/snakemake/workflow/Snakefile" "$SRC/workflows/snakemake/config/config.yaml"
