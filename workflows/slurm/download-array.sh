#!/usr/bin/env bash
# One shard of a manifest per task of a Slurm job array, for clusters without
# Snakemake (docs/cluster.md). Submit with task IDs 1..N, then verify on any
# outcome of the array:
#
#   jid=$(sbatch --parsable --array=1-4 workflows/slurm/download-array.sh m.tsv data 10 4)
#   sbatch --dependency=afterany:$jid workflows/slurm/verify.sh m.tsv data
#
# Arguments: the manifest (from `mgnify downloads --manifest`), the download
# directory (shared by every task), the requests per second that all tasks
# together may send (default 10; each task takes 1/N), and N, the number of
# shards. Without N it is taken from the array, which must then be
# --array=1-N; to resubmit some tasks (--array=2 or --array=2,4) give N. Each
# task keeps its result log in DIR/.mgnify-results/ and holds its shard's lock
# while it runs. Resubmitting a task resumes it: files already verified on
# disk are not fetched again. Set MGNIFY to the CLI's path when it is not on
# the nodes' PATH; use absolute paths for the manifest and DIR.
#SBATCH --job-name=mgnify-download
#SBATCH --cpus-per-task=1
#SBATCH --output=mgnify-download-%A_%a.out
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: sbatch --array=1-N $0 MANIFEST DIR [TOTAL_RATE] [N]" >&2
  exit 2
fi
shard=slurm
if [ $# -eq 4 ]; then shard="slurm:$4"; fi
exec "${MGNIFY:-mgnify}" download --manifest "$1" --dir "$2" --shard "$shard" --total-rate "${3:-10}"
