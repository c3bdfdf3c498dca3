# Protein service examples, sourced by scripts/demo.sh (which provides `run`,
# `$build` and MGNIFY_PROTEINS_URL pointing at the mock service).

# One accession in each tolerated form; 900004 is superseded twice over.
run protein_lookup MGYP000261684433
run protein_lookup 13
run protein_lookup mgyp000000900004

# One filter each; the lineage has a space and matches its sub-biomes too.
run protein_search --pfam PF04659 --limit 5
run protein_search --biome-id 132 --limit 5
run protein_search --lineage "root:Engineered:Wastewater:Industrial wastewater" --limit 5

# A whole family (PF00005 has 1,200 representatives in the mock; the
# service returns at most 1,000) fetched concurrently; --rate lifts the polite
# default of 10 requests per second, which only suits the public service. Then a
# small family to stdout.
proteins_fasta="$(mktemp)"
run pfam_to_fasta PF00005 --concurrency 8 --rate 2000 --output "$proteins_fasta"
echo "$(grep -c '^>' "$proteins_fasta") FASTA records in $proteins_fasta"
rm -f "$proteins_fasta"
run pfam_to_fasta pf04659 --limit 2
