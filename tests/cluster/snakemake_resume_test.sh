#!/usr/bin/env bash
# The fault of docs/cluster.md (Resuming) through the Snakemake workflow: the
# mock sends files slowly, one download shard's process is killed (SIGKILL)
# while it holds a half-written .part file, the workflow fails, and the rerun
# of the same command fetches only that shard's remaining files: the partial
# one resumed (never kept as complete), each file the shard had not finished
# once, the finished ones the manifest cannot verify once (the killed shard
# left no result manifest to vouch for them), and no file of the other shard
# and no verifiable file the killed shard had finished.
# Usage: snakemake_resume_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

# 2,000 bytes per second: a file of the study (about 500 bytes) takes a
# quarter of a second, so a .part file is on disk most of the time.
MOCK_FILE_RATE=2000 start_mock 0
cd "$WORK"
run_workflow() {
  timeout 600 snakemake -s "$SRC/workflows/snakemake/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config.yaml" --cores 2 --resources api_slots=2 \
    --config mgnify="$MGNIFY" total_rate=40 shards=2 'studies=[MGYS00000002]' "$@"
}
run_workflow >first.log 2>&1 &
workflow=$!
PIDS+=("$workflow")

# The process of a download shard of this workflow (its .part files are in
# this test's folder) that has a non-empty .part file open.
victim_with_part() {
  local pid fd target
  for pid in $(ps -e -o pid=,args= | awk -v m="$MGNIFY" '$2 == m && / download --manifest / {print $1}'); do
    grep -q -- '--shard' "/proc/$pid/cmdline" 2>/dev/null || continue
    for fd in /proc/"$pid"/fd/*; do
      target="$(readlink "$fd" 2>/dev/null)" || continue
      case "$target" in
        "$WORK"/data/*.part) if [ -s "$target" ]; then echo "$pid $target"; return 0; fi ;;
      esac
    done
  done
  return 1
}
# Killed once the two shards have finished some files between them, so that
# the victim has finished files to keep as well as a half-written one.
found=""
for _ in $(seq 600); do
  if [ "$(complete_files data 2>/dev/null | wc -l)" -ge 20 ]; then
    found="$(victim_with_part)" && break
  fi
  kill -0 "$workflow" 2>/dev/null || break
  sleep 0.1
done
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
[ ! -e "data/.mgnify-results/shard-${shard/\//-of-}.tsv" ] || fail "the killed shard left a result manifest"

mark=$(($(wc -l <requests.log) + 1))
run_workflow >again.log 2>&1 || fail "the rerun failed: $(tail -30 again.log)"
grep -q "download_shard" again.log || fail "the rerun did not run the killed shard again"

M=results/manifest.tsv
R="data/.mgnify-results/shard-${shard/\//-of-}.tsv"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$R" | sort >shard.txt
grep -qx "$partial" shard.txt || fail "$partial is not in shard $shard's result manifest"
awk -F'\t' 'NR > 1 && $10 == "" && $11 == "" {print $1 "/" $2}' "$M" | sort >unverifiable.txt
comm -12 shard.txt before.txt | comm -12 - unverifiable.txt >refetched.txt
comm -12 shard.txt before.txt | comm -23 - unverifiable.txt >kept.txt
{ comm -23 shard.txt before.txt; cat refetched.txt; } | row_paths "$M" >expected.txt
fetched_paths "$mark" >fetched.txt
echo "rerun: shard $shard has $(wc -l <shard.txt) files, $(wc -l <kept.txt) verifiable ones were" \
  "kept, $(wc -l <refetched.txt) unverifiable ones fetched again, $(wc -l <fetched.txt) requests"
[ -s kept.txt ] || fail "no verifiable file of shard $shard was complete when it was killed"
diff expected.txt fetched.txt >&2 || fail "the rerun fetched other files than shard $shard's remaining ones"
status="$(awk -F'\t' -v f="$partial" 'NR > 1 && $1 "/" $2 == f {print $4}' "$R")"
case "$status" in
  resumed | downloaded) ;;
  *) fail "the partial file $partial has status '$status' after the rerun" ;;
esac
present=$(awk -F'\t' 'NR > 1 && $4 == "present"' "$R" | wc -l)
[ "$present" -eq "$(wc -l <kept.txt)" ] || fail "$present present, not the $(wc -l <kept.txt) kept files"
[ -s results/abundance.tsv ] && [ -s results/verified.tsv ] || fail "the rerun wrote no matrix"
echo "the partial file was $status"
echo PASS
