# The matrix of every study's analyses and the metadata table of their samples.


# The merge is abundance-table's own: one matrix of every study's analyses
# (union of the features, 0 where an analysis did not find one), from the
# files the shards fetched (found in DATA, not fetched again). The BIOM keeps
# the metadata: study, sample and run accessions and the samples-table fields.
# The second run answers every request from the response cache the first
# filled.
rule abundance:
    input:
        studies=f"{OUT}/studies.txt",
        verified=f"{OUT}/verified.tsv",
    output:
        tsv=ABUNDANCE_TSV,
        biom=ABUNDANCE_BIOM,
    log:
        f"{OUT}/logs/abundance/{PIPELINE}/{GROUP}.log",
    params:
        pipeline=PIPELINE,
        group=GROUP,
        data=DATA,
    resources:
        api_slots=1,
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        "mgnify_paced --format tsv abundance-table --studies-file {input.studies:q} "
        "-p {params.pipeline:q} -g {params.group:q} --dir {params.data:q} "
        "> {output.tsv:q} 2> {log:q}; "
        "mgnify_paced --format json abundance-table --studies-file {input.studies:q} "
        "-p {params.pipeline:q} -g {params.group:q} --dir {params.data:q} "
        "> {output.biom:q} 2>> {log:q}"


# The metadata table beside the matrix: every sample of every study, one row
# each, the study in the first column and the union of the studies' metadata
# columns; pandas and readr read it. Cells a spreadsheet would run as a
# formula are neutralised unless formula_guard is false.
rule samples:
    input:
        f"{OUT}/studies.txt",
    output:
        SAMPLES,
    log:
        f"{OUT}/logs/samples.log",
    params:
        guard=[] if FORMULA_GUARD else ["--no-formula-guard"],
    resources:
        api_slots=1,
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        "mgnify_paced {params.guard:q} samples-table --studies-file {input:q} --format tsv "
        "> {output:q} 2> {log:q}"
