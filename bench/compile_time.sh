#!/usr/bin/env bash
# What our headers cost the programs that include them: wall time and peak
# memory of one `-O2 -c` compile per translation unit, all measured in one run.
#
#   bench/compile_time.sh [--before GIT-REF] [--runs N] [--only REGEX] [--out FILE] [--no-write]
#
# Units: the dependency baseline (nlohmann/json + simdjson + curl, nothing of
# ours), each client header alone, each models header alone, the service
# umbrellas, mgnify.hpp, and every program in examples/, the README's first program
# (examples/first_program.cpp) first. Each unit is compiled
# in both build modes of include/mgnify/config.hpp: header-only (the default)
# and with MGNIFY_SEPARATE_COMPILATION, where the bodies are compiled once, in
# the library's units, src/*.cpp (a row each: what a program pays once; CMake
# compiles them in parallel). Each unit is compiled
# N times (default 1; the median is reported), and with --before the same unit
# of GIT-REF (checked out in a temporary worktree, header-only) is compiled
# right after it, so all sides see the same machine load. Ratios are against
# the baseline of the same run; each mode's targets (header-only: client header
# 3.0x, mgnify.hpp 4.0x, an example 4.0x; separate: 1.5x, 2.0x, 2.5x) are
# checked against them. The table is
# printed and written into BENCHMARKS.md between the compile-time markers (or
# into --out FILE); --no-write only prints it. --only keeps the units whose
# name matches REGEX (and the baseline), and implies --no-write.
# CXX picks the compiler (default g++); CXXFLAGS_EXTRA adds flags.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before=""
runs=1
out="$root/BENCHMARKS.md"
write=1
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --out) out="$2"; shift ;;
    --no-write) write=0 ;;
    --only) only="$2"; write=0; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$runs" in ''|*[!0-9]*|0) echo "--runs takes a whole number from 1" >&2; exit 2 ;; esac

cxx="${CXX:-g++}"
work="$(mktemp -d)"
cleanup() {
  if [ -n "$before" ] && [ -d "$work/before" ]; then
    git -C "$root" worktree remove --force "$work/before" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "$before" ]; then
  before_label="$(git -C "$root" rev-parse --short "$before")"
  git -C "$root" worktree add --detach "$work/before" "$before" >/dev/null 2>&1
fi

