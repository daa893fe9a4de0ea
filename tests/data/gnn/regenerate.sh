#!/usr/bin/env bash
# Rewrites the GNN reference fixtures:
#   resnet50.json, bert-base.json  the single-step observations (from the C++ environments, by the
#                                  test binary with MEMPLACE_REGENERATE_GOLDEN=1);
#   reference.json                 outputs and gradients of the PyTorch peer on resnet50.json
#                                  (bench/peers/gnn_torch.py, Debian's python3-torch).
# Regenerate after a deliberate change to the observations or to the network (docs/gnn.md), and
# review the diff: tests/nn/test_nn_reference.cpp then holds the C++ GNN to the new reference.
#
# Usage: tests/data/gnn/regenerate.sh [path/to/memplace_tests]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
if [[ $# -ge 1 ]]; then
  bin="$1"
else
  cmake --build "$root/build/default" --target memplace_tests
  bin="$root/build/default/tests/memplace_tests"
fi
MEMPLACE_REGENERATE_GOLDEN=1 "$bin" --test-case='gnn reference: the observation*' --success=false
cd "$root"
/usr/bin/python3 bench/peers/gnn_torch.py reference --observations tests/data/gnn/resnet50.json \
  --out tests/data/gnn/reference.json
git -C "$root" diff --stat -- tests/data/gnn || true
