#!/usr/bin/env bash
# Regenerates the shipped best-known mappings under the streaming dynamics (cost model v1), which
# has no exact optimum: for every shipped workload on every shipped hardware model (its own DMA
# lookahead and memory-time rule), the better of two long searches, each re-scored by the
# simulator when the table reads it:
#   - ea, 200,000 evaluations from random mappings (default hyperparameters, seed 0);
#   - sa, 1,000,000 evaluations from the streaming-aware compiler's mapping (start=compiler, seed 0).
# These are references ("best known"), not baselines: `memplace table` reports shares of the gain
# against the better of them and of its own runs. Run from the repository root after `make build`
# (about 6 minutes on 2 cores), then rebuild: the files are compiled into the library.
#
#   workloads/best-known/regenerate.sh [path/to/memplace] [jobs] [hardware...]
#
# The hardware models default to every shipped one (name some to add a new model's mappings
# without searching the others again).
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
jobs=${2:-2}
shift $(($# < 2 ? $# : 2))
out=workloads/best-known
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names() {  # the shipped workloads or hardware models, from `memplace list --json`
  "$memplace" list --json | /usr/bin/python3 -c \
    "import json, sys; print(' '.join(x['name'] for x in json.load(sys.stdin)['$1']))"
}
source workloads/best-known/keep_best.sh
search() {
  read -r workload hardware <<< "$1"
  local ea="$work/ea-$workload-$hardware" sa="$work/sa-$workload-$hardware"
  "$memplace" train --agent ea --env-version v1 --workload "$workload" --hardware "$hardware" \
    --budget 200000 --seed 0 --threads 1 --out "$ea" -q > /dev/null
  "$memplace" train --agent sa --env-version v1 --workload "$workload" --hardware "$hardware" \
    --budget 1000000 --seed 0 --threads 1 -p start=compiler --out "$sa" -q > /dev/null
  keep_best "$out/$workload.$hardware.yaml" workloads/best-known/regenerate.sh "$ea" "$sa"
}
export -f search latency keep_best
export memplace work out
tasks=()
for hardware in ${@:-$(names hardware)}; do
  for workload in $(names workloads); do
    tasks+=("$workload $hardware")
  done
done
printf '%s\n' "${tasks[@]}" | xargs -P "$jobs" -I{} bash -c 'search "$@"' _ {}
