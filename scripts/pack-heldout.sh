#!/usr/bin/env bash
# A held-out run of docs/allocation.md: `memplace pack` on the generated problems of a range of
# seeds, each made afresh (`--generate N --spare P --seed S`, capacity 1048576), solved within a
# time limit and its packing checked (`pack --check`); one line per seed, then how many were
# packed, the slowest, the total seconds of those packed and the seeds not packed. Name the seeds
# and the rule for keeping a change before running it, and run the build before first.
#
# Usage: scripts/pack-heldout.sh MEMPLACE TIME_LIMIT_SECONDS BUFFERS FIRST_SEED LAST_SEED [SPARE]
#   SPARE: percent of spare bytes (default 5; 0 for zero-slack problems)
#   JOBS=N in the environment: problems solved at once (default 2, one per core here)
# Exit 0 when every problem was packed, 1 when some were not, 2 on bad arguments.
set -u
usage() {
  echo "usage: $0 MEMPLACE TIME_LIMIT_SECONDS BUFFERS FIRST_SEED LAST_SEED [SPARE]" >&2
  exit 2
}
[ $# -ge 5 ] && [ $# -le 6 ] || usage
memplace=$1 limit=$2 buffers=$3 first=$4 last=$5 spare=${6:-5} jobs=${JOBS:-2}
[ -x "$memplace" ] || { echo "$0: MEMPLACE '$memplace' is not an executable" >&2; exit 2; }
[[ $limit =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "$0: TIME_LIMIT_SECONDS '$limit' is not a number" >&2; exit 2; }
for value in "$buffers" "$first" "$last" "$spare" "$jobs"; do
  [[ $value =~ ^[0-9]+$ ]] || { echo "$0: '$value' is not a whole number" >&2; exit 2; }
done
[ "$first" -le "$last" ] || { echo "$0: FIRST_SEED $first is after LAST_SEED $last" >&2; exit 2; }
[ "$spare" -le 100 ] || { echo "$0: SPARE must be a percent from 0 to 100" >&2; exit 2; }
[ "$buffers" -ge 1 ] || { echo "$0: BUFFERS must be at least 1" >&2; exit 2; }
[ "$jobs" -ge 1 ] || { echo "$0: JOBS must be at least 1" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One seed: "SEED packed SECONDS PLACEMENTS METHOD", "SEED missed PLACEMENTS" or "SEED error: ...".
solve() {
  local seed=$1 problem="$work/$1.csv" packed="$work/$1.packed.csv" log="$work/$1.log"
  if ! "$memplace" pack --generate "$buffers" --spare "$spare" --seed "$seed" -o "$problem" \
    > "$log" 2>&1; then
    echo "$seed error: $(head -1 "$log")"
    return
  fi
  "$memplace" pack "$problem" --capacity 1048576 --time-limit "$limit" -o "$packed" --json \
    > "$log.json" 2> "$log"
  local result
  result=$(python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)
if r["outcome"] == "packed":
    print("packed %.2f %d %s" % (r["seconds"], r["placements"], r["method"]))
elif r.get("stopped_by") == "time limit":
    print("missed %d" % r["placements"])
' "$log.json")
  if [[ $result == packed* ]]; then
    if ! "$memplace" pack --check "$packed" --capacity 1048576 > "$log.check" 2>&1; then
      echo "$seed error: the packing fails --check: $(tail -1 "$log.check")"
      return
    fi
    echo "$seed $result"
  elif [[ $result == missed* ]]; then
    echo "$seed $result"
  else
    echo "$seed error: $(tail -1 "$log")"
  fi
}
export -f solve
export memplace limit buffers spare work

seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c 'solve {}' | sort -n > "$work/results"
cat "$work/results"
total=$((last - first + 1))
awk -v total="$total" -v limit="$limit" -v buffers="$buffers" -v spare="$spare" '
  $2 == "packed" { packed++; sum += $3; if ($3 + 0 >= slowest + 0) { slowest = $3; at = $1 } }
  $2 != "packed" { missed = missed " " $1 }
  END {
    printf "%d buffers, %d %% spare: packed %d of %d within %s s", buffers, spare, packed, total, limit
    if (packed > 0) printf "; slowest %s s (seed %s); %.2f s in all", slowest, at, sum
    printf "\n"
    if (missed != "") printf "not packed (or errors):%s\n", missed
  }' "$work/results"
! grep -qv " packed " "$work/results"
