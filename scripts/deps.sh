#!/usr/bin/env bash
# Installs the Debian 12 packages one purpose needs, and nothing when they are all there.
#   ./scripts/deps.sh demo    build the SDK, the CLI, the mock and the examples, run the demo
#   ./scripts/deps.sh build   the demo's, plus what every build of the tests, the sanitizers
#                             and the fuzzers compiles with (nothing they only run)
#   ./scripts/deps.sh test    (the default) the build's, plus every reader and engine the
#                             tests run
#   ./scripts/deps.sh docs    Doxygen, for scripts/docs.sh
#   ./scripts/deps.sh ci      the tests' and the docs': what .ci/run needs
#   ./scripts/deps.sh --list PURPOSE...   print the packages, install nothing
# Several purposes may be given; each list below is the one place its packages are named.
set -euo pipefail

# The compiler, the build tools and the -dev packages of the libraries the SDK, the CLI
# (CLI11, zlib) and the mock (cpp-httplib) use; python3's standard library computes the
# digests of the demo's download manifest and reads its BIOM output.
demo=(
  g++ cmake ninja-build pkg-config ca-certificates
  nlohmann-json3-dev libsimdjson-dev libcurl4-openssl-dev libssl-dev
  libcpp-httplib-dev libcli11-dev zlib1g-dev
  python3
)
# Catch2; make for the package tests' consumer builds; clang++ with its sanitizer and
# libFuzzer runtimes (test.sh, tsan.sh, fuzz.sh); lld, which links the test trees' programs
# in about a quarter of ld.bfd's time; mimalloc, which clang++ and lld run with in those
# trees (scripts/configure.sh --mimalloc).
build=(
  "${demo[@]}"
  catch2 make clang libclang-rt-14-dev lld libmimalloc2.0
)
# zsh and groff, which run the generated completion and render the man page; pandas, the
# BIOM validator and R, which read the written tables back; and the engines of the
# cluster tests. A build does not need them, so CI installs them while it compiles.
test=(
  "${build[@]}"
  zsh groff-base
  python3-pandas python3-biom-format
  r-base-core r-cran-readr r-cran-jsonlite r-bioc-phyloseq
  slurm-wlm munge snakemake
)
docs=(doxygen)
ci=("${test[@]}" "${docs[@]}")

list_only=0
purposes=()
for arg in "$@"; do
  case "$arg" in
    --list) list_only=1 ;;
    demo|build|test|docs|ci) purposes+=("$arg") ;;
    *) echo "usage: $0 [--list] [demo|build|test|docs|ci]..." >&2; exit 2 ;;
  esac
done
[ "${#purposes[@]}" -gt 0 ] || purposes=(test)

packages=()
for purpose in "${purposes[@]}"; do
  declare -n chosen="$purpose"
  packages+=("${chosen[@]}")
  unset -n chosen
done
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)
if [ "$list_only" = 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
