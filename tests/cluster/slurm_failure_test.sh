#!/usr/bin/env bash
# The plain Slurm path of docs/cluster.md when a task fails, on a real one-node
# Slurm cluster (started here, stopped by process id):
# 1. one task of `sbatch --array=1-4 workflows/slurm/download-array.sh ... 4`
#    is cancelled (scancel) while it runs; the verify job submitted with
#    --dependency=afterany runs and fails (state FAILED), naming what is missing;
# 2. that task resubmitted alone without N (`--array=T`) is refused (exit 2,
#    no request), not run as shard 1 of 1;
# 3. resubmitted alone with N (`--array=T ... 4`) it fetches only its shard's
#    missing files, and a second verify job completes.
# Skipped (exit 77) with the reason when munged, slurmctld or slurmd cannot start here.
# Usage: slurm_failure_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"

# sacct is not there (no accounting): the controller must still know the jobs when asked.
SLURM_MIN_JOB_AGE=300 start_slurm
# 2,000 bytes per second per file: a task runs long enough to be cancelled.
MOCK_FILE_RATE=2000 start_mock 0
cd "$WORK"
list_manifest MGYS00000002 m.tsv -g taxonomies.closed_reference.ssu
export MGNIFY
array="$(sbatch --parsable --array=1-4 "$SRC/workflows/slurm/download-array.sh" "$WORK/m.tsv" "$WORK/data" 40 4)" ||
  fail "sbatch refused the array"
array="${array%%;*}"
verify="$(sbatch --parsable --dependency=afterany:"$array" "$SRC/workflows/slurm/verify.sh" "$WORK/m.tsv" "$WORK/data")" ||
  fail "sbatch refused the verify job"
verify="${verify%%;*}"
state() { scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n 's/^JobState=//p' | head -1; }

# 1. Cancel task 3 once it runs and has finished a file.
task=3
running_with_files() {
  local log
  [ "$(state "${array}_$task")" = RUNNING ] && log="$(result_log data m.tsv "shard-$task-of-4")" &&
    [ "$(wc -l <"$log")" -ge 3 ]
}
wait_for 120 running_with_files || fail "task $task was not seen running in 120 s: $(squeue)"
scancel "${array}_$task"
wait_for 180 sh -c "[ -z \"\$(squeue -h -j $array,$verify 2>/dev/null)\" ]" ||
  fail "the array and the verify job did not end in 180 s: $(squeue)"
[ "$(state "${array}_$task")" = CANCELLED ] || fail "task $task is $(state "${array}_$task"), not CANCELLED"
[ "$(state "$verify")" = FAILED ] ||
  fail "the verify job is $(state "$verify") after a cancelled task: $(cat mgnify-verify-*.out 2>/dev/null)"
grep -q "missing or wrong" "mgnify-verify-$verify.out" || fail "the verify job did not say what is missing"
complete_files data >before.txt
echo "task $task cancelled: verify job $verify ran and FAILED: $(tail -1 "mgnify-verify-$verify.out")"

# 2. Resubmitted alone without N: refused.
mark=$(($(wc -l <requests.log) + 1))
timeout 120 sbatch --wait --array="$task" -o refused.out "$SRC/workflows/slurm/download-array.sh" \
  "$WORK/m.tsv" "$WORK/data" 40 && fail "task $task without N ran: $(cat refused.out)"
grep -q "give --shard slurm:N" refused.out || fail "the refusal does not say to give N: $(cat refused.out)"
[ -z "$(requests_since "$mark")" ] || fail "the refused task sent requests"

# 3. Resubmitted alone with N: only its shard's missing files.
timeout 300 sbatch --wait --array="$task" -o again.out "$SRC/workflows/slurm/download-array.sh" \
  "$WORK/m.tsv" "$WORK/data" 40 4 || fail "task $task with N failed: $(cat again.out)"
R="$(result_log data m.tsv "shard-$task-of-4")"
awk -F'\t' 'NR > 1 {print $1 "/" $2}' "$R" | sort >shard.txt
awk -F'\t' 'NR > 1 {print $1 "/" $2}' m.tsv | sort >all.txt
[ "$(wc -l <shard.txt)" -lt "$(wc -l <all.txt)" ] || fail "the resubmitted task ran the whole manifest"
fetched_paths "$mark" >fetched.txt
comm -23 shard.txt before.txt | row_paths m.tsv >missing.txt
# Files of the shard that were complete but unrecorded (no checksum or size, a
# row not yet written at the cancel) may be fetched again as well; nothing else.
comm -23 fetched.txt <(row_paths m.tsv <shard.txt) >outside.txt
[ ! -s outside.txt ] || fail "the resubmitted task fetched files of other shards: $(head -3 outside.txt)"
comm -23 missing.txt fetched.txt >unfetched.txt
[ ! -s unfetched.txt ] || fail "the resubmitted task left files missing: $(head -3 unfetched.txt)"
timeout 120 sbatch --wait "$SRC/workflows/slurm/verify.sh" "$WORK/m.tsv" "$WORK/data" >/dev/null ||
  fail "verify failed after the resubmission: $(tail -3 mgnify-verify-*.out)"
echo "task $task resubmitted with N: $(wc -l <fetched.txt) files fetched, $(wc -l <missing.txt) were missing"
echo PASS
