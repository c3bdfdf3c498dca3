#!/usr/bin/env bash
# The workflow's merge step (workflows/snakemake/scripts/merge_tables.py) on
# two small per-study tables: union of the features in first-met order, zero
# where a study did not list one, every analysis column, attributes kept, a
# quoted cell read back whole; metadata rows of both studies with the union of
# the columns; an analysis in two tables and conflicting attributes refused.
# Usage: merge_tables_test.sh SOURCE_DIR
SRC=$1
MGNIFY="" MOCK=""
source "$(dirname "$0")/cluster_lib.sh"
MERGE="$SRC/workflows/snakemake/scripts/merge_tables.py"
cd "$WORK"
# merge TABLE_A TABLE_B MATRIX_OUT METADATA_OUT: studies A and B, samples sa.tsv and sb.tsv.
merge() {
  python3 "$MERGE" --studies A B --tables "$1" "$2" --samples sa.tsv sb.tsv \
    --abundance-out "$3" --metadata-out "$4"
}
printf 'taxonomy\tMGYA1\tMGYA2\nk__Bacteria;p__A\t5\t0\nk__Bacteria;p__B\t1\t2\n' >a.tsv
printf 'taxonomy\tMGYA3\nk__Bacteria;p__B\t7\n"k__Archaea;p__""C"""\t3\n' >b.tsv
printf 'sample\tbiome\nS1\tsoil\nS2\tsoil\n' >sa.tsv
printf 'sample\tdepth\nS3\t10\n' >sb.tsv
merge a.tsv b.tsv m.tsv meta.tsv || fail "merge failed"
expected=$'taxonomy\tMGYA1\tMGYA2\tMGYA3\nk__Bacteria;p__A\t5\t0\t0\nk__Bacteria;p__B\t1\t2\t7\n"k__Archaea;p__""C"""\t0\t0\t3'
[ "$(cat m.tsv)" = "$expected" ] || fail "matrix: $(cat m.tsv)"
expected=$'study\tsample\tbiome\tdepth\nA\tS1\tsoil\t\nA\tS2\tsoil\t\nB\tS3\t\t10'
[ "$(cat meta.tsv)" = "$expected" ] || fail "metadata: $(cat meta.tsv)"

# Attribute columns: kept, and a conflict refused.
printf 'pfam\tdescription\tMGYA1\nPF1\tkinase\t4\n' >c.tsv
printf 'pfam\tdescription\tMGYA2\nPF1\t\t1\nPF2\tpump\t2\n' >d.tsv
merge c.tsv d.tsv m2.tsv meta2.tsv || fail "merge with attributes failed"
expected=$'pfam\tdescription\tMGYA1\tMGYA2\nPF1\tkinase\t4\t1\nPF2\tpump\t0\t2'
[ "$(cat m2.tsv)" = "$expected" ] || fail "attributes: $(cat m2.tsv)"
printf 'pfam\tdescription\tMGYA2\nPF1\tphosphatase\t1\n' >e.tsv
if merge c.tsv e.tsv x.tsv y.tsv 2>err.txt; then fail "a conflict was merged"; fi
grep -q "PF1: description is 'kinase' in one table and 'phosphatase'" err.txt || fail "$(cat err.txt)"
if merge a.tsv a.tsv x.tsv y.tsv 2>err.txt; then fail "a repeated analysis was merged"; fi
grep -q "analysis MGYA1 is in more than one table" err.txt || fail "$(cat err.txt)"
echo PASS
