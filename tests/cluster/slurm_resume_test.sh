#!/usr/bin/env bash
# The fault of docs/cluster.md (Resuming) with the plain array script on a
# real one-node Slurm cluster (started here, stopped by process id): the mock
# sends files slowly, one task of `sbatch --array=1-2
# workflows/slurm/download-array.sh` is killed (SIGKILL) while it holds a
# half-written .part file, and resubmitting the same array fetches only that
# task's remaining files; the other task's files, all present and recorded in
# its result manifest, are not requested again. Skipped (exit 77) with the
# reason when munged, slurmctld or slurmd cannot start here.
# Usage: slurm_resume_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"

start_slurm
# 2,000 bytes per second: a file of the study (about 500 bytes) takes a
# quarter of a second, so a .part file is on disk most of the time.
MOCK_FILE_RATE=2000 start_mock 0
cd "$WORK"
list_manifest MGYS00000002 m.tsv -g taxonomies.closed_reference.ssu
export MGNIFY
job="$(sbatch --parsable --array=1-2 "$SRC/workflows/slurm/download-array.sh" m.tsv data 40)" ||
  fail "sbatch refused the array"
job="${job%%;*}"
running() { [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; }
found=""
for _ in $(seq 600); do
  [ "$(complete_files data | wc -l)" -ge 20 ] && found="$(victim_with_part)" && break
  found=""
  running || break
  sleep 0.1
done
[ -n "$found" ] || fail "no task was seen mid-transfer in 60 s"
read -r victim part <<<"$found"
task="$(tr '\0' '\n' <"/proc/$victim/environ" | sed -n 's/^SLURM_ARRAY_TASK_ID=//p')"
kill -9 "$victim"
wait_for 120 sh -c "[ -z \"\$(squeue -h -j $job 2>/dev/null)\" ]" || fail "the array did not end in 120 s"
[ -s "$part" ] || fail "the partial file $part is gone after the kill"
partial="${part#"$WORK"/data/}"
partial="${partial%.part}"
complete_files data >before.txt
echo "task $task killed with $partial half written, $(wc -l <before.txt) files complete"
R="$(result_log data m.tsv "shard-$task-of-2")" || fail "the killed shard left no result log"
cp "$R" killed-results.tsv

mark=$(($(wc -l <requests.log) + 1))
timeout 300 sbatch --array=1-2 --wait "$SRC/workflows/slurm/download-array.sh" m.tsv data 40 ||
  fail "the resubmitted array failed: $(cat mgnify-download-*.out 2>/dev/null | tail -20)"
check_rerun m.tsv "$R" before.txt "$partial" "$mark" killed-results.tsv
"$MGNIFY" verify --manifest m.tsv --dir data >/dev/null 2>verify.err || fail "$(cat verify.err)"
echo PASS
