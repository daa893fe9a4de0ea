#!/usr/bin/env bash
# `memplace table` killed with SIGKILL midway and rerun completes only the missing runs, and ends
# with the table of an uninterrupted run (table.csv byte for byte); SIGINT stops
# it with exit code 130 and a rerun completes it too.
#
# Usage: table_kill_rerun.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Cheap agents: a table resumes its runs whatever the agent (every agent's own exact resume is the
# agent conformance test's); sa's runs take long enough (0.6 s optimised) for a stop midway.
table=(table --agents sa,greedy-dp --workloads bert-base --seeds 3 --budget 30000 --jobs 2)
source "$(dirname "$0")/table_runs.sh"
table_csv() { cat "$1/table.csv"; }

"$memplace" "${table[@]}" --out "$work/whole" -q > /dev/null || fail "the uninterrupted table failed"
[ "$(finished "$work/whole")" -eq 6 ] || fail "the uninterrupted table did not finish 6 runs"

for signal in KILL INT; do
  out="$work/stopped-$signal"
  stop_midway "$signal" "$out" 6 "$memplace" "${table[@]}" -q
  if [ "$signal" == INT ]; then
    [ "$stop_code" -eq 130 ] || fail "SIGINT: exit code $stop_code, expected 130"
  fi
  # The rerun prints one progress line per run it completes: only the missing ones.
  "$memplace" "${table[@]}" --out "$out" > /dev/null 2> "$out.log" || fail "rerun after SIG$signal"
  ran=$(grep -c '^\[' "$out.log")
  [ "$ran" -eq $((6 - done_before)) ] ||
    fail "rerun after SIG$signal ran $ran runs; $((6 - done_before)) were missing"
  [ "$(table_csv "$work/whole")" == "$(table_csv "$out")" ] ||
    fail "table after SIG$signal differs from the uninterrupted one"
  echo "SIG$signal after $done_before of 6 runs: the rerun completed the other $ran, same table"
done
