#!/usr/bin/env bash
# `mgnify download --shard` and `mgnify verify` against the mock: bad shard
# forms refused with one line and exit 2, Slurm variables read (and an array
# that does not tell N refused), the N shards
# together fetching every file exactly once with a result log each, and
# verify passing, then naming a missing file, a changed file and a leftover
# .part, and exiting 1.
# Usage: shard_cli_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 0
M="$WORK/m.tsv"
list_manifest MGYS00000002 "$M" -g taxonomies.closed_reference.ssu
rows=$(($(wc -l <"$M") - 1))
[ "$rows" -gt 50 ] || fail "the manifest has $rows rows"

# Refused before any request: one line on stderr, exit 2.
expect_usage() {
  local out code=0
  out="$("$@" 2>&1 >/dev/null)" || code=$?
  [ "$code" -eq 2 ] || fail "exit $code, not 2, for: ${*:2}"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "not one line for ${*:2}: $out"
  echo "refused: $out"
}
before=$(wc -l <"$WORK/requests.log")
for bad in 0/4 5/4 1/0 4 1/ /4 -1/4 a/b 1/4/2; do
  expect_usage "$MGNIFY" download --manifest "$M" --shard "$bad" --dir "$WORK/d"
done
expect_usage "$MGNIFY" download MGYS00000002 --shard 1/2 --dir "$WORK/d"
expect_usage "$MGNIFY" download --manifest "$M" --total-rate 5 --dir "$WORK/d"
expect_usage "$MGNIFY" --rate-limit 3 download --manifest "$M" --shard 1/2 --total-rate 5 --dir "$WORK/d"
expect_usage env -u SLURM_ARRAY_TASK_ID "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
expect_usage env SLURM_ARRAY_TASK_ID=3 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
expect_usage env SLURM_ARRAY_TASK_ID=9 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=4 \
  SLURM_ARRAY_TASK_COUNT=4 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
# An array that is not 1-N or 0-(N-1) does not tell N: a resubmitted task
# (--array=2), an offset (--array=10-13), a list (--array=1,5,9). Told N, a task
# ID outside 1..N is refused too.
expect_usage env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=2 SLURM_ARRAY_TASK_MAX=2 \
  SLURM_ARRAY_TASK_COUNT=1 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
expect_usage env SLURM_ARRAY_TASK_ID=11 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_MAX=13 \
  SLURM_ARRAY_TASK_COUNT=4 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
expect_usage env SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=9 \
  SLURM_ARRAY_TASK_COUNT=3 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$WORK/d"
expect_usage env SLURM_ARRAY_TASK_ID=5 "$MGNIFY" download --manifest "$M" --shard slurm:4 --dir "$WORK/d"
for bad in slurm: slurm:0 slurm:x slurm:-1; do
  expect_usage env SLURM_ARRAY_TASK_ID=1 "$MGNIFY" download --manifest "$M" --shard "$bad" --dir "$WORK/d"
done
# A truncated manifest row (5 cells) and an extra cell: exit 2 naming the line, not a file
# without a URL sent to API v1.
head -2 "$M" >"$WORK/truncated.tsv"
sed -n 3p "$M" | cut -f1-5 >>"$WORK/truncated.tsv"
expect_usage "$MGNIFY" download --manifest "$WORK/truncated.tsv" --dir "$WORK/d"
"$MGNIFY" download --manifest "$WORK/truncated.tsv" --dir "$WORK/d" >/dev/null 2>"$WORK/truncated.err" || true
grep -q "truncated.tsv line 3: 5 cells, the header has" "$WORK/truncated.err" ||
  fail "the truncated row's line is not named: $(cat "$WORK/truncated.err")"
{ head -2 "$M"; sed -n 3p "$M" | sed 's/$/	extra/'; } >"$WORK/merged.tsv"
expect_usage "$MGNIFY" download --manifest "$WORK/merged.tsv" --shard 1/2 --dir "$WORK/d"
[ "$(wc -l <"$WORK/requests.log")" -eq "$before" ] || fail "a refused command sent a request"
[ ! -e "$WORK/d" ] || fail "a refused command created the download directory"

# Shards 1 and 3 by I/N, 2 as task 1 of --array=0-3, 4 as task 4 told N (slurm:4).
D="$WORK/data"
"$MGNIFY" download --manifest "$M" --shard 1/4 --dir "$D" --total-rate 40 >/dev/null
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=4 \
  "$MGNIFY" download --manifest "$M" --shard slurm --dir "$D" --total-rate 40 >/dev/null
"$MGNIFY" download --manifest "$M" --shard 3/4 --dir "$D" --total-rate 40 \
  --results "$WORK/three.tsv" >/dev/null
SLURM_ARRAY_TASK_ID=4 "$MGNIFY" download --manifest "$M" --shard slurm:4 --dir "$D" --total-rate 40 \
  >/dev/null
