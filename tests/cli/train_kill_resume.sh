#!/usr/bin/env bash
# A training run killed with SIGKILL at random moments and resumed each time must end exactly as
# an uninterrupted run (curve.csv apart from its wall-clock column, and best_mapping.yaml), and
# every checkpoint it leaves must load. SIGINT must checkpoint and exit 130.
#
# Usage: train_kill_resume.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=(train --agent sa --workload bert-base --budget 120000 --seed 11 --checkpoint-every 4000 -q)
fail() { echo "FAIL: $*"; exit 1; }

"$memplace" "${run[@]}" --out "$work/whole" > /dev/null || fail "the uninterrupted run failed"
without_wall() { cut -d, -f1,3- "$1/curve.csv"; }

# Waits until the run `pid` writing to folder $1 has written a checkpoint (or has ended).
await_checkpoint() {
  until [ -f "$1/checkpoint.bin" ]; do
    kill -0 "$2" 2> /dev/null || return
    sleep 0.02
  done
}

# Three kills, each after the run's first checkpoint and a random moment more (so that they land
# in different phases of the run on a fast machine or a slow one).
RANDOM=$$
kills=0
attempts=0
while [ "$kills" -lt 3 ]; do
  attempts=$((attempts + 1))
  [ "$attempts" -le 20 ] || fail "every run finished before it could be killed (20 attempts)"
  out="$work/killed$kills"
  rm -rf "$out"
  "$memplace" "${run[@]}" --out "$out" > /dev/null 2>&1 &
  pid=$!
  await_checkpoint "$out" "$pid"
  sleep "0.$((RANDOM % 4))"
  if kill -9 "$pid" 2> /dev/null; then
    wait "$pid" 2> /dev/null
    if [ -f "$out/checkpoint.bin" ]; then
      kills=$((kills + 1))
      # Resume to the end, and compare.
      "$memplace" train --resume "$out" -q > /dev/null || fail "resume after kill $kills failed"
      [ "$(without_wall "$work/whole")" == "$(without_wall "$out")" ] ||
        fail "curve after kill $kills differs from the uninterrupted run"
      cmp -s "$work/whole/best_mapping.yaml" "$out/best_mapping.yaml" ||
        fail "best mapping after kill $kills differs from the uninterrupted run"
    fi
  else
    wait "$pid"  # it finished before the kill: try again with a new folder
    rm -rf "$out"
  fi
done

# SIGINT: a checkpoint, exit code 130, and a resumable run.
"$memplace" "${run[@]}" --out "$work/interrupted" > /dev/null 2> "$work/err" &
pid=$!
await_checkpoint "$work/interrupted" "$pid"
kill -INT "$pid"
wait "$pid"
code=$?
if [ "$code" -eq 130 ]; then
  grep -q "memplace train --resume" "$work/err" || fail "SIGINT message does not say how to resume"
  "$memplace" train --resume "$work/interrupted" -q > /dev/null || fail "resume after SIGINT failed"
  [ "$(without_wall "$work/whole")" == "$(without_wall "$work/interrupted")" ] ||
    fail "curve after SIGINT differs from the uninterrupted run"
elif [ "$code" -ne 0 ]; then
  fail "SIGINT gave exit code $code, expected 130"
fi
echo "kill and resume: $kills kills, identical results"
