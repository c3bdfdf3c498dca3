#!/usr/bin/env python3
"""What the compiler's allocator costs a build tree: each sampled compile of the
tree run as configured (the launcher of scripts/configure.sh --mimalloc) and
with the compiler alone, one right after the other, in one run.

    bench/compiler_malloc.py BUILD_DIR [--units N] [--runs R]

BUILD_DIR is a tree configured with --mimalloc (scripts/test.sh, tsan.sh and
fuzz.sh configure theirs so). Takes N of its compile commands (default 12),
spread over the tree in the order Ninja lists them, so that the header check,
the library's units, the unity batches of the tests and the examples are all
among them; runs each R times (default 1) both ways, alternating which goes
first, and sums the CPU time (user + system) of each way. The ratio is the
launcher's CPU over the compiler's alone; under 1 is a gain. Object files go to
a temporary folder: the tree is not touched.
"""

import argparse
import json
import os
import pathlib
import resource
import shlex
import subprocess
import sys
import tempfile


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args, cwd):
    before = children_cpu()
    done = subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        sys.exit(f"compiler_malloc.py: failed in {cwd}: {shlex.join(args)}\n{done.stderr}")
    return children_cpu() - before


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--units", type=int, default=12)
    parser.add_argument("--runs", type=int, default=1)
    options = parser.parse_args()
    build = pathlib.Path(options.build)
    cache = (build / "CMakeCache.txt").read_text()
    launcher_lines = [line for line in cache.splitlines()
                      if line.startswith("CMAKE_CXX_COMPILER_LAUNCHER:")]
    launcher = launcher_lines[0].split("=", 1)[1].split(";") if launcher_lines else []
    if not launcher or "LD_PRELOAD" not in " ".join(launcher):
        sys.exit(f"compiler_malloc.py: {build} has no mimalloc launcher "
                 "(scripts/configure.sh --mimalloc)")
    listing = subprocess.run(["ninja", "-C", str(build), "-t", "compdb"], check=True,
                             capture_output=True, text=True).stdout
    compiles = [entry for entry in json.loads(listing)
                if entry["file"].endswith((".cpp", ".cxx")) and " -c " in entry["command"]]
    if len(compiles) < options.units:
        sys.exit(f"compiler_malloc.py: {len(compiles)} compile commands in {build}")
    step = len(compiles) / options.units
    sample = [compiles[int(i * step)] for i in range(options.units)]

    totals = {"launcher": 0.0, "alone": 0.0}
    with tempfile.TemporaryDirectory() as scratch:
        print(f"{'launcher':>9} {'alone':>7}  unit (CPU-s)")
        for index, entry in enumerate(sample):
            words = shlex.split(entry["command"])
            # The compile as Ninja runs it, from the compiler on: the launchers (this one,
            # and the header check's syntax_only.sh) come first.
            compiler = next(i for i, word in enumerate(words) if word.endswith(("clang++", "g++", "c++")))
            output = os.path.join(scratch, f"{index}.o")
            args = words[compiler:]
            args[args.index("-o") + 1] = output
            for flag in ("-MD", "-MMD"):
                while flag in args:
                    args.remove(flag)
            for flag in ("-MF", "-MT", "-MQ"):
                while flag in args:
                    at = args.index(flag)
                    del args[at:at + 2]
            if any(word.endswith("syntax_only.sh") for word in words[:compiler]):
                args.append("-fsyntax-only")
            ways = {"launcher": launcher + args, "alone": args}
            spent = {"launcher": 0.0, "alone": 0.0}
            for run in range(options.runs):
                order = ["launcher", "alone"] if (index + run) % 2 == 0 else ["alone", "launcher"]
                for way in order:
                    spent[way] += timed(ways[way], entry["directory"])
            for way in spent:
                totals[way] += spent[way]
            name = os.path.relpath(entry["file"], entry["directory"])
            print(f"{spent['launcher']:9.1f} {spent['alone']:7.1f}  {name}", flush=True)
    ratio = totals["launcher"] / totals["alone"]
    print(f"{totals['launcher']:9.1f} {totals['alone']:7.1f}  all {options.units} units, "
          f"{options.runs} run(s) each: the launcher's CPU is {ratio:.2f} of the compiler's alone")


if __name__ == "__main__":
    main()
