#!/usr/bin/env python3
"""What a build tree costs to compile, by part, from ninja's log.

    bench/build_weight.py BUILD_DIR [--before OTHER_BUILD_DIR] [--top N]

Sums the compile time of every step recorded in BUILD_DIR/.ninja_log (each
output's latest run, so an incremental build still shows what the whole tree
costs) and groups it by what the step builds: the header check, the library's
units, the test programs, the mock, the CLI, the examples, the fuzz binary and
the links. The summed time divided by the cores is close to the wall time of a
clean build (the build is compile-bound): what `./scripts/test.sh` and CI pay. With --before, a
second tree (for example the same build of an earlier commit) is shown beside
it, each part as a ratio. Times are those of the machine and the moment each
step ran, so compare trees built one after the other.
"""

import argparse
import collections
import os
import pathlib
import re
import sys

# (part, pattern on the CMake target that built the object); the first match wins.
PARTS = [
    ("header check (a unit per public header, -fsyntax-only)", r"^mgnify_header_units$"),
    ("library units (src/)", r"^mgnify$"),
    ("test programs", r"^mgnify_(\w+_tests(_objects)?|catch_main|header_check)$"),
    ("mock service", r"^mgnify[-_]mock"),
    ("CLI", r"^mgnify-cli$"),
    ("live check", r"^mgnify-live-check$"),
    ("fuzz binary and seeds", r"^mgnify_fuzz"),
    ("benchmarks", r"^mgnify_(sdk_bench|baseline_\w+)$"),
]
EXAMPLES = "examples (one program each)"
LINKS = "links, precompiled headers and other steps"


Step = collections.namedtuple("Step", "seconds output")


def read_steps(build):
    """Each output's latest step; a step with several outputs (same times, same command) once."""
    log = pathlib.Path(build) / ".ninja_log"
    if not log.is_file():
        sys.exit(f"build_weight.py: no {log}: build the tree with ninja first")
    latest = {}
    for line in log.read_text().splitlines():
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            continue
        start, end, _, output, command_hash = fields
        latest[output] = (int(start), int(end), command_hash)
    steps = {}
    for output, (start, end, command_hash) in latest.items():
        steps.setdefault((start, end, command_hash), Step((end - start) / 1000.0, output))
    return list(steps.values())


def part_of(output):
    path = output.replace("\\", "/")
    match = re.search(r"(?:^|/)CMakeFiles/([^/]+)\.dir/", path)
    if not match or not re.search(r"\.(o|obj)$", path):
        return LINKS
    target = match.group(1)
    if path.startswith("examples/") or "/examples/" in path:
        return EXAMPLES
    for part, pattern in PARTS:
        if re.search(pattern, target):
            return part
    return f"other: {target}"


def weigh(build):
    seconds = collections.Counter()
    units = collections.Counter()
    longest = {}
    for step in read_steps(build):
        part = part_of(step.output)
        seconds[part] += step.seconds
        units[part] += 1
        if part not in longest or step.seconds > longest[part].seconds:
            longest[part] = step
    return seconds, units, longest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--before", help="another build tree, shown beside BUILD")
    parser.add_argument("--top", type=int, default=12, help="parts listed (default 12)")
    args = parser.parse_args()
    if args.top < 1:
        parser.error("--top takes a whole number from 1")

    seconds, units, longest = weigh(args.build)
    before = weigh(args.before)[0] if args.before else None
    total = sum(seconds.values())
    cores = os.cpu_count() or 1
    print(f"build weight of {args.build}: {total:,.0f} s of compile summed over "
          f"{sum(units.values())} steps (on {cores} cores, about {total / cores:,.0f} s of wall)")
    header = f"  {'part':<58} {'seconds':>8} {'steps':>6}"
    if before is not None:
        header += f" {'before':>8} {'ratio':>6}"
    print(header + "  longest step")
    parts = sorted(set(seconds) | set(before or {}), key=lambda p: -seconds.get(p, 0.0))
    for part in parts[: args.top]:
        row = f"  {part:<58} {seconds.get(part, 0.0):8.1f} {units.get(part, 0):6d}"
        if before is not None:
            was = before.get(part, 0.0)
            ratio = f"{seconds.get(part, 0.0) / was:5.2f}x" if was > 0 else "   new"
            row += f" {was:8.1f} {ratio:>6}"
        if part in longest:
            row += f"  {longest[part].seconds:.1f} s {longest[part].output}"
        print(row)
    rest = parts[args.top:]
    if rest:
        print(f"  ... {len(rest)} more parts, {sum(seconds.get(p, 0.0) for p in rest):.1f} s")
    if before is not None:
        was = sum(before.values())
        print(f"  {'all':<58} {total:8.1f} {sum(units.values()):6d} {was:8.1f} "
              f"{total / was if was else 0:5.2f}x")


if __name__ == "__main__":
    main()
