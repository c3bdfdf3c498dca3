#!/usr/bin/env python3
"""Every documented recipe, run: the shell code blocks of docs/cli.md and the
EXAMPLES of the man page (as `mgnify _generate man` writes it) against
mgnify-mock, with the accessions they show, and the R and Python one-liners
beside them with the real readers (pandas, readr, phyloseq, vegan, biom).

The commands are read from the two sources, never copied here, so a recipe
that stops working fails this test. The only changes made to a command are
`--rate-limit 0` (the mock needs no pacing; not where --total-rate is given)
and the placeholders of PLACEHOLDERS, each of which must still occur in the
docs. Blocks run in document order in one directory, so a one-liner reads
the file the recipe before it wrote.

Usage: recipes_test.py MGNIFY MOCK SOURCE_DIR READER_PYTHON [RSCRIPT]
Exit 0 when all ran, 1 on a failure, 77 (skipped) when all that could run
passed but a reader is missing; each skipped snippet is named on stderr.
"""

import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
TIMEOUT = 600

MGNIFY, MOCK, SOURCE = (os.path.abspath(p) for p in sys.argv[1:4])
READER_PYTHON = sys.argv[4]
# A path where Rscript is not (yet) installed counts as none.
RSCRIPT = sys.argv[5] if len(sys.argv) > 5 and os.path.exists(sys.argv[5]) else ""

failures = []
skipped = []


def fail(what, detail):
    failures.append(f"{what}\n{detail}")
    print(f"FAIL: {what}\n{detail}", file=sys.stderr)


def dna(length, seed):
    rng = random.Random(seed)
    return "".join(rng.choice("ACGT") for _ in range(length))


# ---- the sources ---------------------------------------------------------------


def markdown_blocks(path):
    """(language, text, first line number) of each fenced block."""
    blocks, lang, lines, start = [], None, [], 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                if lang is None:
                    lang, lines, start = line[3:].strip(), [], number + 1
                else:
                    blocks.append((lang, "".join(lines), start))
                    lang = None
                continue
            if lang is not None:
                lines.append(line)
    return blocks


def roff_text(line):
    line = line.replace("\\-", "-").replace("\\e", "\\")
    return line[2:] if line.startswith("\\&") else line


def man_examples(page):
    """The command of each EXAMPLES entry (.nf ... .fi)."""
    section = page.split(".SH EXAMPLES\n", 1)[1].split("\n.SH ", 1)[0]
    return [roff_text(c.strip()) for c in re.findall(r"\.nf\n(.*?)\n\.fi", section, re.S)]


# ---- the mock and the inputs the recipes name ------------------------------------


def start_mock(work):
    log = open(os.path.join(work, "mock.err"), "w")
    mock = subprocess.Popen([MOCK, "--latency-ms", "0"], stdout=subprocess.PIPE, stderr=log,
                            text=True)
    urls = {}
    for _ in range(3):
        line = mock.stdout.readline()
        if not line:
            break
        name, url = line.split()
        urls[name] = url
    if set(urls) != {"proteins", "v1", "v2"}:
        mock.kill()
        sys.exit(f"the mock did not start: {urls}")
    return mock, urls


PROTEIN = "MKVLAAGIVGLLLASSAFAQEEKKPETVTLTGKVVDAEGNPVAGATVTVKGTDKTTQTDAQGNFSLSV"


def write_inputs(work):
    with open(os.path.join(work, "query.fasta"), "w") as f:
        f.write(">query\n" + PROTEIN + "\n")
    with open(os.path.join(work, "contigs.fa"), "w") as f:
        f.write(">contig1\n" + dna(120, 1) + "\n>contig2\n" + dna(120, 2) + "\n")
    signature = [{"class": "sourmash_signature", "email": "", "hash_function": "0.murmur64",
                  "filename": "sample.fa", "name": "sample", "license": "CC0",
                  "signatures": [{"num": 0, "ksize": 31, "seed": 42,
                                  "max_hash": 18446744073709552, "mins": [11, 22, 33],
                                  "md5sum": "0123456789abcdef", "molecule": "DNA"}],
                  "version": 0.4}]
    for name in ("sample.fa.sig", "sample.sig"):
        with open(os.path.join(work, name), "w") as f:
            json.dump(signature, f)


