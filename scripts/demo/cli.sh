# The `mgnify` command-line tool, sourced by scripts/demo.sh (which provides
# `$build` and the MGNIFY_*_URL variables pointing at the mock service). The
# CLI lives in tools/mgnify/, so it is called directly rather than via `run`.
mgnify="$build/tools/mgnify/mgnify"
cli() {
  echo
  echo "\$ mgnify $*"
  "$mgnify" "$@"
}

cli protein get MGYP000261684433 --format tsv --columns mgyp,cluster_size,full_length
cli protein search --pfam PF04659 --max 3 --format ndjson
cli v1 studies list --max 3 --format tsv --columns id,study-name,samples-count
cli v1 studies related MGYS00000002 samples --max 2 --format tsv --columns id,sample-name,geo-loc-name
cli v2 studies list --search "human gut" --max 3 --format tsv --columns accession,title
cli v2 biomes list --max-depth 2 --format tsv --columns lineage
# Sample metadata by key, and the sample's biome, in TSV.
cli v1 samples list --max 3 --format tsv --columns accession,biome,metadata.temperature,metadata.temperature.unit

# mg-toolkit's `bulk_download -a MGYA00000002 -g taxonomic_analysis_ssu_rrna`, as a manifest.
cli downloads --api v1 MGYA00000002 -g taxonomic_analysis_ssu_rrna --format tsv

# A verified, resumable download of files the mock serves (one transfer is cut
# mid-way by the mock and resumed); the manifest names their SHA256 digests.
cli_dir="$(mktemp -d)"
origin="${MGNIFY_API_V1_URL%%/metagenomics/*}"
{
  printf 'accession\talias\turl\tchecksum_algorithm\tchecksum\n'
  for f in small.tsv medium.bin; do
    digest="$(python3 -c 'import hashlib, sys, urllib.request; print(hashlib.sha256(urllib.request.urlopen(sys.argv[1]).read()).hexdigest())' "$origin/files/$f")"
    query=""
    [ "$f" = medium.bin ] && query="?cut=50000"
    printf 'DEMO\t%s\t%s\tSHA256\t%s\n' "$f" "$origin/files/$f$query" "$digest"
  done
} >"$cli_dir/manifest.tsv"
cli download --manifest "$cli_dir/manifest.tsv" --dir "$cli_dir/out" --api v1 --format tsv

# Straight from a listing: the v1 files are checked against their listed SHA256 digests;
# a second run re-verifies the files on disk and keeps them without a request.
cli download --api v1 MGYA00000002 --dir "$cli_dir/v1" --format tsv --columns alias,status,bytes,checksum
cli download --api v1 MGYA00000002 --dir "$cli_dir/v1" --format tsv --columns alias,status
# v2 publishes sizes (file_size_bytes) rather than digests.
cli download MGYA00000002 -g taxonomies. --dir "$cli_dir/v2" --format tsv --columns alias,status,bytes

# Genome search: COBS hits for a sequence, then a sourmash gather job polled to its end.
cli genome search GATTACAGATTACACCGGTTAACCGGTTAAGCGCGCATATATGCGCGCATATATTTAAACCCGGG \
  --threshold 0.5 --format tsv \
  --columns query,cobs.genome,mgnify.catalogue_id,cobs.percent_kmers_found
printf '[{"name": "demo", "signatures": [{"ksize": 31, "mins": [11, 22, 33], "molecule": "DNA"}]}]' \
  >"$cli_dir/demo.sig"
cli genome gather "$cli_dir/demo.sig" --catalogue human-gut-v2-0 --format tsv \
  --columns signature_file,catalogue,name,f_match,intersect_bp

# An on-disk response cache: the second run is answered from it without a request.
cli --cache "$cli_dir/cache" v2 studies get MGYS00000001 --format tsv --columns accession,title
cli --cache "$cli_dir/cache" v2 studies get MGYS00000001 --format tsv --columns accession,title
echo "(cache entries: $(find "$cli_dir/cache" -name '*.entry' | wc -l))"
rm -rf "$cli_dir"

# A filter that matches nothing names the pipelines and groups that exist (exit 3).
set +e
echo
echo "\$ mgnify downloads MGYS00000001 -p 5.0 -g taxonomic_analysis --format tsv"
"$mgnify" downloads MGYS00000001 -p 5.0 -g taxonomic_analysis --format tsv
status=$?
set -e
[ "$status" -eq 3 ]

# Exit codes a pipeline can test: 3 is "not found".
set +e
"$mgnify" v2 studies get MGYS99999999 2>/dev/null
status=$?
set -e
echo
echo "\$ mgnify v2 studies get MGYS99999999  # exit status $status (3: not found)"
[ "$status" -eq 3 ]
