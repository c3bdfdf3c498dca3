#!/usr/bin/env python3
"""Where a translation unit's compile time goes, from clang's -ftime-trace.

    clang++ -std=c++17 -O2 -c -ftime-trace -I include unit.cpp -o unit.o
    bench/time_trace.py [--top N] unit.json [more.json ...]

Prints, for each trace: the front end against the back end, the summed phases
(parsing, pending instantiations), the headers whose parse costs most, the
templates whose instantiation costs most, and the functions the optimiser
spends most on (a program's back end: every inline body its calls reach). Template arguments are cut, so a
row is a family: `make_paged<>` sums make_paged<Study>, make_paged<Sample>, ...
with the number of instances and the mean of one, which tells a cost paid once
per model (in header-only mode every model a client's inline bodies name) from
one paid once per file. Times are inclusive: a family's row holds the
instantiations it triggers, so rows overlap and do not add up.
bench/compile_time.sh measures g++, the compiler of the published table;
clang's trace shows the same structure and is the one with per-entry times.
"""

import argparse
import collections
import json
import re
import shutil
import subprocess
import sys

TOTALS = [
    "Total ExecuteCompiler",
    "Total Frontend",
    "Total Source",
    "Total PerformPendingInstantiations",
    "Total InstantiateFunction",
    "Total InstantiateClass",
    "Total Backend",
    "Total CodeGen Function",
    "Total OptModule",
]


def family(detail):
    """A template's name without its arguments: `ns::f<A, B>` -> `ns::f<>`."""
    out, depth = [], 0
    for ch in detail:
        if ch == "<":
            if depth == 0:
                out.append("<>")
            depth += 1
        elif ch == ">" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def header(detail):
    """A parsed file's path from its include directory on."""
    return re.split(r"/include/", detail)[-1]


def demangled(names):
    """`names` demangled by c++filt where it is installed, else as they are."""
    if not names or not shutil.which("c++filt"):
        return names
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines if out.returncode == 0 and len(lines) == len(names) else names


def summarise(path, top):
    events = [e for e in json.load(open(path))["traceEvents"] if e.get("ph") == "X"]
    totals = {e["name"]: e["dur"] / 1e6 for e in events if e["name"].startswith("Total ")}
    print("== %s" % path)
    for name in TOTALS:
        if name in totals:
            print("  %-36s %8.2f s" % (name[len("Total "):], totals[name]))
    for kind, key in (("Source", header), ("ParseClass", family),
                      ("InstantiateFunction", family), ("InstantiateClass", family)):
        seconds, count = collections.defaultdict(float), collections.Counter()
        for e in events:
            if e["name"] == kind:
                name = key(e.get("args", {}).get("detail", ""))
                seconds[name] += e["dur"] / 1e6
                count[name] += 1
        if not seconds:
            continue
        print("  top %s (inclusive s, instances, mean s)" % kind)
        for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]:
            print("    %8.2f %4d %6.3f  %s" % (s, count[name], s / count[name], name[:140]))
    optimised = sorted((e for e in events if e["name"] == "OptFunction"), key=lambda e: -e["dur"])
    if optimised:
        print("  top OptFunction (s; %d functions optimised)" % len(optimised))
        rows = optimised[:top]
        names = demangled([e.get("args", {}).get("detail", "") for e in rows])
        for e, name in zip(rows, names):
            print("    %8.2f  %s" % (e["dur"] / 1e6, family(name)[:140]))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--top", type=int, default=15, help="rows per section (default 15)")
    p.add_argument("traces", nargs="+", help="JSON files written by clang -ftime-trace")
    args = p.parse_args()
    if args.top < 1:
        p.error("--top takes a whole number from 1")
    for path in args.traces:
        summarise(path, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
