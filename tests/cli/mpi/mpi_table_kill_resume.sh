#!/usr/bin/env bash
# A table shared out over 2 MPI ranks, stopped midway by a signal to mpirun (which passes SIGTERM
# to the ranks, then SIGKILL), then resumed by a job of another size ends with the table of an
# uninterrupted run, byte for byte: resumed with 1 rank after SIGINT, with 3 after SIGTERM.
#
# Usage: mpi_table_kill_resume.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
source "$(dirname "$0")/mpi_common.sh"
source "$(dirname "$0")/../table_runs.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One run at a time per rank, three runs each: once a run has finished, a rank has at least one
# to go. Cheap agents (as in table_kill_rerun.sh), but sa's runs long enough (about 1.5 s each,
# optimised, on a fast machine) to outlast mpirun, which acts on a signal 1-2 s after it comes: with
# 60,000 evaluations every run had finished by then on a fast machine, five times in a row.
table=(table --agents sa,greedy-dp --workloads transformer-decoder --seeds 3 --budget 300000 --jobs 1 -q)
outputs=(table.csv curves.csv curves-transformer-decoder.svg)

"$memplace" "${table[@]}" --out "$work/whole" > /dev/null || fail "the uninterrupted table failed"

for case in INT:1 TERM:3; do
  signal=${case%:*}
  ranks=${case#*:}
  out="$work/stopped-$signal"
  stop_midway "$signal" "$out" 6 "${mpi[@]}" -np 2 "$memplace" "${table[@]}"
  # No rank may outlive mpirun.
  for _ in $(seq 1 100); do
    pgrep -f -- "--out $out" > /dev/null || break
    sleep 0.1
  done
  pgrep -f -- "--out $out" > /dev/null && fail "SIG$signal: ranks still running after mpirun ended"
  "${mpi[@]}" -np "$ranks" "$memplace" "${table[@]}" --out "$out" > /dev/null ||
    fail "resuming with $ranks ranks after SIG$signal failed"
  for file in "${outputs[@]}"; do
    cmp -s "$work/whole/$file" "$out/$file" ||
      fail "SIG$signal then $ranks ranks: $file differs from the uninterrupted table's"
  done
  echo "SIG$signal to mpirun after $done_before of 6 runs, resumed with $ranks rank(s): same table"
done
