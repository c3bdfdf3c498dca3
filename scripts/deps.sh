#!/usr/bin/env bash
# Installs the Debian 12 packages the SDK, its tests, examples and tools need.
set -euo pipefail

packages=(
  g++ clang libclang-rt-14-dev cmake make ninja-build pkg-config ca-certificates
  nlohmann-json3-dev libsimdjson-dev libcurl4-openssl-dev libssl-dev
  catch2 libcpp-httplib-dev libcli11-dev zlib1g-dev
  zsh groff-base
  python3 python3-pandas python3-biom-format
  r-base-core r-cran-readr r-cran-jsonlite r-bioc-phyloseq
  slurm-wlm munge snakemake
)

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
