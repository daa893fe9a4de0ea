#!/usr/bin/env bash
# Installs the Debian bookworm packages memplace needs, only those that are missing.
# Runs as root (as the README's commands do); `apt-get update` runs first when anything is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libeigen3-dev libopenblas-dev
  coinor-libcbc-dev
  openmpi-bin libopenmpi-dev
  doctest-dev libbenchmark-dev
  python3 python3-dev python3-numpy pybind11-dev
  python3-torch
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "Installing missing packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
