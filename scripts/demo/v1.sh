# Legacy v1 API examples, sourced by scripts/demo.sh (which provides `run`,
# `$build` and MGNIFY_API_V1_URL pointing at the mock service).

# A study and all its samples as TSV.
run v1_study_samples MGYS00000002

# The same walk over 300 samples in pages of 40 (the summary goes to stderr).
run v1_study_samples --page-size 40 MGYS00000001 >/dev/null

# The documented filter example: marine metagenomic samples at <= 10 degrees,
# ordered by accession.
run v1_biome_samples --limit 10

# The cursor-paginated contig list of the mock's big analysis (600 contigs).
run v1_analysis_contigs --min-length 30000 --limit 8 MGYA00000001

# Text bodies: a contig's FASTA read whole, its GFF streamed with a byte cap,
# and the QC summary TSV.
run v1_contig_text --max-bytes 65536 MGYA00000001 ERR3000000.1-contig-2

# The small overview endpoints: the ten biomes with the most samples, the most
# recently updated studies, and the pipelines as CSV text.
run v1_at_a_glance --recent 3
