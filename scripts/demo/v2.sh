# MGnify API v2 examples (sourced by scripts/demo.sh; MGNIFY_API_V2_URL points at the mock).
run v2_search_studies --base-url "$MGNIFY_API_V2_URL" human gut
run v2_analysis_downloads --base-url "$MGNIFY_API_V2_URL" MGYA00000002
run v2_analysis_downloads --base-url "$MGNIFY_API_V2_URL" MGYA00000003
run v2_biome_tree --base-url "$MGNIFY_API_V2_URL" root:Host-associated 4
run v2_genome_search --base-url "$MGNIFY_API_V2_URL" --catalogue human-gut-v2-0
