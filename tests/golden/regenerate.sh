#!/usr/bin/env bash
# Rewrites the golden trajectories (tests/golden/*.txt) from the environments as they are now:
# runs the golden test cases of the test binary with MEMPLACE_REGENERATE_GOLDEN=1, which makes
# them write the files instead of comparing (tests/env/test_golden.cpp).
#
# Regenerate only for an intended change to dynamics, rewards, observations or the Rng — and then
# bump the version of the environment ids it affects (docs/envs/README.md) and review the diff.
#
# Usage: tests/golden/regenerate.sh [path/to/memplace_tests]
#   (default: builds and uses build/default/tests/memplace_tests)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -ge 1 ]]; then
  bin="$1"
else
  cmake --build "$root/build/default" --target memplace_tests
  bin="$root/build/default/tests/memplace_tests"
fi
MEMPLACE_REGENERATE_GOLDEN=1 "$bin" --test-case='golden:*' --success=false
git -C "$root" diff --stat -- tests/golden || true
