#!/usr/bin/env bash
# Runs scripts/fuzz_campaign.sh for every target that has not yet run a number of inputs, one
# target at a time on each of some cores (docs/reliability.md, "Long runs"):
#   scripts/fuzz_campaigns.sh BUILD_DIR EXECUTIONS [SEGMENT_SECONDS]
# Targets: FUZZ_TARGETS (e.g. "checkpoint onnx_model"; default every target of fuzz/seeds.txt);
# what a target has run is counted from its campaign's segment logs on this machine only.
# Cores: FUZZ_CORES (e.g. "0 1"; default every core this process may use). The targets go out
# longest first (remaining executions at each target's recent rate), each to the next core that
# is free, so that the cores finish together as nearly as they can. Campaigns resume from their
# segments' logs, so this is the command to rerun after a stop (kill it and its children; never
# SIGSTOP: see fuzz_campaign.sh). A line per campaign's end; exit 1 if any campaign had a finding
# (the others run on).
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR EXECUTIONS [SEGMENT_SECONDS]" >&2; exit 2; }
build=$1 wanted=$2 segment=${3:-300}
[[ $wanted =~ ^[0-9]+$ && $segment =~ ^[0-9]+$ && $segment -gt 0 ]] ||
  { echo "EXECUTIONS and SEGMENT_SECONDS must be positive whole numbers" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
read -r -a cores <<< "${FUZZ_CORES:-$(taskset -cp $$ | sed 's/.*: //' |
  awk -F, '{for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) print c }}' |
  tr '\n' ' ')}"
[ ${#cores[@]} -gt 0 ] || { echo "FUZZ_CORES names no core" >&2; exit 2; }

# The executions each target still needs (a campaign asked for 0 more only counts its logs), and
# the seconds they will take at the mean rate of its last three segments; a target with no
# segment yet counts as the longest (its rate is unknown).
queue=()
while read -r target; do
  done_so_far=$(bash "$here/fuzz_campaign.sh" "$build" "$target" 0 | tail -1 |
    grep -o ': [0-9]* executions' | grep -o '[0-9]*') || exit 2
  left=$((wanted - ${done_so_far:-0}))
  [ "$left" -gt 0 ] || continue
  rate=$(ls -v "$build/findings/$target".[0-9]*.log 2>/dev/null | tail -3 |
    xargs -r grep -ho 'stat::average_exec_per_sec: *[0-9]*' | grep -o '[0-9]*$' |
    awk '{ s += $1; n++ } END { if (n && s) print s / n }')
  queue+=("$(awk -v l="$left" -v r="${rate:-0}" 'BEGIN { printf "%.0f", (r > 0 ? l / r : 1e15) }') $target")
done < <(if [ -n "${FUZZ_TARGETS:-}" ]; then printf '%s\n' $FUZZ_TARGETS
          else grep -oE '^[a-z_]+' "$here/../fuzz/seeds.txt"; fi)
mapfile -t queue < <(printf '%s\n' "${queue[@]}" | sort -rn | awk 'NF')
[ ${#queue[@]} -gt 0 ] || { echo "every target has run $wanted inputs"; exit 0; }
echo "campaigns to run, longest first: $(printf '%s\n' "${queue[@]}" | awk '{ printf "%s%s (%s)",
  (NR > 1 ? ", " : ""), $2, ($1 >= 1e15 ? "no rate yet" : sprintf("~%.1f h", $1 / 3600)) }'); cores: ${cores[*]}"
mapfile -t queue < <(printf '%s\n' "${queue[@]}" | awk '{ print $2 }')

mkdir -p "$build/findings"
declare -A running  # pid -> "core target"
free=("${cores[@]}")
found=0
next=0
while [ "$next" -lt ${#queue[@]} ] || [ ${#running[@]} -gt 0 ]; do
  while [ "$next" -lt ${#queue[@]} ] && [ ${#free[@]} -gt 0 ]; do
    core=${free[0]} free=("${free[@]:1}") target=${queue[$next]} next=$((next + 1))
    taskset -c "$core" bash "$here/fuzz_campaign.sh" "$build" "$target" "$wanted" "$segment" \
      > "$build/findings/$target.campaign.log" 2>&1 &
    running[$!]="$core $target"
    echo "$target: started on core $core (progress: $build/findings/$target.campaign.log)"
  done
  wait -n -p pid
  code=$?
  read -r core target <<< "${running[$pid]}"
  unset "running[$pid]"
  free+=("$core")
  echo "$(tail -1 "$build/findings/$target.campaign.log")"
  [ "$code" -eq 0 ] || found=1
done
exit $found
