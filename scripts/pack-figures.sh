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
  "$memplace" pack "$2" --capacity "$3" --time-limit "$limit" --json > "$work/r.json" 2> /dev/null ||
    true
  python3 - "$work/r.json" "$1" "$limit" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
name, limit = sys.argv[2], sys.argv[3]
greedy, capacity = r["greedy_height_bytes"], r["capacity_bytes"]
over = f"{100 * (greedy / capacity - 1):.1f} %" if greedy is not None and capacity else ""
method, seconds = r["method"], f"{r['seconds']:.2f}"
if r["outcome"] == "packed" and method.startswith(("exact search", "skyline search")):
    search, _, run = method.partition(" (")  # "skyline search (area order, round 1)"
    verdict, placements = f"packed ({search}: {run[:-1]})", r["placements"]
elif r["outcome"] == "packed":
    verdict, placements = "(greedy packed it)", 0
elif r["outcome"] == "infeasible":
    verdict, placements = "proved infeasible", r["placements"]
else:
    verdict, placements, seconds = "time limit", r["placements"], limit
print(f"| {name} | {r['buffers']} | {over} | {verdict} | {placements} | {seconds} |")
PY
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
