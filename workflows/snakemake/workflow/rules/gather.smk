# The studies, then one manifest of all their files.


# One accession a line: the configured list, or the studies of the lineage
# (and every biome below it) with analyses of the pipeline.
rule studies:
    output:
        f"{OUT}/studies.txt",
    log:
        f"{OUT}/logs/studies.log",
    params:
        source="lineage" if LINEAGE else "list",
        lineage=LINEAGE,
        studies=STUDIES,
        max_studies=["--max", str(MAX_STUDIES)] if MAX_STUDIES else [],
        pipeline=PIPELINE,
    resources:
        api_slots=1,
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        "if [ {params.source} = lineage ]; then "
        "mgnify_paced --format tsv --columns accession {params.max_studies:q} v2 studies list "
        "--lineage {params.lineage:q} --pipeline {params.pipeline:q} 2> {log:q} "
        "| tail -n +2 > {output:q}; "
        "else printf '%s\\n' {params.studies:q} > {output:q} 2> {log:q}; fi; "
        "[ -s {output:q} ] || {{ echo 'no studies' >> {log:q}; exit 1; }}"


# One manifest for all the studies, so that the shards balance across them.
rule manifest:
    input:
        f"{OUT}/studies.txt",
    output:
        f"{OUT}/manifest.tsv",
    log:
        f"{OUT}/logs/manifest.log",
    params:
        pipeline=PIPELINE,
        groups=[arg for g in DOWNLOAD_GROUPS for arg in ("-g", g)],
        folder=f"{OUT}/manifests",
    resources:
        api_slots=1,
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        "mkdir -p {params.folder:q}; : > {log:q}; parts=(); "
        "while read -r study; do "
        'part={params.folder:q}/"$study".tsv; '
        'mgnify_paced --format tsv downloads "$study" -p {params.pipeline:q} {params.groups:q} '
        '--manifest "$part" > /dev/null 2>> {log:q}; '
        'parts+=("$part"); '
        "done < {input:q}; "
        "awk 'FNR == 1 && NR != 1 {{ next }} {{ print }}' \"${{parts[@]}}\" > {output:q}"
