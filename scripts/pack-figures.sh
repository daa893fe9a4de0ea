#!/usr/bin/env bash
# The figures of docs/allocation.md, as markdown: `memplace pack` on generated zero-slack problems,
# on problems with spare bytes (`--spare 5`) and on any other CSV files given, greedy against the
# exact searches' portfolio; then the regression corpus, `memplace evaluate --allocation` on every
# shipped best-known mapping (each on-chip memory's verdict and what decided it).
#
# Usage: scripts/pack-figures.sh MEMPLACE TIME_LIMIT_SECONDS [FILE.csv:CAPACITY ...]
# Run it alone on a quiet machine, one core: taskset -c 1 scripts/pack-figures.sh ...
# (MiniMalloc beside it, on the same problems: scripts/minimalloc-peer.sh.)
set -eu
memplace=$1
limit=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| problem | buffers | best greedy over the capacity | exact searches (the run that decided) | placements | seconds |"
echo "|---|---:|---:|---|---:|---:|"
row() {  # row NAME FILE CAPACITY
  local log="$work/log"
  "$memplace" pack "$2" --capacity "$3" --time-limit "$limit" > "$log" 2>&1 || true
  local buffers over verdict placements seconds
  buffers=$(sed -n 's/.*: \([0-9]*\) buffers,.*/\1/p' "$log")
  over=$(sed -n 's/.*(\(-\{0,1\}[0-9.]* %\) over the capacity).*/\1/p' "$log" | head -1)
  if grep -qE "packed by (exact|skyline) search" "$log"; then
    verdict="packed ($(sed -nE 's/.*packed by ((exact|skyline) search[^(]*) \(([^)]*)\).*/\1: \3/p' "$log"))"
    placements=$(sed -n 's/.* s (\([0-9]*\) placements).*/\1/p' "$log")
    seconds=$(sed -nE 's/.*packed by (exact|skyline) search[^(]*\([^)]*\) in ([0-9.]*) s.*/\2/p' "$log")
  elif grep -q "packed by" "$log"; then
    verdict="(greedy packed it)"; placements=0
    seconds=$(sed -n 's/.*in \([0-9.]*\) s.*/\1/p' "$log")
  elif grep -q "no packing exists" "$log"; then
    verdict="proved infeasible"
    placements=$(sed -n 's/.*(\([0-9]*\) placements.*/\1/p' "$log")
    seconds=$(sed -n 's/.*placements, \([0-9.]*\) s).*/\1/p' "$log")
  else
    verdict="time limit"
    placements=$(sed -n 's/.*s (\([0-9]*\) placements).*/\1/p' "$log"); seconds=$limit
  fi
  echo "| $1 | $buffers | $over | $verdict | $placements | $seconds |"
}
for buffers in 60 100 150 300 450; do
  for seed in 1 2 3; do
    "$memplace" pack --generate "$buffers" --seed "$seed" -o "$work/z.csv" > /dev/null
    row "zero-slack $buffers, seed $seed" "$work/z.csv" 1048576
  done
done
for buffers in 150 300 450; do
  for seed in 1 2 3; do
    "$memplace" pack --generate "$buffers" --seed "$seed" --spare 5 -o "$work/s.csv" > /dev/null
    row "spare bytes (5 %) $buffers, seed $seed" "$work/s.csv" 1048576
  done
done
for spec in "$@"; do
  row "$(basename "${spec%:*}")" "${spec%:*}" "${spec##*:}"
done

# The regression corpus: the allocation problem of every on-chip memory of every shipped
# best-known mapping, solved as `memplace evaluate --allocation` does (its placement budget, so the
# verdicts are the same on any machine).
echo
echo "| best-known mapping | memory | tensors | peak, % of the capacity | verdict | decided by |"
echo "|---|---|---:|---:|---|---|"
root=$(cd "$(dirname "$0")/.." && pwd)
for mapping in "$root"/workloads/best-known/*.yaml; do
  workload=$(sed -n 's/^workload: *//p' "$mapping" | head -1)
  "$memplace" evaluate "$workload" "$mapping" --allocation --json > "$work/e.json"
  /usr/bin/python3 - "$work/e.json" "$(basename "$mapping" .yaml)" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for m in doc.get("allocation", []):
    share = 100 * m["peak_bytes"] / m["capacity_bytes"] if m["capacity_bytes"] else 0
    print(f"| {sys.argv[2]} | {m['memory']} | {m['tensors']} | {share:.1f} % | {m['verdict']} | "
          f"{m['decided_by']} |")
PY
done
