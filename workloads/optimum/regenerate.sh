#!/usr/bin/env bash
# Regenerates the shipped optimum certificates (docs/optimum.md): every shipped workload on every
# shipped hardware model under both memory-time rules, solved by `memplace optimum` on one thread
# with a 600 s limit each. Run from the repository root after `make build`; at most 2 h on one
# core, then rebuild (the certificates are compiled into the library) and run the tests, which
# re-check every certificate against its model.
#
#   workloads/optimum/regenerate.sh [path/to/memplace] [jobs] [hardware...]
#
# `jobs` solves run at once (default 1); the hardware models default to every shipped one (name
# some to add a new model's certificates without re-solving the others). A solve stopped by its
# time limit depends on the speed of the machine; a proven optimum does not.
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
jobs=${2:-1}
shift $(($# < 2 ? $# : 2))
out=workloads/optimum
names() {  # the shipped workloads or hardware models, from `memplace list --json`
  "$memplace" list --json | /usr/bin/python3 -c \
    "import json, sys; print(' '.join(x['name'] for x in json.load(sys.stdin)['$1']))"
}
tasks=()
for hardware in ${@:-$(names hardware)}; do
  for rule in max sum; do
    for workload in $(names workloads); do
      tasks+=("$workload $hardware $rule")
    done
  done
done
solve() {
  read -r workload hardware rule <<< "$1"
  "$memplace" optimum "$workload" --hardware "$hardware" --memory-time "$rule" \
    --time-limit 600 --threads 1 -q -o "$out/$workload.$hardware.$rule.yaml" |
    sed -n 1p
}
export -f solve
export memplace out
printf '%s\n' "${tasks[@]}" | xargs -P "$jobs" -I{} bash -c 'solve "$@"' _ {}
