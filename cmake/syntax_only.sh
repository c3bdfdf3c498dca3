#!/bin/sh
# Compiler launcher of the header check (tests/CMakeLists.txt): runs the compile
# command it is given with -fsyntax-only, so each header is parsed and checked
# but no object code is generated, then leaves an empty file where the object
# would be, for the build tool to see the step done.
set -e
out=""
prev=""
for arg in "$@"; do
  if [ "$prev" = "-o" ]; then out="$arg"; fi
  prev="$arg"
done
"$@" -fsyntax-only
if [ -n "$out" ]; then : >"$out"; fi
