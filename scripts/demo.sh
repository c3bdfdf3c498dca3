#!/usr/bin/env bash
# Builds the examples, the CLI and the mock service, starts the mock on a free loopback
# port, runs every example and the CLI against it, and stops the mock.
#   ./scripts/demo.sh                   build in build/demo, then run
#   ./scripts/demo.sh --build-dir DIR   an existing build tree instead
#   ... --build-dir DIR --no-build      run what DIR has built, building nothing (the
#                                       test examples.against_mock, which is how CI
#                                       runs the demo, in its sanitizer test build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build="build/demo"
build_first=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="${2:?--build-dir needs a folder}"; shift ;;
    --no-build) build_first=0 ;;
    *) echo "usage: $0 [--build-dir DIR [--no-build]]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$build_first" = 1 ]; then
  # The compiler, the libraries' -dev packages and python3: none of the tests' readers
  # and engines (scripts/deps.sh).
  ./scripts/deps.sh demo
  # The SDK's bodies compiled once, into the library of MGNIFY_SEPARATE_COMPILATION, in
  # units that keep every core busy, which the examples, the CLI and the mock link: built
  # header-only, each example would compile those bodies again. -O1 (CMAKE_BUILD_TYPE
  # Release is -O3) costs 0.6 times the compile and leaves the programs far faster than
  # the mock they talk to. docs/maintainers.md has the figures.
  ./scripts/configure.sh "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DMGNIFY_BUILD_TESTS=OFF -DMGNIFY_BUILD_MOCK=ON -DMGNIFY_BUILD_EXAMPLES=ON -DMGNIFY_BUILD_TOOL=ON \
    -DMGNIFY_SEPARATE_COMPILATION=ON -DMGNIFY_EXAMPLES_HEADER_ONLY=OFF
  cmake --build "$build" -j "$(nproc)" --target mgnify-mock mgnify_examples mgnify-cli mgnify-cli-docs
fi
# What docs/cli.md tells a new user to load and read, and what `cmake --install` installs.
generated="$build/tools/mgnify/generated"
for file in mgnify.bash _mgnify mgnify.1; do
  if [ ! -s "$generated/$file" ]; then
    echo "demo: $generated/$file was not generated" >&2
    exit 1
  fi
done

urls="$(mktemp)"
"$build/tools/mock/mgnify-mock" --port 0 >"$urls" &
mock_pid=$!
trap 'kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; rm -f "$urls"' EXIT
for _ in $(seq 1 100); do
  [ "$(wc -l <"$urls")" -ge 3 ] && break
  sleep 0.05
done
export MGNIFY_PROTEINS_URL="$(awk '$1=="proteins"{print $2}' "$urls")"
export MGNIFY_API_V1_URL="$(awk '$1=="v1"{print $2}' "$urls")"
export MGNIFY_API_V2_URL="$(awk '$1=="v2"{print $2}' "$urls")"
# An example given an empty URL falls back to EBI's public service: without all
# three loopback URLs of the mock, nothing runs.
for url in "$MGNIFY_PROTEINS_URL" "$MGNIFY_API_V1_URL" "$MGNIFY_API_V2_URL"; do
  case "$url" in
    http://127.0.0.1:*|http://\[::1\]:*) ;;
    *)
      echo "demo: the mock did not start on the loopback interface within 5 s (its URLs: $(tr '\n' ' ' <"$urls"))" >&2
      exit 1
      ;;
  esac
done
echo "mock service: $MGNIFY_PROTEINS_URL, $MGNIFY_API_V1_URL, $MGNIFY_API_V2_URL"

run() {
  echo
  echo "\$ $*"
  "$build/examples/$@"
}
# The README's first program, then one file per service lists the example runs
# (scripts/demo/*.sh).
run first_program "$MGNIFY_API_V2_URL"
for part in "$root"/scripts/demo/*.sh; do
  [ -e "$part" ] || continue
  # shellcheck source=/dev/null
  source "$part"
done
echo
echo "demo finished: every example ran against the local mock service"
echo "completion: source $generated/mgnify.bash (zsh: $generated/_mgnify); man page: man -l $generated/mgnify.1"
