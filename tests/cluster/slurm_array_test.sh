#!/usr/bin/env bash
# The plain Slurm path of docs/cluster.md on a real one-node Slurm cluster
# (started here, in a temporary folder, and stopped by process id): the
# manifest's files downloaded by `sbatch --array=1-4 --wait
# workflows/slurm/download-array.sh`, every file present exactly once and
# verified, and the mock never above the budget. Skipped (exit 77) with the
# reason when munged, slurmctld or slurmd cannot start here.
# Usage: slurm_array_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"

start_slurm
start_mock 20
cd "$WORK"
list_manifest MGYS00000002 m.tsv -g taxonomies.closed_reference.ssu
from=$(($(wc -l <requests.log) + 1))
export MGNIFY
timeout 300 sbatch --array=1-4 --wait "$SRC/workflows/slurm/download-array.sh" m.tsv data 20 ||
  fail "the array job failed: $(cat mgnify-download-*.out | tail -20)"
for i in 1 2 3 4; do result_log data m.tsv "shard-$i-of-4" || fail "no result log of task $i"; done
"$MGNIFY" verify --manifest m.tsv --dir data >verify.json 2>verify.err || fail "$(cat verify.err)"
cat verify.err
check_rate 20 4 "$from" || fail "the array went over the budget"
rows=$(($(wc -l <m.tsv) - 1))
awk -F'\t' 'NR > 1 {print $1 "/" $2}' m.tsv | row_paths m.tsv >want.txt
fetched_paths "$from" >fetched.txt
diff want.txt fetched.txt >&2 || fail "the requests were not one per row"
[ "$(complete_files data | wc -l)" -eq "$rows" ] || fail "not one file per row"
echo PASS
