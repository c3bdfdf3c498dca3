#!/usr/bin/env bash
# The resume rule for files the service gives neither a checksum nor a size
# (docs/cluster.md, Resuming): a rerun keeps such a file without a request
# when a result manifest records it as finished with the SHA-256 the file
# still has on disk; a file whose digest changed, or one no result manifest
# vouches for, is fetched again.
# Usage: unverifiable_resume_test.sh MGNIFY MOCK
MGNIFY=$1 MOCK=$2
source "$(dirname "$0")/cluster_lib.sh"

start_mock 0
M="$WORK/m.tsv"
D="$WORK/data"
R="$D/.mgnify-results/shard-1-of-2.tsv"
list_manifest MGYS00000002 "$M" -g taxonomies.closed_reference.ssu
shard() { "$MGNIFY" download --manifest "$M" --shard 1/2 --dir "$D" --total-rate 100 "$@" >/dev/null; }
shard || fail "the first run failed"
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

# 4. An explicit --results FILE of an earlier run vouches as the default one does.
mark=$(($(wc -l <"$WORK/requests.log") + 1))
shard --results "$WORK/elsewhere.tsv" || fail "the run with --results failed"
[ -z "$(fetched_paths "$mark")" ] || fail "--results of the last run was not read back"
echo PASS
