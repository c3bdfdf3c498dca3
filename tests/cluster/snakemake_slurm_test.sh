#!/usr/bin/env bash
# The Snakemake workflow through a real one-node Slurm cluster (started here
# and stopped by process id), with the Snakemake 7 profile of docs/cluster.md
# (profiles/slurm):
# 1. a download shard's job cancelled with scancel while it runs ends the
#    workflow non-zero within a bounded time (the profile's cluster-status asks
#    Slurm; without it Snakemake waits for ever), and the job had the memory,
#    time limit and partition of the config's `slurm` section;
# 2. the same command again: every rule an sbatch job, the matrix (TSV and
#    BIOM) written, every file verified, the mock never above the budget.
# Skipped (exit 77) with the reason when snakemake is missing or a Slurm
# daemon cannot start here.
# Usage: snakemake_slurm_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

# Snakemake asks for a job's state every 10 s or more: the controller keeps
# ended jobs for longer than that (there is no accounting database here).
SLURM_MIN_JOB_AGE=300 start_slurm
# 2,000 bytes per second: a file (about 500 bytes) takes a quarter of a
# second, so a shard runs long enough to be cancelled.
MOCK_FILE_RATE=2000 start_mock 0
cd "$WORK"
# A second config file overrides the first one's `slurm` section.
cat >slurm.yaml <<'YAML'
slurm:
  partition: test
  account: ""
  mem_mb: 500
  runtime: 30
YAML
run_workflow() {
  timeout 600 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config/config.yaml" "$WORK/slurm.yaml" \
    --profile "$SRC/workflows/snakemake/profiles/slurm" \
    --config mgnify="$MGNIFY" total_rate=40 "$@"
}

# 1. scancel of a running shard.
run_workflow --restart-times 0 >cancel.log 2>&1 &
workflow=$!
PIDS+=("$workflow")
running_shard() { squeue -h -t RUNNING -n mgnify-download_shard -o %i | head -1; }
job=""
for _ in $(seq 1200); do
  job="$(running_shard 2>/dev/null)"
  [ -n "$job" ] && break
  kill -0 "$workflow" 2>/dev/null || break
  sleep 0.1
done
[ -n "$job" ] || fail "no download shard job was seen running in 120 s: $(tail -20 cancel.log)"
scontrol -o show job "$job" >job.txt
for want in TimeLimit=00:30:00 Partition=test MinMemoryNode=500M; do
  grep -q "$want" job.txt || fail "the shard's job lacks $want: $(cat job.txt)"
done
scancel "$job"
cancelled=$(date +%s)
bound=300
wait_for "$bound" sh -c "! kill -0 $workflow" ||
  fail "snakemake still runs $bound s after scancel of job $job: $(tail -20 cancel.log)"
code=0
wait "$workflow" || code=$?
[ "$code" -ne 0 ] || fail "the workflow succeeded although job $job was cancelled"
grep -q "Error in rule download_shard" cancel.log || fail "no failed shard in the log: $(tail -20 cancel.log)"
echo "scancel of job $job: the workflow ended with exit $code after $(($(date +%s) - cancelled)) s"

# 2. The same command again.
from=$(($(wc -l <requests.log) + 1))
run_workflow >snakemake.log 2>&1 ||
  fail "snakemake failed: $(tail -30 snakemake.log; cat logs/slurm/*.out 2>/dev/null | tail -20)"
ls logs/slurm/
jobs=$(grep -c "Submitted job .* with external jobid" snakemake.log || true)
[ "$jobs" -ge 3 ] || fail "only $jobs jobs went through Slurm"
check_rate 40 4 "$from" || fail "the workflow went over the budget"
tables=results/tables/V6/taxonomies.closed_reference.ssu
for f in "$tables/abundance.tsv" "$tables/abundance.biom" results/samples.tsv; do [ -s "$f" ] || fail "no $f"; done
"$MGNIFY" verify --manifest results/manifest.tsv --dir data >/dev/null || fail "verify failed"
echo "$jobs Slurm jobs in the rerun"
echo PASS
