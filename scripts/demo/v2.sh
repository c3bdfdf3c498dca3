# MGnify API v2 examples (sourced by scripts/demo.sh; MGNIFY_API_V2_URL points at the mock).
run v2_search_studies --base-url "$MGNIFY_API_V2_URL" human gut
run v2_analysis_downloads --base-url "$MGNIFY_API_V2_URL" MGYA00000002
run v2_analysis_downloads --base-url "$MGNIFY_API_V2_URL" MGYA00000003
run v2_biome_tree --base-url "$MGNIFY_API_V2_URL" root:Host-associated 4
run v2_genome_search --base-url "$MGNIFY_API_V2_URL" --catalogue human-gut-v2-0
# The service's OpenAPI document, read as JSON.
run v2_openapi --base-url "$MGNIFY_API_V2_URL" --max 5
# The opt-in response cache: the second fetch of a study is a hit that sends no request.
run v2_response_cache --base-url "$MGNIFY_API_V2_URL" MGYS00000001