logs=()
for i in 1 2 3 4; do
  logs+=("$(result_log "$D" "$M" "shard-$i-of-4")") || fail "no result log of shard $i in $D"
  [ -s "${logs[-1]}" ] || fail "empty result log ${logs[-1]}"
done
cmp -s "${logs[2]}" "$WORK/three.tsv" || fail "--results is not the report of the result log"
# A task of a one-task array (--array=1, a resubmitted task) does not become shard 1/1 of a
# manifest that earlier tasks split into 4: refused before any request.
before=$(wc -l <"$WORK/requests.log")
expect_usage env SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=1 \
  SLURM_ARRAY_TASK_COUNT=1 "$MGNIFY" download --manifest "$M" --shard slurm --dir "$D"
[ "$(wc -l <"$WORK/requests.log")" -eq "$before" ] || fail "the refused task sent a request"

# Every row in exactly one result log, downloaded, with a sha256 that
# matches the file; and fetched from the service exactly once.
cat "${logs[@]}" | python3 -c '
import csv, hashlib, sys, os
manifest, data = sys.argv[1], sys.argv[2]
want = {(r["accession"], r["alias"]) for r in csv.DictReader(open(manifest), delimiter="\t")}
seen = {}
for line in sys.stdin:
    cells = line.rstrip("\n").split("\t")
    if cells[0] == "accession":
        continue
    key = (cells[0], cells[1])
    assert key not in seen, f"{key} in two result manifests"
    assert cells[3] == "downloaded", f"{key}: status {cells[3]}"
    digest = hashlib.sha256(open(os.path.join(data, *key), "rb").read()).hexdigest()
    assert cells[6] == digest, f"{key}: sha256 {cells[6]} is not the digest of the file, {digest}"
    seen[key] = cells
assert set(seen) == want, f"{len(want - set(seen))} rows in no shard, {len(set(seen) - want)} unknown"
print(f"{len(seen)} rows, each in one shard, sha256 matching")
' "$M" "$D"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$M" | row_paths "$M" >"$WORK/want.txt"
fetched_paths 1 >"$WORK/fetched.txt"
diff "$WORK/want.txt" "$WORK/fetched.txt" >&2 || fail "the requests were not one per row"

# verify: all present, with the result logs (named and default).
"$MGNIFY" --format tsv verify --manifest "$M" --dir "$D" --results "$WORK/three.tsv" \
  --results "${logs[0]}" --results "${logs[1]}" --results "${logs[3]}" >"$WORK/verify.tsv" \
  2>"$WORK/verify.err" || fail "verify failed: $(cat "$WORK/verify.err")"
[ "$(awk -F'\t' 'NR > 1 && $4 == "ok"' "$WORK/verify.tsv" | wc -l)" -eq "$rows" ] || fail "not every row ok"
"$MGNIFY" verify --manifest "$M" --dir "$D" >/dev/null 2>&1 || fail "verify with default results failed"

# Break three files: one gone, one changed (same size), one only a .part.
mapfile -t files < <(awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$M" | head -3)
rm "$D/${files[0]}"
printf 'X' | dd of="$D/${files[1]}" bs=1 seek=10 conv=notrunc status=none
mv "$D/${files[2]}" "$D/${files[2]}.part"
code=0
"$MGNIFY" verify --manifest "$M" --dir "$D" --results "$WORK/three.tsv" \
  $(printf -- '--results %s ' "${logs[@]}") >/dev/null 2>"$WORK/verify.err" || code=$?
cat "$WORK/verify.err"
[ "$code" -eq 1 ] || fail "verify exited $code with broken files"
grep -q "^mgnify: ${files[0]}: missing$" "$WORK/verify.err" || fail "missing file not named"
grep -q "^mgnify: ${files[1]}: \(wrong checksum\|changed since download\)" "$WORK/verify.err" ||
  fail "changed file not named"
grep -q "^mgnify: ${files[2]}: incomplete" "$WORK/verify.err" || fail ".part not named"
grep -q "$((rows - 3)) of $rows files verified (.*), 3 missing or wrong$" "$WORK/verify.err" ||
  fail "wrong summary"

# A row fetched by two shards (two result manifests claim it) is not "once":
# a file of shard 3 removed and fetched again by a run of the whole manifest.
again="$(awk -F'\t' 'NR > 1 {print $1 "/" $2; exit}' "$WORK/three.tsv")"
rm -f "$D/$again"
"$MGNIFY" download --manifest "$M" --dir "$D" --results "$WORK/all.tsv" >/dev/null
code=0
"$MGNIFY" verify --manifest "$M" --dir "$D" --results "$WORK/all.tsv" --results "$WORK/three.tsv" \
  >/dev/null 2>"$WORK/verify.err" || code=$?
[ "$code" -eq 1 ] || fail "verify passed a file claimed by two result manifests"
grep -q "fetched by more than one shard" "$WORK/verify.err" || fail "double fetch not named"
echo PASS
