# The configuration, checked, and what every rule shares.

import os
import shlex
import sys

from snakemake.utils import validate


validate(config, "../schemas/config.schema.yaml")

LINEAGE = config["lineage"]
STUDIES = list(config["studies"])
if bool(LINEAGE) == bool(STUDIES):
    raise ValueError("config: give a biome lineage or a list of studies, not both or neither")
MAX_STUDIES = config["max_studies"]
PIPELINE = config["pipeline"]
GROUP = config["group"]
DOWNLOAD_GROUPS = list(config["download_groups"])
SHARDS = config["shards"]
DATA = os.path.normpath(config["data_dir"])
OUT = os.path.normpath(config["out_dir"])
CACHE = config["cache_dir"] or f"{DATA}/.mgnify-cache"
FORMULA_GUARD = config["formula_guard"] in (True, "true")

ABUNDANCE_TSV = f"{OUT}/tables/{PIPELINE}/{GROUP}/abundance.tsv"
ABUNDANCE_BIOM = f"{OUT}/tables/{PIPELINE}/{GROUP}/abundance.biom"
SAMPLES = f"{OUT}/samples.tsv"


def api_slots():
    """How many mgnify jobs may run at once: one per shard, but no more than
    the cores (--cores) or cluster jobs (--jobs) that can actually run, so that
    each job's share of total_rate is one that is used."""
    slots = SHARDS
    try:
        given = workflow.global_resources
    except AttributeError:  # a Snakemake without it: one slot per shard
        return slots
    if given.get("mgnify_parallel"):
        # A cluster job: its snakemake was given the submitting one's number
        # as a resource of the job (JOB_RESOURCES), its own --cores say nothing.
        return int(given["mgnify_parallel"])
    # Jobs run on this machine share its cores; cluster jobs run up to --jobs at once.
    parallel = given.get("_cores") if getattr(workflow, "run_local", True) else given.get("_nodes")
    for limit in (given.get("api_slots"), parallel):
        if limit and limit != sys.maxsize:
            slots = min(slots, int(limit))
    given["api_slots"] = max(1, slots)
    return given["api_slots"]


API_SLOTS = api_slots()
JOB_RATE = config["total_rate"] / API_SLOTS

# Every rule's mgnify: paced at its share of the budget (a burst of one, so
# that jobs starting together do not send a burst each), answering repeated
# requests from the shared response cache. Values enter the shell only quoted
# (and the prefix is formatted like a shell command, hence the doubled braces).
shell.prefix(
    "set -euo pipefail; "
    f"MGNIFY={shlex.quote(config['mgnify'])}; "
    f"mgnify_paced() {{{{ \"$MGNIFY\" --cache {shlex.quote(CACHE)} "
    f"--rate-limit {JOB_RATE:.6g} --rate-burst 1 \"$@\"; }}}}; "
)

# What each job asks Slurm for (profiles/slurm passes sbatch_extra to sbatch;
# Snakemake 8's Slurm executor reads slurm_partition and slurm_account).
SLURM = config["slurm"]
JOB_RESOURCES = {
    "mem_mb": SLURM["mem_mb"],
    "runtime": SLURM["runtime"],
    "mgnify_parallel": API_SLOTS,
}
_sbatch_extra = []
if SLURM["partition"]:
    JOB_RESOURCES["slurm_partition"] = SLURM["partition"]
    _sbatch_extra.append(f"--partition={SLURM['partition']}")
if SLURM["account"]:
    JOB_RESOURCES["slurm_account"] = SLURM["account"]
    _sbatch_extra.append(f"--account={SLURM['account']}")
JOB_RESOURCES["sbatch_extra"] = " ".join(shlex.quote(a) for a in _sbatch_extra) or "--"


wildcard_constraints:
    i="[1-9][0-9]{0,4}",
