#!/usr/bin/env bash
# The resume rule for files the service gives neither a checksum nor a size
# (docs/cluster.md, Resuming): a rerun keeps such a file without a request
# when a result manifest records it as finished with the SHA-256 the file
# still has on disk; a file whose digest changed, or one no result manifest
# vouches for, is fetched again. A shard killed outright (SIGKILL) after some
# such files finished has recorded them row by row, and its rerun does not
# request them again.
# Usage: unverifiable_resume_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 0
M="$WORK/m.tsv"
D="$WORK/data"
list_manifest MGYS00000002 "$M" -g taxonomies.closed_reference.ssu
shard() { "$MGNIFY" download --manifest "$M" --shard 1/2 --dir "$D" --total-rate 100 "$@" >/dev/null; }
shard || fail "the first run failed"
R="$(result_log "$D" "$M" shard-1-of-2)" || fail "no result log $R"
awk -F'\t' 'NR > 1 && $10 == "" && $11 == "" {print $1 "/" $2}' "$M" | sort >"$WORK/unverifiable.txt"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$R" | sort | comm -12 - "$WORK/unverifiable.txt" >"$WORK/mine.txt"
[ "$(wc -l <"$WORK/mine.txt")" -ge 2 ] || fail "shard 1 has fewer than 2 files without checksum and size"

# 1. Nothing changed: no file is requested, every file is present.
mark=$(($(wc -l <"$WORK/requests.log") + 1))
shard || fail "the second run failed"
[ -z "$(fetched_paths "$mark")" ] || fail "the rerun fetched: $(fetched_paths "$mark" | head -3)"
awk -F'\t' 'NR > 1 && $4 != "present" {print; bad = 1} END {exit bad}' "$R" >&2 ||
  fail "files of the rerun not 'present'"
echo "rerun: $(($(wc -l <"$R") - 1)) files present, $(wc -l <"$WORK/mine.txt") of them unverifiable, no request"

# 2. One of them altered on disk: only it is fetched again, and restored.
victim="$(head -1 "$WORK/mine.txt")"
sha_before="$(sha256sum "$D/$victim" | cut -d' ' -f1)"
printf 'x' >>"$D/$victim"
mark=$(($(wc -l <"$WORK/requests.log") + 1))
shard || fail "the run after the change failed"
echo "$victim" | row_paths "$M" >"$WORK/expected.txt"
fetched_paths "$mark" >"$WORK/fetched.txt"
diff "$WORK/expected.txt" "$WORK/fetched.txt" >&2 || fail "not exactly the altered file was fetched"
[ "$(sha256sum "$D/$victim" | cut -d' ' -f1)" = "$sha_before" ] || fail "$victim was not restored"
status="$(awk -F'\t' -v f="$victim" 'NR > 1 && $1 "/" $2 == f {print $4}' "$R")"
[ "$status" = downloaded ] || fail "the altered file has status '$status'"

# 3. No result manifest vouches for them: exactly the unverifiable files are fetched again.
rm -r "$D/.mgnify-results"
mark=$(($(wc -l <"$WORK/requests.log") + 1))
shard --results "$WORK/elsewhere.tsv" || fail "the run without result manifests failed"
row_paths "$M" <"$WORK/mine.txt" >"$WORK/expected.txt"
fetched_paths "$mark" >"$WORK/fetched.txt"
diff "$WORK/expected.txt" "$WORK/fetched.txt" >&2 ||
  fail "without result manifests, not exactly the unverifiable files were fetched"

# 4. An explicit --results FILE of an earlier run vouches as the result log in DIR does.
rm -r "$D/.mgnify-results"
mark=$(($(wc -l <"$WORK/requests.log") + 1))
shard --results "$WORK/elsewhere.tsv" || fail "the run with --results failed"
[ -z "$(fetched_paths "$mark")" ] || fail "--results of the last run was not read back"

# 5. Killed outright after some unverifiable files finished: the rows it
# appended as each file finished survive, and the rerun fetches only what they
# do not vouch for. One file at a time, 4 requests a second, so that the kill
# lands mid-way.
D5="$WORK/killed"
"$MGNIFY" --rate-limit 4 download --manifest "$M" --shard 1/2 --dir "$D5" --concurrency 1 \
  >/dev/null 2>&1 &
victim=$!
PIDS+=("$victim")
# recorded_unverifiable: the unverifiable files the result manifest records as fetched.
recorded_unverifiable() {
  R5="$(result_log "$D5" "$M" shard-1-of-2)" || return 0
  awk -F'\t' 'NR > 1 && ($4 == "downloaded" || $4 == "resumed") && $7 != "" {print $1 "/" $2}' \
    "$R5" 2>/dev/null | sort | comm -12 - "$WORK/mine.txt"
}
two_recorded() { [ "$(recorded_unverifiable | wc -l)" -ge 2 ]; }
wait_for 60 two_recorded || fail "the shard recorded no 2 unverifiable files in 60 s"
kill -9 "$victim"
wait "$victim" 2>/dev/null && fail "the shard had ended before the kill"
recorded_unverifiable >"$WORK/recorded.txt"
R5="$(result_log "$D5" "$M" shard-1-of-2)"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$R5" | sort >"$WORK/recorded-all.txt"
complete_files "$D5" >"$WORK/complete5.txt"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$WORK/elsewhere.tsv" | sort >"$WORK/shard1.txt"
[ "$(comm -23 "$WORK/shard1.txt" "$WORK/complete5.txt" | wc -l)" -ge 1 ] ||
  fail "the shard had finished every file before the kill"
# Every recorded row is a file on disk with the recorded digest.
awk -F'\t' 'NR > 1 && $7 != "" {print $7 "  " $3}' "$R5" | sha256sum --quiet -c - >&2 ||
  fail "a row of the killed shard's result manifest does not match its file"
mark=$(($(wc -l <"$WORK/requests.log") + 1))
"$MGNIFY" download --manifest "$M" --shard 1/2 --dir "$D5" --total-rate 100 >/dev/null ||
  fail "the rerun after the kill failed"
# Expected: the files not complete on disk, and the complete ones that nothing
# verifies (unverifiable, not recorded: a kill between a file's rename and its row).
{
  comm -23 "$WORK/shard1.txt" "$WORK/complete5.txt"
  comm -12 "$WORK/complete5.txt" "$WORK/mine.txt" | comm -23 - "$WORK/recorded-all.txt"
} | row_paths "$M" >"$WORK/expected.txt"
fetched_paths "$mark" >"$WORK/fetched.txt"
echo "killed with $(wc -l <"$WORK/complete5.txt") files complete, $(wc -l <"$WORK/recorded.txt")" \
  "unverifiable ones recorded; the rerun made $(wc -l <"$WORK/fetched.txt") file requests"
diff "$WORK/expected.txt" "$WORK/fetched.txt" >&2 ||
  fail "the rerun after the kill fetched other files than the unfinished ones"
row_paths "$M" <"$WORK/recorded.txt" | sort -u | while read -r path; do
  # A URL that another unfinished row shares may be fetched for that row only.
  want=$(grep -cx -- "$path" "$WORK/expected.txt" || true)
  got=$(grep -cx -- "$path" "$WORK/fetched.txt" || true)
  [ "$got" -eq "$want" ] || fail "$path requested $got times, $want expected"
done
status="$(awk -F'\t' 'NR > 1 && $4 == "present" {print $1 "/" $2}' "$R5" | sort | comm -12 - "$WORK/recorded.txt")"
[ "$status" = "$(cat "$WORK/recorded.txt")" ] || fail "the recorded files are not 'present' after the rerun"
echo PASS
