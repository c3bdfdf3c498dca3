#!/usr/bin/env bash
# The Snakemake workflow's configuration (docs/cluster.md, Snakemake) with
# --cores 2 against the mock:
# 1. hostile values (shell code in pipeline, group, data_dir, out_dir, mgnify,
#    lineage, studies; a key the schema does not know) and a hostile target are
#    refused before any job: nothing is created, no request is sent, no command
#    in them runs;
# 2. paths with spaces work (every value reaches the shell quoted), the
#    formula guard of the metadata table is on unless the config turns it off;
# 3. the matrix follows the config: another `group` gives that group's matrix
#    (equal to `mgnify abundance-table -g` of the studies) beside the first one,
#    and a rerun of the first config has nothing to do;
# 4. requests are not repeated: the two abundance-table runs of the matrix
#    rule and the other jobs send no API request twice (the shared cache).
# Usage: snakemake_config_test.sh MGNIFY MOCK SOURCE_DIR
MGNIFY=$1 MOCK=$2 SRC=$3
source "$(dirname "$0")/cluster_lib.sh"
command -v snakemake >/dev/null || skip "snakemake is not installed (Debian: snakemake)"

start_mock 0
cd "$WORK"
mkdir run
cd run
workflow() {
  timeout 600 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config/config.yaml" --cores 2 \
    --config mgnify="$MGNIFY" total_rate=80 "$@"
}

# 1. Hostile configuration and target.
before=$(wc -l <"$WORK/requests.log")
refused() {
  local code=0
  workflow "$@" >refused.log 2>&1 || code=$?
  [ "$code" -ne 0 ] || fail "snakemake accepted: $*"
  echo "refused ($code): $* -- $(grep -m1 -E 'ValidationError|Invalid config|ValueError' refused.log)"
}
refused 'pipeline=V6$(touch pwned-pipeline)'
refused 'group=taxonomies.closed_reference.ssu;touch pwned-group'
refused 'data_dir=data$(touch pwned-data)'
refused 'out_dir=results`touch pwned-out`'
refused 'mgnify=mgnify$(touch pwned-mgnify)'
refused 'lineage=root:Engineered$(touch pwned-lineage)' 'studies=[]'
refused "studies=['MGYS00000002;touch pwned-studies']"
refused 'shards=1$(touch pwned-shards)'
refused 'slurm={"partition": "x$(touch pwned-partition)"}'
refused 'unknown_key=1'
# A target is a file name, which the shards' wildcard must not take as an index.
for target in 'results/shards/shard-1$(touch${IFS}pwned-target)-of-4.tsv' \
  'results/shards/shard-1;touch pwned-target2;-of-4.tsv'; do
  code=0
  timeout 120 snakemake -s "$SRC/workflows/snakemake/workflow/Snakefile" \
    --configfile "$SRC/workflows/snakemake/config/config.yaml" --cores 2 "$target" \
    --config mgnify="$MGNIFY" >refused.log 2>&1 || code=$?
  [ "$code" -ne 0 ] || fail "snakemake made the target $target"
  grep -q MissingRuleException refused.log || fail "target $target: $(tail -5 refused.log)"
  echo "refused ($code): target $target"
done
[ -z "$(ls | grep -v '^refused.log$')" ] || fail "a refused run left files: $(ls)"
[ -z "$(find "$WORK" -name 'pwned-*' | head -1)" ] ||
  fail "a command of the configuration ran"
[ "$(wc -l <"$WORK/requests.log")" -eq "$before" ] || fail "a refused run sent requests"
rm refused.log

# 2. and 4. Paths with spaces, every job's requests.
workflow -n -p >dry.log 2>&1 || fail "dry run failed: $(tail dry.log)"
grep -q -- "--no-formula-guard" dry.log && fail "the formula guard is off by default"
workflow formula_guard=false -n -p >dry.log 2>&1 || fail "dry run failed: $(tail dry.log)"
grep -q -- "--no-formula-guard samples-table" dry.log || fail "formula_guard=false did not turn it off"
[ ! -e "my data" ] && [ ! -e logs ] || fail "a dry run created folders: $(ls)"
rm dry.log
from=$(($(wc -l <"$WORK/requests.log") + 1))
workflow 'data_dir=my data' 'out_dir=my results' >first.log 2>&1 || fail "the workflow failed: $(tail -30 first.log)"
ssu="my results/tables/V6/taxonomies.closed_reference.ssu"
[ -s "$ssu/abundance.tsv" ] && [ -s "$ssu/abundance.biom" ] || fail "no matrix in $ssu"
requests_since "$from" | awk -F'\t' '$2 == "GET" && $3 !~ /^\/pub\// {print $3}' | sort | uniq -c |
  awk '$1 > 1' >repeated.txt
total=$(requests_since "$from" | wc -l)
echo "workflow: $total requests, $(wc -l <repeated.txt) API URLs requested more than once"
[ ! -s repeated.txt ] || fail "API requests repeated within the workflow: $(head -5 repeated.txt)"

# 3. Another group.
workflow 'data_dir=my data' 'out_dir=my results' group=taxonomies.closed_reference.lsu \
  >lsu.log 2>&1 || fail "the workflow with another group failed: $(tail -30 lsu.log)"
lsu="my results/tables/V6/taxonomies.closed_reference.lsu"
[ -s "$lsu/abundance.tsv" ] || fail "no matrix of the new group: $(tail lsu.log)"
"$MGNIFY" --rate-limit 0 --format tsv abundance-table --studies-file "my results/studies.txt" -p V6 \
  -g taxonomies.closed_reference.lsu --dir "my data" >own-lsu.tsv 2>/dev/null || fail "no own LSU table"
cmp -s own-lsu.tsv "$lsu/abundance.tsv" || fail "the new group's matrix is not abundance-table -g lsu"
cmp -s "$ssu/abundance.tsv" "$lsu/abundance.tsv" && fail "the LSU matrix equals the SSU one"
workflow 'data_dir=my data' 'out_dir=my results' >again.log 2>&1 || fail "the rerun failed"
grep -q "Nothing to be done" again.log || fail "the rerun of the first config did work: $(tail again.log)"
echo PASS
