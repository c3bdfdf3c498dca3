#!/usr/bin/env bash
# What our headers cost the programs that include them: wall time and peak
# memory of one `-O2 -c` compile per translation unit, all measured in one run.
#
#   bench/compile_time.sh [--before GIT-REF] [--runs N] [--out FILE] [--no-write]
#
# Units: the dependency baseline (nlohmann/json + simdjson + curl, nothing of
# ours), each client header alone, each models header alone, the service
# umbrellas, mgnify.hpp, and every program in examples/. Each unit is compiled
# N times (default 1; the median is reported), and with --before the same unit
# of GIT-REF (checked out in a temporary worktree) is compiled right after it,
# so both sides see the same machine load. Ratios are against the baseline of
# the same run. The table is printed and written into BENCHMARKS.md between
# the compile-time markers (or into --out FILE); --no-write only prints it.
# CXX picks the compiler (default g++); CXXFLAGS_EXTRA adds flags.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before=""
runs=1
out="$root/BENCHMARKS.md"
write=1
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --out) out="$2"; shift ;;
    --no-write) write=0 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
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
for e in "$root"/examples/*.cpp; do
  units+=("examples/$(basename "$e")|example|$(basename "$e")")
done

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
    path = os.path.join(tree, "examples", what)
    return path if os.path.exists(path) else None

def compile_once(tree, source):
    cmd = [cxx, "-std=c++17", "-O2", "-c", "-o", os.devnull,
           "-I", os.path.join(tree, "include"), "-I", os.path.join(tree, "examples"),
           source] + shlex.split(extra)
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

def measure(tree, kind, what):
    source = source_for(tree, kind, what)
    if source is None:
        return None
    samples = [compile_once(tree, source) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)

rows = []
for name, kind, what in units:
    now = measure(root, kind, what)
    then = measure(before_root, kind, what) if before_root else None
    rows.append((name, now, then))
    sys.stderr.write("%-40s %s\n" % (name, "%.2f s, %.0f MB" % now))

base_now = rows[0][1]
base_then = rows[0][2]

def cell(m, base):
    if m is None:
        return "—", "—", "—"
    return "%.2f s" % m[0], "%.0f MB" % m[1], "%.2fx" % (m[0] / base[0])

head = "| Translation unit | Time | Peak memory | Time vs baseline |"
rule = "|---|---|---|---|"
if before_root:
    head += " Before: time | Before: memory | Before: vs baseline | Now vs before |"
    rule += "---|---|---|---|"
print(head)
print(rule)
for name, now, then in rows:
    line = "| `%s` | %s | %s | %s |" % ((name,) + cell(now, base_now))
    if before_root:
        change = "%.2fx" % (now[0] / then[0]) if then else "—"
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
  echo "Generated by \`bench/compile_time.sh${before:+ --before $before_label}$runs_flag\` on" \
       "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $compiler_line. One \`-std=c++17 -O2 -c\`" \
       "per translation unit (median of $runs); a header row is a file that includes only that header." \
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
