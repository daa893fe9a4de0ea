#!/usr/bin/env bash
# Regenerates a suite's workloads and best-known mappings (docs/suite.md, "Regenerating"):
#   1. imports every workload of workloads/suite/*.yaml from its fixture (memplace_import_all,
#      which also re-imports the shipped workloads: they come out unchanged) and rebuilds, since
#      the files are compiled into the library;
#   2. for every instance of the suite, the better of two searches under the suite's cost model,
#      each re-scored by the simulator when read:
#      - sa, 200,000 evaluations from the streaming-aware compiler's mapping (start=compiler),
#        invalid mappings rectified (-o invalid=rectify: an annealer that starts from a full
#        fast memory otherwise wanders among invalid neighbours);
#      - ea, 100,000 evaluations from random mappings (default hyperparameters);
#      - mcts, 20,000 evaluations (default hyperparameters: it improves the compiler's mapping;
#        it beat the other two on three instances);
#      all seed 0, one thread each; the winner is workloads/best-known/<workload>.<hardware>.yaml.
# These are references ("best known"), not baselines. Run from the repository root after
# `make build`; about 75 minutes on 2 cores for suite v1 before mcts, which adds about 25 (docs/suite.md
# gives the measured time).
#
#   workloads/suite/regenerate.sh [suite] [jobs] [instance...]
#
# The instances (<workload>@<hardware>) default to every one of the suite.
set -euo pipefail
suite=${1:-v1}
jobs=${2:-2}
shift $(($# < 2 ? $# : 2))
build=build/default
memplace=$build/apps/memplace
out=workloads/best-known
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$build/workloads/memplace_import_all" > /dev/null
cmake --build "$build" --target memplace > /dev/null

instances() {  # the suite's instances, from `memplace list --json`
  "$memplace" list --json | /usr/bin/python3 -c \
    "import json, sys; print(' '.join(i['instance'] for s in json.load(sys.stdin)['suites'] if s['name'] == '$suite' for i in s['instances']))"
}
source workloads/best-known/keep_best.sh
search() {
  local instance=$1
  local workload=${instance%@*} hardware=${instance#*@}
  local ea="$work/ea-$instance" sa="$work/sa-$instance" mcts="$work/mcts-$instance"
  "$memplace" train --agent sa --env-version v1 --workload "$workload" --hardware "$hardware" \
    --budget 200000 --seed 0 --threads 1 -p start=compiler -o invalid=rectify --out "$sa" -q \
    > /dev/null
  "$memplace" train --agent ea --env-version v1 --workload "$workload" --hardware "$hardware" \
    --budget 100000 --seed 0 --threads 1 --out "$ea" -q > /dev/null
  "$memplace" train --agent mcts --env-version v1 --workload "$workload" --hardware "$hardware" \
    --budget 20000 --seed 0 --threads 1 --out "$mcts" -q > /dev/null
  keep_best "$out/$workload.$hardware.yaml" workloads/suite/regenerate.sh "$sa" "$ea" "$mcts"
}
export -f search latency keep_best
export memplace work out
if [ $# -eq 0 ]; then
  set -- $(instances)
fi
start=$(date +%s)
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'search "$@"' _ {}
cmake --build "$build" --target memplace > /dev/null
echo "searched $# instances in $(( $(date +%s) - start )) s; their references: $memplace references --suite $suite"
