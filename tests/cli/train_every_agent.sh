#!/usr/bin/env bash
# Every registered agent, in every env it supports, trains on every paper workload from the CLI:
# the run exits 0, spends at most its budget (greedy-dp may stop earlier), writes its run folder,
# and its best mapping (when it found a valid one) replays with `memplace evaluate` to the speedup
# the curve reports; and every agent of the single-step env searches rectified mappings when asked
# (`-o invalid=rectify`). The agents are read from `memplace list`, so a new one is covered at once.
#
# Usage: train_every_agent.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
budget=300
# Under the sanitizers (tests/CMakeLists.txt) one: a real network's sizes are what it adds there.
workloads="resnet50 resnet101 bert-base"
[ "${MEMPLACE_SANITIZED:-0}" = 1 ] && workloads=resnet50
fail() { echo "FAIL: $*"; exit 1; }

# The agents table of `memplace list`: "| name | env, env | summary |" rows after its header.
agents=$("$memplace" list | awk -F'|' '
  /^\| agent +\| envs/ { inside = 1; next }
  inside && /^\|-/ { next }
  inside && /^\|/ { gsub(/ /, "", $2); gsub(/ /, "", $3); print $2 ":" $3; next }
  inside { exit }')
[ -n "$agents" ] || fail "no agents listed by 'memplace list'"

runs=0
for entry in $agents; do
  agent=${entry%%:*}
  IFS=',' read -r -a envs <<< "${entry#*:}"
  for env in "${envs[@]}"; do
    for workload in $workloads; do
      out="$work/$agent-$env-$workload"
      what="$agent ($env) on $workload"
      "$memplace" train --agent "$agent" --env "$env" --workload "$workload" --budget "$budget" \
        --seed 1 --out "$out" -q > "$out.log" 2>&1 || { cat "$out.log"; fail "$what exited $?"; }
      for file in config.yaml curve.csv checkpoint.bin; do
        [ -s "$out/$file" ] || fail "$what wrote no $file"
      done
      last=$(tail -n 1 "$out/curve.csv")
      spent=${last%%,*}
      [ "$spent" -ge 1 ] && [ "$spent" -le "$budget" ] ||
        fail "$what spent $spent evaluations of a budget of $budget"
      best=$(cut -d, -f3 <<< "$last")
      if [ -f "$out/best_mapping.yaml" ]; then
        replay=$("$memplace" evaluate "$workload" "$out/best_mapping.yaml" --json) ||
          fail "$what: its best_mapping.yaml does not replay"
        grep -q '"valid": *true' <<< "$replay" || fail "$what: its best mapping replays invalid"
        grep -q '"recorded_result_matches": *true' <<< "$replay" ||
          fail "$what: the result recorded in best_mapping.yaml does not match its replay"
        replayed=$(sed -n 's/^ *"speedup": *\([0-9.eE+-]*\).*/\1/p' <<< "$replay")
        [ "$(awk -v s="$replayed" 'BEGIN { printf "%.9f", s }')" == "$best" ] ||
          fail "$what: best mapping replays to $replayed, the curve says $best"
      else
        [ "$best" == "0.000000000" ] || fail "$what reports best $best but wrote no best_mapping"
      fi
      echo "$what: $spent evaluations, best $best"
      runs=$((runs + 1))
    done
  done
done

# `-o invalid=rectify` is offered to every agent: each searches the rectified mappings, so every
# mapping it has scored counts its rectified speedup (batch_mean_speedup > 0 on every row of
# curve.csv, where an invalid mapping would count 0; valid_fraction is before rectification).
for entry in $agents; do
  agent=${entry%%:*}
  [[ ",${entry#*:}," == *,single-step,* ]] || continue
  out="$work/$agent-rectify"
  what="$agent with invalid=rectify on bert-base (v1)"
  "$memplace" train --agent "$agent" --workload bert-base --env-version v1 -o invalid=rectify \
    --budget "$budget" --seed 2 --out "$out" -q > "$out.log" 2>&1 || { cat "$out.log"; fail "$what exited $?"; }
  invalid_rows=$(awk -F, 'NR > 1 && $4 <= 0' "$out/curve.csv" | wc -l)
  [ "$invalid_rows" -eq 0 ] || fail "$what: $invalid_rows curve rows scored invalid mappings"
  best=$(tail -n 1 "$out/curve.csv" | cut -d, -f3)
  [ "$best" != "0.000000000" ] || fail "$what found no valid mapping"
  echo "$what: best $best, every mapping valid"
  runs=$((runs + 1))
done
echo "$runs runs passed"
