#!/usr/bin/env bash
# The Snakemake workflow of docs/cluster.md end to end with --cores 2 against
# the mock, both ways of naming what to gather:
# 1. two studies -> one manifest -> 4 download shards -> verify -> one matrix
#    (abundance-table of both studies, TSV and BIOM): the mock never saw more
#    than the budget; pandas reads the matrix, biom validate-table the BIOM;
#    the matrix is the union of each study's own table (features, analysis
#    columns, counts; 0 where a study's analyses did not find a feature); the
#    BIOM's columns carry their study and sample; the metadata table has one
#    row per sample of the studies (counted on the mock's own sample lists),
#    read back with pandas and readr; a second run has nothing to do.
# 2. a biome lineage -> its studies (`mgnify v2 studies list --lineage`) -> the
#    same steps with config.yaml's pipeline (V6): the studies are the lineage's,
#    each with a V6 analysis, the matrix has their analyses.
# Usage: snakemake_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"
command -v biom >/dev/null || skip "biom is not installed (Debian: python3-biom-format)"
PANDAS=/usr/bin/python3
"$PANDAS" -c 'import pandas' 2>/dev/null || skip "pandas is not installed (Debian: python3-pandas)"
command -v Rscript >/dev/null || skip "Rscript is not installed (Debian: r-base-core)"
Rscript -e 'library(readr)' >/dev/null 2>&1 || skip "readr is not installed (Debian: r-cran-readr)"

start_mock 0
# The workflow's budget, in requests per second for all its jobs. High enough that the
# paced jobs (a tenth of a second per request at the config's 10) do not make up most
# of the test's time, low enough that jobs ignoring their share would exceed it;
# cluster.shard_rate proves the shares add up to the budget.
budget=80
run_workflow() {
  timeout 600 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config/config.yaml" --cores 2 \
    --config mgnify="$MGNIFY" total_rate=$budget "$@"
}
# The matrix of config.yaml's pipeline and group.
export TABLES=results/tables/V6/taxonomies.closed_reference.ssu

# check_matrix PIPELINE STUDY...: results/ holds the union of the studies'
# own tables (made again here, from the files the workflow fetched).
check_matrix() {
  local pipeline=$1
  shift
  biom validate-table -i "$TABLES/abundance.biom" >biom.log 2>&1 || fail "invalid BIOM: $(cat biom.log)"
  local study
  for study in "$@"; do
    "$MGNIFY" --rate-limit 0 --format tsv abundance-table "$study" -p "$pipeline" \
      -g taxonomies.closed_reference.ssu --dir data >"own-$study.tsv" || fail "no table of $study"
  done
  "$PANDAS" - "$@" <<'PY' || fail "the merged matrix is not the union of the studies' tables"
import json, os, sys
import pandas as pd
studies = sys.argv[1:]
tables = os.environ["TABLES"]
merged = pd.read_csv(f"{tables}/abundance.tsv", sep="\t", dtype=str, keep_default_na=False)
key = merged.columns[0]
analyses = []
for study in studies:
    own = pd.read_csv(f"own-{study}.tsv", sep="\t", dtype=str, keep_default_na=False)
    columns = [c for c in own.columns if c.startswith("MGYA")]
    analyses += columns
    rows = merged.set_index(key).loc[own[key]]
    for c in columns:
        assert list(rows[c]) == list(own[c]), (study, c)
    # A feature the study's analyses did not find counts 0 in its columns.
    absent = merged[~merged[key].isin(own[key])]
    for c in columns:
        assert set(absent[c]) <= {"0"}, (study, c)
assert [c for c in merged.columns if c.startswith("MGYA")] == analyses
features = set()
for study in studies:
    features |= set(pd.read_csv(f"own-{study}.tsv", sep="\t", dtype=str)[key])
assert set(merged[key]) == features and len(merged) == len(features)
biom = json.load(open(f"{tables}/abundance.biom"))
assert [c["id"] for c in biom["columns"]] == analyses
assert {c["metadata"]["study_accession"] for c in biom["columns"]} == set(studies), "column metadata"
assert all(c["metadata"].get("sample_accession") for c in biom["columns"]), "no sample in column metadata"
print(f"matrix {len(merged)} features x {len(analyses)} analyses of {len(studies)} studies")
PY
}

