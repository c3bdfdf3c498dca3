#!/usr/bin/env bash
# Builds the Doxygen reference (docs/Doxyfile) into build/docs/html, installing
# doxygen (scripts/deps.sh docs) when it is missing. Any Doxygen warning fails the build.
#   scripts/docs.sh [OUTPUT_DIR]     (default: build/docs)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

./scripts/deps.sh docs

out="${1:-build/docs}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/html"
rm -f "$out/warnings.log"

MGNIFY_VERSION="$(sed -n 's/^#define MGNIFY_VERSION_STRING "\(.*\)"$/\1/p' include/mgnify/version.hpp)"
export MGNIFY_VERSION
export MGNIFY_DOCS_OUT="$out"

status=0
doxygen docs/Doxyfile || status=$?
if [ -s "$out/warnings.log" ]; then
  echo "doxygen warnings:" >&2
  cat "$out/warnings.log" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "doxygen failed with status $status" >&2
  exit "$status"
fi
echo "reference written to $out/html/index.html ($(doxygen --version))"
