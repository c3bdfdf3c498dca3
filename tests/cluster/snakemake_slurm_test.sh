#!/usr/bin/env bash
# The Snakemake workflow once through a real one-node Slurm cluster (started
# here and stopped by process id), with the profile of docs/cluster.md: every
# rule an sbatch job, the merged matrix (TSV and BIOM) written, every file
# verified, the mock never above the budget. Skipped (exit 77) with the reason
# when snakemake is missing or a Slurm daemon cannot start here.
# Usage: snakemake_slurm_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

start_slurm
start_mock 0
cd "$WORK"
from=$(($(wc -l <requests.log) + 1))
timeout 900 snakemake -s "$SRC/workflows/snakemake/Snakefile" \
  --configfile "$SRC/workflows/snakemake/config.yaml" \
  --profile "$SRC/workflows/snakemake/profiles/slurm" \
  --config mgnify="$MGNIFY" total_rate=40 >snakemake.log 2>&1 ||
  fail "snakemake failed: $(tail -30 snakemake.log; cat logs/slurm/*.out 2>/dev/null | tail -20)"
jobs=$(ls logs/slurm/ | wc -l)
# studies, manifest, 4 shards, verify, abundance.
[ "$jobs" -ge 8 ] || fail "only $jobs jobs went through Slurm"
check_rate 40 4 "$from" || fail "the workflow went over the budget"
for f in results/abundance.tsv results/abundance.biom; do [ -s "$f" ] || fail "no $f"; done
"$MGNIFY" verify --manifest results/manifest.tsv --dir data >/dev/null || fail "verify failed"
echo "$jobs Slurm jobs"
echo PASS
