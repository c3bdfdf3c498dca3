#!/usr/bin/env bash
# For maintainers, not run by CI: a short read-only tour of the public MGnify
# services (tools/live_check), so that a change on MGnify's side is found in
# minutes. See docs/live-check.md.
#   ./scripts/live_check.sh [--service proteins|v1|v2]... [--rate PER_SECOND] [--budget SECONDS]
# Exit: 0 clean, 1 findings, 2 bad usage, 3 a service unreachable, 4 build failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build="build/live-check"
if ! { ./scripts/deps.sh demo &&
       ./scripts/configure.sh "$build" -DCMAKE_BUILD_TYPE=Release -DMGNIFY_BUILD_TESTS=OFF \
         -DMGNIFY_BUILD_EXAMPLES=ON -DMGNIFY_BUILD_TOOL=OFF &&
       cmake --build "$build" -j "$(nproc)" --target mgnify-live-check >/dev/null; }; then
  echo "live_check.sh: building tools/live_check failed" >&2
  exit 4
fi
exec "$build/tools/mgnify-live-check" "$@"
