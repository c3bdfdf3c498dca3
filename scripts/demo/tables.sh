# The two research tables of the `mgnify` tool, sourced by scripts/demo.sh
# (which provides `$build` and the MGNIFY_*_URL variables pointing at the mock).
# The mock runs on this machine, so these runs lift the tool's polite default of 10
# requests per second to one service (an abundance table fetches a file per analysis);
# against the real service, leave --rate-limit out.
tables_mgnify() { "$build/tools/mgnify/mgnify" --rate-limit 0 "$@"; }
tables_show() {
  echo
  echo "\$ mgnify --rate-limit 0 $*"
}
tables_cli() {
  tables_show "$@"
  tables_mgnify "$@"
}
tables_dir="$(mktemp -d)"

# "Which conditions were my samples taken under?" One row per sample, one column per
# metadata key, units in the header (mg-toolkit original_metadata, MGnifyR getMetadata).
tables_cli samples-table --api v1 MGYS00000002 --format tsv
tables_cli samples-table MGYS00000003 --format csv

# "Which taxa did each analysis of the study find?" Every V6 analysis's SSU summary,
# downloaded and verified like `mgnify download`, merged into one taxon-by-analysis matrix.
tables_cli abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu \
  --dir "$tables_dir" --format tsv | cut -f1-5   # the first three analyses
# The same as BIOM 1.0 JSON (phyloseq import_biom, mia importBIOM); the files are
# found on disk, verified, and not fetched again.
tables_show abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu --format json
tables_mgnify abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu \
  --dir "$tables_dir" --format json | python3 -c \
  'import json, sys; b = json.load(sys.stdin); print(b["type"], b["shape"], len(b["data"]), "non-zero cells")'
# Samples in the columns (a sample's analyses summed, each such sample named on stderr),
# with the samples' metadata as BIOM column metadata: what phyloseq::import_biom reads.
tables_show abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu --by sample --format json
tables_mgnify abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu \
  --by sample --dir "$tables_dir" --format json 2>/dev/null | python3 -c \
  'import json, sys; b = json.load(sys.stdin); c = b["columns"][0]; print(b["shape"], c["id"], {k: c["metadata"][k] for k in ("run_accession", "sample_title")})'
# GO counts of the v1 (pipeline 5.0) analyses, as BIOM.
tables_show abundance-table --api v1 MGYS00000002 -p 5.0 -g "Functional analysis" --format json
tables_mgnify abundance-table --api v1 MGYS00000002 -p 5.0 -g "Functional analysis" \
  --dir "$tables_dir" --format json | python3 -c \
  'import json, sys; b = json.load(sys.stdin); print(b["type"], b["shape"], [c["id"] for c in b["columns"]])'
rm -rf "$tables_dir"