# name|kind|what: kind "dep" is literal code, "header" a path under include/,
# "example" a path under examples/.
units=("dependency baseline|dep|#include <nlohmann/json.hpp>
#include <simdjson.h>
#include <curl/curl.h>")
for h in proteins/client.hpp v1/client.hpp v2/client.hpp \
         proteins/models.hpp \
         v1/studies.hpp v1/samples.hpp v1/analyses.hpp v1/genomes.hpp v1/annotations.hpp \
         v2/studies.hpp v2/samples.hpp v2/analyses.hpp v2/genomes.hpp v2/runs.hpp v2/assemblies.hpp \
         v2/biomes.hpp v2/publications.hpp v2/super_studies.hpp v2/downloads.hpp \
         proteins.hpp v1.hpp v2.hpp mgnify.hpp; do
  units+=("<mgnify/$h>|header|mgnify/$h")
done
for unit in "$root"/src/*.cpp; do
  units+=("src/$(basename "$unit"), once per program|source|src/$(basename "$unit")")
done
# The README's first program leads the examples: what a newcomer's first compile costs.
units+=("examples/first_program.cpp, the README's program|example|first_program.cpp")
for e in "$root"/examples/*.cpp; do
  [ "$(basename "$e")" = first_program.cpp ] && continue
  units+=("examples/$(basename "$e")|example|$(basename "$e")")
done

if [ -n "$only" ]; then
  kept=("${units[0]}")
  for u in "${units[@]:1}"; do
    if [[ "${u%%|*}" =~ $only ]]; then kept+=("$u"); fi
  done
  units=("${kept[@]}")
fi

python3 - "$cxx" "$runs" "$root" "${before:+$work/before}" "${CXXFLAGS_EXTRA:-}" "${units[@]}" \
  >"$work/table.md" <<'PY'
import os, shlex, statistics, subprocess, sys, time

cxx, runs, root, before_root, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
units = [u.split("|", 2) for u in sys.argv[6:]]
tmp = os.environ.get("TMPDIR", "/tmp")

def source_for(tree, kind, what):
    """The translation unit to compile in `tree`, or None where that tree lacks it."""
    if kind == "dep":
        path = os.path.join(tmp, "mgnify_compile_dep_%d.cpp" % os.getpid())
        with open(path, "w") as f:
            f.write(what + "\nint main() { return 0; }\n")
        return path
    if kind == "header":
        if not os.path.exists(os.path.join(tree, "include", what)):
            return None
        path = os.path.join(tmp, "mgnify_compile_hdr_%d.cpp" % os.getpid())
        with open(path, "w") as f:
            f.write("#include <%s>\nint main() { return 0; }\n" % what)
        return path
    if kind == "source":
        path = os.path.join(tree, what)
        return path if os.path.exists(path) else None
    path = os.path.join(tree, "examples", what)
    return path if os.path.exists(path) else None

def compile_once(tree, source, separate):
    cmd = [cxx, "-std=c++17", "-O2", "-c", "-o", os.devnull,
           "-I", os.path.join(tree, "include"), "-I", os.path.join(tree, "examples"),
           source] + shlex.split(extra)
    if separate:
        cmd.append("-DMGNIFY_SEPARATE_COMPILATION")
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    if proc.returncode != 0:
        sys.stderr.write("compile failed: %s\n%s\n" % (" ".join(cmd), err[-2000:]))
        sys.exit(1)
    return elapsed, usage.ru_maxrss / 1024.0  # ru_maxrss is in KiB on Linux

def measure(tree, kind, what, separate=False):
    source = source_for(tree, kind, what) if tree else None
    if source is None:
        return None
    samples = [compile_once(tree, source, separate) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)

def targets_of(kind, what):
    """(header-only target, separate target) as ratios to the baseline, or None."""
    if kind == "example":
        return 4.0, 2.5
    if kind == "header" and what.endswith("/client.hpp"):
        return 3.0, 1.5
    if kind == "header" and what == "mgnify/mgnify.hpp":
        return 4.0, 2.0
    return None

rows = []
for name, kind, what in units:
    # The baseline has no code of ours and the compiled source exists only in
    # the separate mode: one measurement each.
    header_only = measure(root, kind, what) if kind != "source" else None
    separate = measure(root, kind, what, separate=True) if kind != "dep" else None
    then = measure(before_root, kind, what) if before_root and kind != "source" else None
    rows.append((name, kind, what, header_only, separate, then))
    sys.stderr.write("%-40s %s | %s\n" % (name, "%.2f s" % header_only[0] if header_only else "-",
                                           "%.2f s" % separate[0] if separate else "-"))

base_now = rows[0][3]
base_then = rows[0][5]

def cell(m, base):
    if m is None:
        return "—", "—", "—"
    return "%.2f s" % m[0], "%.0f MB" % m[1], "%.2fx" % (m[0] / base[0])

def verdict(targets, header_only, separate):
    """The targets and, per mode, whether its ratio meets its own target."""
    if targets is None:
        return "", ""
    results = []
    for mode, m, target in (("header-only", header_only, targets[0]),
                            ("separate", separate, targets[1])):
        if m is not None:
            results.append("%s %s" % (mode, "met" if m[0] / base_now[0] <= target else "**missed**"))
    return "≤ %.1fx / ≤ %.1fx" % targets, ", ".join(results)

head = ("| Translation unit | Header-only: time | memory | vs baseline"
        " | Separate: time | memory | vs baseline | Target (header-only / separate) | Met |")
rule = "|---|---|---|---|---|---|---|---|---|"
if before_root:
    head += " Before: time | Before: memory | Before: vs baseline | Header-only now vs before |"
    rule += "---|---|---|---|"
print(head)
print(rule)
for name, kind, what, header_only, separate, then in rows:
    line = "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        (name,) + cell(header_only, base_now) + cell(separate, base_now)
        + verdict(targets_of(kind, what), header_only, separate))
    if before_root:
        change = "%.2fx" % (header_only[0] / then[0]) if then and header_only else "—"
        line += " %s | %s | %s | %s |" % (cell(then, base_then) + (change,))
    print(line)
PY

compiler_line="$("$cxx" --version | head -n 1)"
{
  echo "<!-- compile-time: begin (written by bench/compile_time.sh) -->"
  echo "## Compile cost"
  echo
  runs_flag=""
  [ "$runs" = 1 ] || runs_flag=" --runs $runs"
  only_flag=""
  [ -z "$only" ] || only_flag=" --only '$only'"
  echo "Generated by \`bench/compile_time.sh${before:+ --before $before_label}$runs_flag$only_flag\` on" \
       "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $compiler_line. One \`-std=c++17 -O2 -c\`" \
       "per translation unit (median of $runs); a header row is a file that includes only that header." \
       "Separate means \`-DMGNIFY_SEPARATE_COMPILATION\`: the program also compiles the library's units \`src/*.cpp\` once" \
       "(their rows; CMake builds them in parallel), and [docs/compile_cost.md](docs/compile_cost.md) says which header to include for what." \
       "The baseline includes only nlohmann/json, simdjson and curl: what any program using those" \
       "libraries pays anyway. Ratios compare with the baseline of the same run."
  echo
  cat "$work/table.md"
  echo "<!-- compile-time: end -->"
} >"$work/section.md"

cat "$work/section.md"
if [ "$write" = 1 ]; then
  python3 - "$out" "$work/section.md" <<'PY'
import os, re, sys
out, section_path = sys.argv[1], sys.argv[2]
section = open(section_path).read()
text = open(out).read() if os.path.exists(out) else "# Benchmarks\n"
pattern = re.compile(r"<!-- compile-time: begin.*?<!-- compile-time: end -->\n", re.S)
if pattern.search(text):
    text = pattern.sub(lambda _: section, text)
elif "\n## Notes\n" in text:  # where bench/harness.py keeps it: right after the results
    at = text.index("\n## Notes\n") + 1
    text = text[:at] + section + "\n" + text[at:]
else:
    text = text.rstrip("\n") + "\n\n" + section
open(out, "w").write(text)
PY
  echo "wrote the compile-cost table into $out"
fi