# check_samples STUDY...: results/samples.tsv has a row for every sample of
# each study, as many as the mock's sample list of the study counts, the study
# in its first column; pandas and readr read the same rows and columns.
check_samples() {
  "$PANDAS" - "$MGNIFY_API_V2_URL" "$@" <<'PY' || fail "the metadata table is not every sample of the studies"
import json, sys, urllib.request
import pandas as pd
base, studies = sys.argv[1].rstrip("/"), sys.argv[2:]
table = pd.read_csv("results/samples.tsv", sep="\t", dtype=str, keep_default_na=False)
assert table.columns[0] == "study_accession", table.columns[:3]
for study in studies:
    with urllib.request.urlopen(f"{base}/studies/{study}/samples/?page_size=1", timeout=30) as page:
        count = json.load(page)["count"]
    rows = table[table["study_accession"] == study]
    assert len(rows) == count > 0, (study, len(rows), count)
    assert rows["accession"].is_unique, study
assert set(table["study_accession"]) == set(studies)
print(f"metadata table: {len(table)} samples x {len(table.columns)} columns of {len(studies)} studies")
PY
  local shape
  shape=$("$PANDAS" -c 'import pandas as pd
t = pd.read_csv("results/samples.tsv", sep="\t", dtype=str, keep_default_na=False)
print(len(t), len(t.columns))')
  Rscript -e 'shape <- as.integer(commandArgs(TRUE))
    t <- readr::read_tsv("results/samples.tsv", trim_ws = FALSE, na = character(),
                         col_types = readr::cols(.default = "c"), progress = FALSE)
    stopifnot(nrow(readr::problems(t)) == 0, names(t)[1] == "study_accession",
              nrow(t) == shape[1], ncol(t) == shape[2])' $shape >readr.log 2>&1 ||
    fail "readr does not read the metadata table: $(cat readr.log)"
}

mkdir "$WORK/studies"
cd "$WORK/studies"
from=$(($(wc -l <"$WORK/requests.log") + 1))
run_workflow >snakemake.log 2>&1 || fail "snakemake failed: $(tail -30 snakemake.log)"
check_rate "$budget" 4 "$from" || fail "the workflow went over the budget"
[ -s results/verified.tsv ] || fail "no results/verified.tsv"
check_matrix V6 MGYS00000002 MGYS00000004
check_samples MGYS00000002 MGYS00000004
timeout 120 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
  --configfile "$SRC/workflows/snakemake/config/config.yaml" --cores 2 \
  --config mgnify="$MGNIFY" total_rate=$budget >again.log 2>&1 || fail "the second run failed"
grep -q "Nothing to be done" again.log || fail "the second run did work again: $(tail again.log)"

mkdir "$WORK/lineage"
cd "$WORK/lineage"
lineage=root:Engineered:Wastewater
from=$(($(wc -l <"$WORK/requests.log") + 1))
run_workflow lineage="$lineage" max_studies=2 'studies=[]' >snakemake.log 2>&1 ||
  fail "snakemake with a lineage failed: $(tail -30 snakemake.log)"
check_rate "$budget" 4 "$from" || fail "the workflow with a lineage went over the budget"
"$MGNIFY" --rate-limit 0 --format tsv --columns accession,biome.lineage --max 2 v2 studies list \
  --lineage "$lineage" --pipeline V6 | tail -n +2 >expected-studies.tsv
cut -f1 expected-studies.tsv | diff - results/studies.txt >&2 || fail "not the lineage's studies"
awk -F'\t' -v l="$lineage" 'index($2, l) != 1 {exit 1}' expected-studies.tsv ||
  fail "a study outside $lineage"
[ "$(wc -l <results/studies.txt)" -eq 2 ] || fail "max_studies=2 did not give 2 studies"
# The pipeline of config.yaml (V6) is matched exactly, as `downloads -p`
# matches it: each study has a V6 analysis by the mock's own analysis lists
# (the service's filter would also pass studies whose analyses are all V6.1).
"$PANDAS" - "$MGNIFY_API_V2_URL" <<'PY' || fail "a study of the lineage without a V6 analysis"
import json, sys, urllib.request
base = sys.argv[1].rstrip("/")
for study in open("results/studies.txt").read().split():
    with urllib.request.urlopen(f"{base}/studies/{study}/analyses/?page_size=100", timeout=30) as page:
        listed = json.load(page)
    assert listed["count"] <= len(listed["items"]), "more than one page"
    assert "V6" in {a.get("pipeline_version") for a in listed["items"]}, study
PY
# shellcheck disable=SC2046
check_matrix V6 $(cat results/studies.txt)
# shellcheck disable=SC2046
check_samples $(cat results/studies.txt)
echo PASS
