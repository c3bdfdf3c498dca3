#!/usr/bin/env bash
# A fault: shard 2 of 4 killed (SIGKILL, no chance to clean up) in the middle
# of its transfers; the other shards finish; the rerun of shard 2 requests
# exactly the files of shard 2 that were not complete on disk (plus finished
# ones that nothing can verify: no checksum or size in the manifest, and no
# row in the result manifest the killed shard appended to as files finished),
# no file of another shard and none it had finished; verify then passes.
# Usage: shard_resume_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 50
M="$WORK/m.tsv"
D="$WORK/data"
list_manifest MGYS00000002 "$M" -g taxonomies.closed_reference.ssu

# Shard 2, slowed down so that it is surely mid-way when killed.
"$MGNIFY" --rate-limit 4 download --manifest "$M" --shard 2/4 --dir "$D" >/dev/null 2>&1 &
victim=$!
PIDS+=("$victim")
count_complete() { [ "$(complete_files "$D" 2>/dev/null | wc -l)" -ge 5 ]; }
wait_for 60 count_complete || fail "shard 2 did not finish 5 files in 60 s"
kill -9 "$victim"
wait "$victim" 2>/dev/null || true
complete_files "$D" >"$WORK/before.txt"
echo "shard 2 killed with $(wc -l <"$WORK/before.txt") files complete," \
  "$(find "$D" -name '*.part' | wc -l) .part files"
R="$(result_log "$D" "$M" shard-2-of-4)" || fail "the killed shard left no result log"
awk -F'\t' 'NR > 1 && $4 == "downloaded" && $7 != "" {print $1 "/" $2}' "$R" | sort >"$WORK/recorded.txt"

for i in 1 3 4; do
  "$MGNIFY" download --manifest "$M" --shard "$i/4" --dir "$D" --total-rate 40 >/dev/null
done
mark=$(($(wc -l <"$WORK/requests.log") + 1))
"$MGNIFY" download --manifest "$M" --shard 2/4 --dir "$D" --total-rate 40 >/dev/null ||
  fail "the rerun of shard 2 failed"

awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$R" | sort >"$WORK/shard2.txt"
# Files with neither a checksum nor a size in the manifest cannot be verified
# on disk, so a rerun fetches them again unless the killed shard recorded
# them (docs/cluster.md, Resuming).
awk -F'\t' 'NR > 1 && $10 == "" && $11 == "" {print $1 "/" $2}' "$M" | sort >"$WORK/unverifiable.txt"
comm -12 "$WORK/before.txt" "$WORK/unverifiable.txt" | comm -23 - "$WORK/recorded.txt" >"$WORK/refetched.txt"
comm -23 "$WORK/before.txt" "$WORK/refetched.txt" >"$WORK/kept.txt"
{ comm -23 "$WORK/shard2.txt" "$WORK/before.txt"; cat "$WORK/refetched.txt"; } |
  row_paths "$M" >"$WORK/expected.txt"
fetched_paths "$mark" >"$WORK/fetched.txt"
echo "rerun: shard 2 has $(wc -l <"$WORK/shard2.txt") files, $(wc -l <"$WORK/before.txt")" \
  "were complete ($(wc -l <"$WORK/refetched.txt") of them unverifiable and unrecorded), $(wc -l <"$WORK/fetched.txt") fetched"
[ -s "$WORK/kept.txt" ] || fail "no file was complete when shard 2 was killed"
[ -s "$WORK/expected.txt" ] || fail "shard 2 had finished before it was killed"
diff "$WORK/expected.txt" "$WORK/fetched.txt" >&2 ||
  fail "the rerun fetched other files than shard 2's remaining ones"
# The finished files were verified on disk, not fetched: status "present".
present=$(awk -F'\t' 'NR > 1 && $4 == "present"' "$R" | wc -l)
[ "$present" -eq "$(wc -l <"$WORK/kept.txt")" ] || fail "$present present, not every finished file"
"$MGNIFY" verify --manifest "$M" --dir "$D" >/dev/null || fail "verify failed after the rerun"
echo PASS
