#!/usr/bin/env bash
# The Snakemake workflow of docs/cluster.md end to end with --cores 2 against
# the mock: two studies -> manifests -> 4 download shards -> verify ->
# per-study tables -> one merged matrix and metadata table; the matrix holds
# every analysis column of both studies' tables and every feature, the
# metadata every sample of both, and the mock never saw more than the budget.
# A second run has nothing to do.
# Usage: snakemake_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

start_mock 0
cd "$WORK"
from=$(($(wc -l <requests.log) + 1))
timeout 600 snakemake -s "$SRC/workflows/snakemake/Snakefile" \
  --configfile "$SRC/workflows/snakemake/config.yaml" --cores 2 --resources api_slots=4 \
  --config mgnify="$MGNIFY" total_rate=40 >snakemake.log 2>&1 || fail "snakemake failed: $(tail -30 snakemake.log)"
check_rate 40 4 "$from" || fail "the workflow went over the budget"
for f in results/abundance.tsv results/metadata.tsv results/verified.tsv; do
  [ -s "$f" ] || fail "no $f"
done
python3 - <<'PY' || fail "the merged tables are wrong"
import csv
def read(path):
    rows = list(csv.reader(open(path), delimiter="\t"))
    return rows[0], rows[1:]
header, rows = read("results/abundance.tsv")
analyses, features = [], set()
for study in ("MGYS00000002", "MGYS00000004"):
    h, r = read(f"results/tables/{study}.tsv")
    analyses += [c for c in h if c.startswith("MGYA")]
    features |= {row[0] for row in r}
    # Every count of the study's table is in the merged matrix, unchanged.
    for row in r:
        merged = next(m for m in rows if m[0] == row[0])
        for name, cell in zip(h, row):
            if name.startswith("MGYA"):
                assert merged[header.index(name)] == cell, (study, row[0], name)
assert [c for c in header if c.startswith("MGYA")] == analyses
assert {row[0] for row in rows} == features and len(rows) == len(features)
meta_header, meta = read("results/metadata.tsv")
n = sum(len(read(f"results/samples/{s}.tsv")[1]) for s in ("MGYS00000002", "MGYS00000004"))
assert meta_header[0] == "study" and len(meta) == n
print(f"matrix {len(rows)} features x {len(analyses)} analyses, metadata {n} samples")
PY
timeout 120 snakemake -s "$SRC/workflows/snakemake/Snakefile" \
  --configfile "$SRC/workflows/snakemake/config.yaml" --cores 2 --resources api_slots=4 \
  --config mgnify="$MGNIFY" total_rate=40 >again.log 2>&1 || fail "the second run failed"
grep -q "Nothing to be done" again.log || fail "the second run did work again: $(tail again.log)"
echo PASS
