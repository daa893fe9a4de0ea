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
  "$memplace" pack "$problem" --capacity 1048576 --time-limit "$limit" -o "$packed" > "$log" 2>&1
  local result
  result=$(grep -E "packed by|no packing" "$log" | tail -1)
  if [[ $result == *"packed by"* ]]; then
    if ! "$memplace" pack --check "$packed" --capacity 1048576 > "$log.check" 2>&1; then
      echo "$seed error: the packing fails --check: $(tail -1 "$log.check")"
      return
    fi
    local seconds placements method
    seconds=$(sed -nE 's/.* in ([0-9.]+) s.*/\1/p' <<< "$result")
    placements=$(sed -nE 's/.*\(([0-9]+) placements\).*/\1/p' <<< "$result")
    method=$(sed -nE 's/.*packed by (.*) in [0-9.]+ s.*/\1/p' <<< "$result")
    echo "$seed packed $seconds ${placements:-0} $method"
  elif [[ $result == *"within the time limit"* ]]; then
    echo "$seed missed $(sed -nE 's/.*\(([0-9]+) placements\).*/\1/p' <<< "$result")"
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
