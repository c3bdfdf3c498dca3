#!/usr/bin/env bash
# Result logs, verify's verdicts and shard locks against the mock
# (docs/cluster.md: Checking the result, Resuming, Shards):
# 1. a download without --shard or --results keeps a result log in DIR, and
#    its rerun sends no request; the report marks the files only the
#    transfer's Content-Length vouched for (checked: content-length);
# 2. verify says what each file was checked by; a file without checksum or
#    size overwritten with garbage fails by the recorded sha256; with no result
#    log left it is "unchecked" and verify exits 1, never calling it verified;
# 3. two manifests sharing one DIR: rerunning the first after the second
#    sends no request;
# 4. shards i/4, then i/2 of the same manifest: no request, and verify passes;
# 5. the same shard twice at once: the second stops at the shard's lock
#    (exit 1, one line naming it) before any transfer; after the first is
#    killed (SIGKILL) the lock is free again.
# Usage: results_log_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 0
A="$WORK/ssu.tsv"
B="$WORK/lsu.tsv"
list_manifest MGYS00000002 "$A" -g taxonomies.closed_reference.ssu
list_manifest MGYS00000002 "$B" -g taxonomies.closed_reference.lsu
rows=$(($(wc -l <"$A") - 1))
unsized=$(awk -F'\t' 'NR > 1 && $10 == "" && $11 == ""' "$A" | wc -l)
[ "$unsized" -gt 0 ] && [ "$unsized" -lt "$rows" ] || fail "$unsized of $rows rows unsized: not a mixed manifest"
mark() { echo $(($(wc -l <"$WORK/requests.log") + 1)); }
column_of() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1 || true; }

# 1. A whole-manifest run, then its rerun.
D="$WORK/one"
"$MGNIFY" --rate-limit 0 --format tsv download --manifest "$A" --dir "$D" >"$WORK/first.tsv" \
  2>"$WORK/first.err" || fail "download failed: $(cat "$WORK/first.err")"
c=$(column_of "$WORK/first.tsv" checked)
[ -n "$c" ] || fail "the report has no 'checked' column"
marked=$(awk -F'\t' -v c="$c" 'NR > 1 && $c == "content-length"' "$WORK/first.tsv" | wc -l)
[ "$marked" -eq "$unsized" ] || fail "$marked rows checked by content-length, not the $unsized unsized ones"
[ ! -s "$WORK/first.err" ] || fail "a successful download wrote to stderr: $(cat "$WORK/first.err")"
from=$(mark)
"$MGNIFY" --rate-limit 0 --format tsv download --manifest "$A" --dir "$D" >"$WORK/again.tsv" 2>/dev/null ||
  fail "the rerun failed"
[ -z "$(file_requests "$from")" ] || fail "the rerun fetched $(file_requests "$from" | wc -l) files again"
awk -F'\t' 'NR > 1 && $4 != "present" {bad = 1} END {exit bad}' "$WORK/again.tsv" ||
  fail "files of the rerun not 'present'"
echo "1. rerun without --results: $rows files present, 0 requests; $unsized marked content-length"

# 2. What verify checked, a garbage file, and no result log.
"$MGNIFY" --format tsv verify --manifest "$A" --dir "$D" >"$WORK/verify.tsv" 2>"$WORK/verify.err" ||
  fail "verify failed: $(cat "$WORK/verify.err")"
[ "$(awk -F'\t' 'NR > 1 && $4 == "ok" && $5 == "recorded sha256"' "$WORK/verify.tsv" | wc -l)" -eq "$unsized" ] ||
  fail "the unsized files are not verified by their recorded sha256"
[ "$(awk -F'\t' 'NR > 1 && $4 == "ok" && $5 ~ /^(size|md5|sha1|sha256)/' "$WORK/verify.tsv" | wc -l)" -eq $((rows - unsized)) ] ||
  fail "the sized files are not verified by checksum or size"
grep -q "verify: $rows of $rows files verified (.* by checksum, .* by size, $unsized by a result log's sha256 only)$" \
  "$WORK/verify.err" || fail "summary: $(cat "$WORK/verify.err")"
krona="$(awk -F'\t' 'NR > 1 && $10 == "" && $11 == "" {print $1 "/" $2; exit}' "$A")"
echo garbage >"$D/$krona"
code=0
"$MGNIFY" verify --manifest "$A" --dir "$D" >/dev/null 2>"$WORK/verify.err" || code=$?
[ "$code" -eq 1 ] || fail "verify exited $code with $krona overwritten"
grep -q "^mgnify: $krona: changed since download" "$WORK/verify.err" || fail "$(cat "$WORK/verify.err")"
rm -r "$D/.mgnify-results"
code=0
"$MGNIFY" --format tsv verify --manifest "$A" --dir "$D" >"$WORK/verify.tsv" 2>"$WORK/verify.err" || code=$?
[ "$code" -eq 1 ] || fail "verify exited $code with $unsized files it could not check"
[ "$(awk -F'\t' 'NR > 1 && $4 == "unchecked"' "$WORK/verify.tsv" | wc -l)" -eq "$unsized" ] ||
  fail "not $unsized unchecked rows"
