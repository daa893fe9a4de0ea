#!/usr/bin/env bash
# Installs the Debian bookworm packages memplace needs, only those that are missing.
#   scripts/install-deps.sh run    what building and running need: the `memplace` program and the
#                                  Python package (`make run`, `make build`, `make install`)
#   scripts/install-deps.sh test   the above and what the test suite, the benchmarks against
#                                  PyTorch and the packaging checks need (`make test`)
#   scripts/install-deps.sh fuzz   the run set and clang with libFuzzer (`make fuzz`)
#   scripts/install-deps.sh format clang-format (`make format`)
#   scripts/install-deps.sh fresh-check  debootstrap (scripts/fresh-debian-check.sh)
#   scripts/install-deps.sh peers  the run set, git and Abseil: MiniMalloc built as a peer of
#                                  `memplace pack` (scripts/minimalloc-peer.sh)
#   scripts/install-deps.sh python-agents  the run set, PyTorch and what Gymnasium, Stable-Baselines3
#                                  and sb3-contrib import that Debian has (they themselves are not
#                                  in Debian: docs/python.md, "The library set")
# Every program a make target, a test or a tool they start calls must come from the set that
# target installs: tests/check_dependencies.py checks it (docs/testing.md, "Dependencies"), and
# scripts/fresh-debian-check.sh runs the README's commands on a machine that has nothing else.
# scripts/dependency-sizes.sh measures both sets (README, "Install").
# Runs as root (as the README's commands do); `apt-get update` runs first when anything is missing.
set -euo pipefail
run_packages=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libeigen3-dev libopenblas-dev
  coinor-libcbc-dev
  openmpi-bin libopenmpi-dev
  python3 python3-dev python3-numpy pybind11-dev
  file  # `make deb`: CPack's DEB generator needs it for dpkg-shlibdeps
)
test_packages=(
  doctest-dev libbenchmark-dev
  python3-torch
  python3-pip python3-venv python3-setuptools python3-wheel
)
fuzz_packages=(clang libfuzzer-14-dev)
format_packages=(clang-format)
fresh_check_packages=(debootstrap)
peer_packages=(git libabsl-dev)
python_agents_packages=(
  python3-torch python3-cloudpickle python3-typing-extensions python3-pandas python3-matplotlib
  python3-tqdm python3-rich
)
case "${1:-test}" in
  run) packages=("${run_packages[@]}") ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  fuzz) packages=("${run_packages[@]}" "${fuzz_packages[@]}") ;;
  format) packages=("${format_packages[@]}") ;;
  fresh-check) packages=("${fresh_check_packages[@]}") ;;
  python-agents) packages=("${run_packages[@]}" "${python_agents_packages[@]}") ;;
  peers) packages=("${run_packages[@]}" "${peer_packages[@]}") ;;
  --list-run) printf '%s\n' "${run_packages[@]}"; exit 0 ;;
  --list-test) printf '%s\n' "${test_packages[@]}"; exit 0 ;;
  --list-fuzz) printf '%s\n' "${fuzz_packages[@]}"; exit 0 ;;
  --list-format) printf '%s\n' "${format_packages[@]}"; exit 0 ;;
  --list-fresh-check) printf '%s\n' "${fresh_check_packages[@]}"; exit 0 ;;
  --list-python-agents) printf '%s\n' "${python_agents_packages[@]}"; exit 0 ;;
  --list-peers) printf '%s\n' "${peer_packages[@]}"; exit 0 ;;
  *) echo "usage: $0 [run|test|fuzz|format|fresh-check|python-agents|peers|--list-<set>]" >&2; exit 2 ;;
esac
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