def gather_job(env, work):
    """The id of a gather job the mock ran, for the recipe that collects one."""
    run = subprocess.run([MGNIFY, "--rate-limit", "0", "genome", "gather", "sample.sig",
                          "--catalogue", "human-gut-v2-0", "--progress"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=TIMEOUT)
    found = re.search(r"gather: job (\S+):", run.stderr)
    if run.returncode != 0 or not found:
        sys.exit(f"could not run a gather job for the --job recipe: {run.stderr}")
    return found.group(1)


# A placeholder of the docs and what stands for it here; each must occur in the docs.
def placeholders(job):
    return {
        "ACGTTGCA...": dna(100, 3),
        "8c0a6c8e-...": job,
        "MGNIFY_TOKEN=...": "MGNIFY_TOKEN=mock-valid-token-Webin-12345",
    }


# ---- running ---------------------------------------------------------------------

SHELL_PRELUDE = r"""
set -eo pipefail
mgnify() {
  case " $* " in
    *" --total-rate "*) "$RECIPE_MGNIFY" "$@" ;;
    *) "$RECIPE_MGNIFY" --rate-limit 0 "$@" ;;
  esac
}
python3() { "$RECIPE_PYTHON" "$@"; }
# The exit-code recipe reads its accession from $acc.
acc=MGYS00000001
# The Slurm recipe runs as task 1 of an array of 4, with every variable sbatch --array=1-4 sets.
export SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=4 SLURM_ARRAY_TASK_COUNT=4
trap 'echo "failed (exit $?): $BASH_COMMAND" >&2' ERR
"""


# Whether a reader has a module or package is asked without loading it (phyloseq takes
# seconds to load), once per name; one that is there but broken fails where it is used.
@functools.lru_cache(maxsize=None)
def python_has(module):
    check = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
    return subprocess.run([READER_PYTHON, "-c", check], capture_output=True).returncode == 0


@functools.lru_cache(maxsize=None)
def r_has(package):
    if not RSCRIPT:
        return False
    check = f'quit(status = if (nzchar(system.file(package = "{package}"))) 0 else 1)'
    return subprocess.run([RSCRIPT, "-e", check], capture_output=True).returncode == 0


def missing_python(text):
    return [m for m in sorted(set(re.findall(r"import (\w+)", text))) if not python_has(m)]


def missing_r(text):
    if not RSCRIPT:
        return ["Rscript"]
    return [p for p in sorted(set(re.findall(r"(\w+)::", text))) if not r_has(p)]


def substitute(text, values, where):
    for placeholder, value in values.items():
        text = text.replace(placeholder, value)
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        command = line.split("  #")[0]
        if "..." in command:
            fail(where, f"a placeholder this test does not fill: {line}")
            return None
    return text


def run_shell(text, env, work, where):
    # A one-liner whose reader is missing is left out, and reported skipped.
    lines = []
    for line in text.splitlines():
        absent = missing_python(line) if line.lstrip().startswith("python3 ") else []
        if absent:
            skipped.append(f"{where}: {line.strip()[:60]}... ({', '.join(absent)} missing)")
            continue
        lines.append(line)
    run = subprocess.run(["bash", "-c", SHELL_PRELUDE + "\n".join(lines) + "\n"], cwd=work,
                         env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if run.returncode != 0:
        fail(where, f"exit {run.returncode}\n{text}\nstderr:\n{run.stderr[-3000:]}")


def run_transcript(text, env, work, where):
    """A block showing `$ command` and what it prints: the first line of stdout
    (up to a trailing ...) and every `mgnify:` line of stderr must be as shown."""
    lines = text.splitlines()
    command = lines[0][2:]
    script = SHELL_PRELUDE + "set +e\ntrap - ERR\n" + command + "\n"
    run = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                         text=True, timeout=TIMEOUT)
    shown_out = [l for l in lines[1:] if not l.startswith("mgnify:")]
    shown_err = [l for l in lines[1:] if l.startswith("mgnify:")]
    out = run.stdout.splitlines()
    if shown_out:
        prefix = shown_out[0].split("...")[0]
        if not out or not out[0].startswith(prefix):
            fail(where, f"stdout starts {out[:1]}, the docs show {shown_out[0]!r}")
    if run.stderr.splitlines() != shown_err:
        fail(where, f"stderr is\n{run.stderr}the docs show\n" + "\n".join(shown_err))


# What a one-liner must also give, beyond running: the checks are appended to it.
R_CHECKS = {
    "phyloseq::import_biom": "stopifnot(phyloseq::ntaxa(ps) > 0, phyloseq::nsamples(ps) > 1)",
    # One Shannon index per sample, not per taxon.
    "vegan::diversity": "stopifnot(identical(names(shannon), phyloseq::sample_names(ps)))",
}
PYTHON_CHECKS = {}


def run_reader(language, text, env, work, where):
    """An R block in Rscript or a Python one in READER_PYTHON, its checks appended."""
    if language == "r":
        absent, program, checks = missing_r(text), [RSCRIPT, "-e"], R_CHECKS
    else:
        absent, program, checks = missing_python(text), [READER_PYTHON, "-c"], PYTHON_CHECKS
    if absent:
        skipped.append(f"{where}: {', '.join(absent)} missing")
        return
    appended = [check for key, check in checks.items() if key in text]
    run = subprocess.run(program + [text + "\n" + "\n".join(appended)], cwd=work, env=env,
                         capture_output=True, text=True, timeout=TIMEOUT)
    if run.returncode != 0:
        fail(where, f"{program[0]} exit {run.returncode}\n{text}\nstderr:\n{run.stderr[-3000:]}")


def main():
    work_root = tempfile.mkdtemp(prefix="mgnify-recipes.")
    mock = None
    try:
        mock, urls = start_mock(work_root)
        env = dict(os.environ)
        env.update({"MGNIFY_PROTEINS_URL": urls["proteins"], "MGNIFY_API_V1_URL": urls["v1"],
                    "MGNIFY_API_V2_URL": urls["v2"], "RECIPE_MGNIFY": MGNIFY,
                    "RECIPE_PYTHON": READER_PYTHON})
        env.pop("MGNIFY_CACHE_DIR", None)

        docs = os.path.join(SOURCE, "docs", "cli.md")
        page = subprocess.run([MGNIFY, "_generate", "man"], capture_output=True, text=True,
                              check=True).stdout
        examples = man_examples(page)
        if len(examples) < 5:
            fail("man page", f"only {len(examples)} EXAMPLES found")

        cli_dir = os.path.join(work_root, "cli")
        man_dir = os.path.join(work_root, "man")
        for d in (cli_dir, man_dir):
            os.mkdir(d)
            write_inputs(d)
        values = placeholders(gather_job(env, cli_dir))
        text_of_docs = open(docs, encoding="utf-8").read()
        for placeholder in values:
            if placeholder not in text_of_docs:
                fail("docs/cli.md", f"placeholder {placeholder!r} no longer occurs: drop it here")

        ran = 0
        for lang, text, line in markdown_blocks(docs):
            where = f"docs/cli.md:{line}"
            if lang == "sh":
                text = substitute(text, values, where)
                if text is not None:
                    run_shell(text, env, cli_dir, where)
                    ran += 1
            elif lang in ("r", "python"):
                run_reader(lang, text, env, cli_dir, where)
                ran += 1
            elif text.startswith("$ mgnify "):
                run_transcript(text, env, cli_dir, where)
                ran += 1
        for n, command in enumerate(examples, 1):
            where = f"man page EXAMPLES #{n}: {command}"
            text = substitute(command, values, where)
            if text is not None:
                run_shell(text, env, man_dir, where)
                ran += 1
        print(f"{ran} recipe blocks and examples run, {len(failures)} failed, "
              f"{len(skipped)} skipped")
    finally:
        if mock:
            mock.terminate()
            try:
                mock.wait(timeout=10)
            except subprocess.TimeoutExpired:
                mock.kill()
        if not os.environ.get("KEEP_WORK"):
            shutil.rmtree(work_root, ignore_errors=True)
        else:
            print(f"kept {work_root}", file=sys.stderr)
    if failures:
        return 1
    for s in skipped:
        print(f"SKIPPED: {s}", file=sys.stderr)
    return SKIP if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
