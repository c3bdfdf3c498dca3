# N download shards of the manifest, then the check of all of them.


# Each shard keeps its result log in DATA/.mgnify-results/ (a rerun reads it
# back, and it survives Snakemake deleting the output of a failed job) and
# writes the same report to the rule's output. A second process given the same
# shard (an orphan of an earlier run) stops at the shard's lock.
rule download_shard:
    input:
        f"{OUT}/manifest.tsv",
    output:
        f"{OUT}/shards/shard-{{i}}-of-{SHARDS}.tsv",
    log:
        f"{OUT}/logs/download/shard-{{i}}-of-{SHARDS}.log",
    params:
        data=DATA,
        shard=lambda wildcards: f"{wildcards.i}/{SHARDS}",
    resources:
        api_slots=1,
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        "mgnify_paced download --manifest {input:q} --shard {params.shard:q} --dir {params.data:q} "
        "--results {output:q} > /dev/null 2> {log:q}"


# Every file once, intact, by checksum, size or the sha256 the shards recorded.
rule verify:
    input:
        manifest=f"{OUT}/manifest.tsv",
        shards=expand(f"{OUT}/shards/shard-{{i}}-of-{SHARDS}.tsv", i=range(1, SHARDS + 1)),
    output:
        f"{OUT}/verified.tsv",
    log:
        f"{OUT}/logs/verify.log",
    params:
        data=DATA,
        results=lambda wildcards, input: [a for r in input.shards for a in ("--results", r)],
    resources:
        **JOB_RESOURCES,
    conda:
        "../envs/mgnify.yaml"
    shell:
        '"$MGNIFY" --format tsv verify --manifest {input.manifest:q} --dir {params.data:q} '
        "{params.results:q} > {output:q} 2> {log:q}"
