#!/usr/bin/env bash
# The check after a download array (docs/cluster.md): submit it with
# --dependency=afterany:ARRAY_JOB_ID so that it runs whatever the tasks' outcome
# (afterok would leave it pending for ever, DependencyNeverSatisfied, when one
# failed), and it fails (exit 1, the job FAILED) when any file of the manifest
# is missing, incomplete, wrong or unchecked, which a failed or cancelled task
# leaves behind:
#
#   sbatch --dependency=afterany:$jid workflows/slurm/verify.sh m.tsv data
#
# Arguments: the manifest and the download directory. The report goes to
# mgnify-verify-JOBID.tsv (in the submission's folder), what is wrong and the
# summary to the job's output.
#SBATCH --job-name=mgnify-verify
#SBATCH --cpus-per-task=1
#SBATCH --output=mgnify-verify-%j.out
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: sbatch --dependency=afterany:JOBID $0 MANIFEST DIR" >&2
  exit 2
fi
exec "${MGNIFY:-mgnify}" --format tsv verify --manifest "$1" --dir "$2" \
  >"mgnify-verify-${SLURM_JOB_ID:-local}.tsv"