grep -q "verify: $((rows - unsized)) of $rows files verified (.*), $unsized present but unchecked" \
  "$WORK/verify.err" || fail "summary: $(tail -1 "$WORK/verify.err")"
echo "2. verify: garbage in $krona found by its recorded sha256; without logs $unsized unchecked, exit 1"

# 3. Two manifests, one DIR.
D="$WORK/shared"
"$MGNIFY" --rate-limit 0 download --manifest "$A" --shard 1/1 --dir "$D" >/dev/null 2>&1 || fail "A failed"
"$MGNIFY" --rate-limit 0 download --manifest "$B" --shard 1/1 --dir "$D" >/dev/null 2>&1 || fail "B failed"
from=$(mark)
"$MGNIFY" --rate-limit 0 download --manifest "$A" --shard 1/1 --dir "$D" >/dev/null 2>&1 || fail "A again failed"
[ -z "$(file_requests "$from")" ] || fail "A after B fetched $(file_requests "$from" | wc -l) files again"
for m in "$A" "$B"; do
  "$MGNIFY" verify --manifest "$m" --dir "$D" >/dev/null 2>"$WORK/verify.err" || fail "verify $m: $(cat "$WORK/verify.err")"
done
echo "3. two manifests in one DIR: the first rerun after the second sends no request"

# 4. Shards of 4, then of 2.
D="$WORK/resharded"
for i in 1 2 3 4; do
  "$MGNIFY" download --manifest "$A" --shard "$i/4" --total-rate 200 --dir "$D" >/dev/null 2>&1 || fail "shard $i/4"
done
from=$(mark)
for i in 1 2; do
  "$MGNIFY" download --manifest "$A" --shard "$i/2" --total-rate 200 --dir "$D" >/dev/null 2>&1 || fail "shard $i/2"
done
[ -z "$(file_requests "$from")" ] || fail "shards of 2 fetched $(file_requests "$from" | wc -l) files again"
"$MGNIFY" verify --manifest "$A" --dir "$D" >/dev/null 2>"$WORK/verify.err" ||
  fail "verify after resharding: $(tail -3 "$WORK/verify.err")"
echo "4. shards of 4 then of 2: no request, verify passes"

# 5. The same shard twice at once.
D="$WORK/locked"
"$MGNIFY" --rate-limit 2 download --manifest "$A" --shard 1/2 --dir "$D" >/dev/null 2>"$WORK/holder.err" &
holder=$!
PIDS+=("$holder")
wait_for 30 sh -c "[ \"\$(find '$D' -path '*/.mgnify-results/*' -name 'shard-1-of-2.lock' | wc -l)\" -eq 1 ] &&
  [ -n \"\$(find '$D' -path '$D/MGY*' -type f ! -name '*.part*')\" ]" ||
  fail "the first shard did not start: $(cat "$WORK/holder.err")"
from=$(mark)
code=0
started=$(date +%s)
"$MGNIFY" --rate-limit 0 download --manifest "$A" --shard 1/2 --dir "$D" >"$WORK/second.out" 2>"$WORK/second.err" || code=$?
[ "$code" -eq 1 ] || fail "the second process of shard 1/2 exited $code: $(cat "$WORK/second.err")"
[ $(($(date +%s) - started)) -lt 10 ] || fail "the second process did not stop at once"
[ "$(wc -l <"$WORK/second.err")" -eq 1 ] && grep -q "another process is downloading shard 1/2 of" "$WORK/second.err" ||
  fail "not one line naming the lock: $(cat "$WORK/second.err")"
[ ! -s "$WORK/second.out" ] || fail "the second process reported files"
# The holder alone sends requests now, paced at 2 per second: more means the second fetched too.
sleep 1
kill -0 "$holder" 2>/dev/null || fail "the first shard ended before the check"
kill -9 "$holder"
wait "$holder" 2>/dev/null || true
n=$(file_requests "$from" | wc -l)
elapsed=$(($(date +%s) - started + 2))
[ "$n" -le $((2 * elapsed + 1)) ] || fail "$n file requests in ${elapsed} s: the second process fetched files"
"$MGNIFY" --rate-limit 0 download --manifest "$A" --shard 1/2 --dir "$D" >/dev/null 2>"$WORK/third.err" ||
  fail "after the holder was killed the shard did not run: $(cat "$WORK/third.err")"
echo "5. the same shard twice: the second stopped at the lock; after a SIGKILL the lock was free"
echo PASS
