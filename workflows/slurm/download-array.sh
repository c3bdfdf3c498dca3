#!/usr/bin/env bash
# One shard of a manifest per task of a Slurm job array, for clusters without
# Snakemake (docs/cluster.md). Submit with as many tasks as shards:
#
#   sbatch --array=1-4 --wait workflows/slurm/download-array.sh m.tsv data 10
#   mgnify verify --manifest m.tsv --dir data
#
# Arguments: the manifest (from `mgnify downloads --manifest`), the download
# directory (shared by every task), and the requests per second that all tasks
# together may send (default 10; each task takes 1/N). Each task leaves its
# result manifest in DIR/.mgnify-results/shard-I-of-N.tsv. Rerun the same
# submission to resume: files already verified on disk are not fetched again.
# Set MGNIFY to the CLI's path when it is not on PATH.
#SBATCH --job-name=mgnify-download
#SBATCH --cpus-per-task=1
#SBATCH --output=mgnify-download-%A_%a.out
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: sbatch --array=1-N $0 MANIFEST DIR [TOTAL_RATE]" >&2
  exit 2
fi
exec "${MGNIFY:-mgnify}" download --manifest "$1" --dir "$2" --shard slurm --total-rate "${3:-10}"
