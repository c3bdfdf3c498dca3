#!/usr/bin/env bash
# g++ with -Wall -Wextra -Wpedantic -Werror over every translation unit of the project,
# parsed and checked (-fsyntax-only), no object code: the library's
# units (every body of the SDK), the tests, the mock, the CLI, the live check, the
# examples and the header check's unit that instantiates every client body
# header-only, with the umbrella header's unit. The examples are parsed as a
# separate-mode program parses them, against the library's declarations: the
# bodies a header-only build of them adds are the ones the library's units and
# that header-check unit already check, and parsing them again in each example
# would double the examples' share of this step. clang++ builds the examples
# header-only in CI's main tree.
#
#   ./scripts/gcc_check.sh
#
# CI builds and runs everything with clang++ (ASan + UBSan, scripts/test.sh --clang),
# which generates code about twice as fast as g++ at -O0 with the sanitizers; this keeps
# g++'s warnings on every line at a fraction of a g++ build. The warnings g++ gives only
# while optimising are not among them; at -O0, the tests' level, it gives almost none.
# Each public header's own unit (the self-containment check) is compiled in the clang++
# tree; here only the two above.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

./scripts/deps.sh build

build="build/gcc-check"
started=$SECONDS
# Configured only for its compile commands: nothing in this tree is built. Without a
# precompiled header (each command parses what it includes itself).
./scripts/configure.sh "$build" \
  -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DMGNIFY_WARNINGS_AS_ERRORS=ON \
  -DMGNIFY_SEPARATE_COMPILATION=ON \
  -DMGNIFY_PRECOMPILE_HEADERS=OFF
# Every compile command with -fsyntax-only, one per core at a time. Of the header check's
# units, the two that reach every body.
python3 - "$build/compile_commands.json" "$(nproc)" <<'PY'
import concurrent.futures, json, shlex, subprocess, sys

commands = json.load(open(sys.argv[1]))
keep = [c for c in commands
        if "/header_check/" not in c["file"]
        or c["file"].endswith(("/client_bodies.cpp", "/mgnify_mgnify_hpp.cpp"))]
# The unity batches of the tests are the longest: first, so that none ends the run alone.
keep.sort(key=lambda c: "/Unity/" not in c["file"])
if len(keep) < 40:
    sys.exit(f"gcc_check.sh: only {len(keep)} translation units in {sys.argv[1]}")

# g++ collects its heap many times over a unit of this size; a unit here peaks under 2 GB
# without any collection, and is checked in about nine tenths of the time.
NO_COLLECTION = ["--param", "ggc-min-heapsize=4194304", "--param", "ggc-min-expand=100000"]

def check(entry):
    given = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    args = []  # the command without its outputs: no object, no dependency file
    operands = iter(given)
    for arg in operands:
        if arg in ("-o", "-MF", "-MT", "-MQ"):
            next(operands, None)
        elif arg not in ("-MD", "-MMD"):
            args.append(arg)
    if "/examples/" in entry["file"]:
        args.append("-DMGNIFY_SEPARATE_COMPILATION")
    done = subprocess.run(args + ["-fsyntax-only"] + NO_COLLECTION, cwd=entry["directory"],
                          capture_output=True, text=True)
    return entry["file"], done.returncode, done.stderr

failed = 0
with concurrent.futures.ThreadPoolExecutor(int(sys.argv[2])) as pool:
    for file, code, stderr in pool.map(check, keep):
        if code != 0 or stderr:
            failed += 1
            print(f"gcc_check.sh: {file}\n{stderr}", file=sys.stderr)
print(f"gcc_check.sh: {len(keep)} translation units, {failed} with errors or warnings")
sys.exit(1 if failed else 0)
PY
echo "gcc_check.sh: done in $((SECONDS - started)) s"
