#!/usr/bin/env bash
# The fault of docs/cluster.md (Resuming) through the Snakemake workflow: the
# mock sends files slowly, one download shard's process is killed (SIGKILL)
# while it holds a half-written .part file, the workflow fails, and the rerun
# of the same command fetches only that shard's remaining files: the partial
# one resumed (never kept as complete), each file the shard had not finished
# once, a finished one the manifest cannot verify only when the killed shard's
# result manifest (a row appended per finished file) has no row for it, and
# no file of the other shard and no other file the killed shard had finished.
# Usage: snakemake_resume_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

# 2,000 bytes per second: a file of the study (about 500 bytes) takes a
# quarter of a second, so a .part file is on disk most of the time.
MOCK_FILE_RATE=2000 start_mock 0
cd "$WORK"
run_workflow() {
  timeout 600 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config/config.yaml" --cores 2 \
    --config mgnify="$MGNIFY" total_rate=80 shards=2 'studies=[MGYS00000002]' "$@"
}
run_workflow >first.log 2>&1 &
workflow=$!
PIDS+=("$workflow")

found="$(find_victim "$workflow")" || true
[ -n "$found" ] || fail "no shard was seen mid-transfer in 60 s: $(tail -20 first.log)"
read -r victim part <<<"$found"
shard="$(tr '\0' '\n' <"/proc/$victim/cmdline" | grep -A1 -x -- --shard | tail -1)"
kill -9 "$victim"
wait "$workflow" && fail "the workflow succeeded although shard $shard was killed"
[ -s "$part" ] || fail "the partial file $part is gone after the kill"
partial="${part#"$WORK"/data/}"
partial="${partial%.part}"
complete_files data >before.txt
echo "shard $shard killed with $partial half written, $(wc -l <before.txt) files complete"
R="$(result_log data results/manifest.tsv "shard-${shard/\//-of-}")" || fail "the killed shard left no result log"
cp "$R" killed-results.tsv

mark=$(($(wc -l <requests.log) + 1))
run_workflow >again.log 2>&1 || fail "the rerun failed: $(tail -30 again.log)"
grep -q "download_shard" again.log || fail "the rerun did not run the killed shard again"

check_rerun results/manifest.tsv "$R" before.txt \
  "$partial" "$mark" killed-results.tsv
[ -s results/tables/V6/taxonomies.closed_reference.ssu/abundance.tsv ] && [ -s results/verified.tsv ] || fail "the rerun wrote no matrix"
echo PASS
