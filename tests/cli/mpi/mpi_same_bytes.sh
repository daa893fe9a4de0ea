#!/usr/bin/env bash
# Results do not depend on the number of MPI ranks: a small table run with 1, 2 and 3 ranks (and
# with 2 jobs inside each of 2 ranks) gives the same table.csv, curves.csv and figures as the plain
# run, byte for byte; and an egrl run over 1 and over 2 ranks gives the plain run's curve
# (but its wall-clock column), best mapping and checkpoint (but its wall clock).
#
# Usage: mpi_same_bytes.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
source "$(dirname "$0")/mpi_common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table=(table --agents ea,sa --workloads transformer-decoder --seeds 2 --budget 500 -q)
outputs=(table.csv curves.csv curves-transformer-decoder.svg placement-transformer-decoder.svg
         memory-transformer-decoder.svg)

"$memplace" "${table[@]}" --out "$work/plain" > /dev/null || fail "the plain table failed"
for ranks in 1 2 3; do
  "${mpi[@]}" -np "$ranks" "$memplace" "${table[@]}" --out "$work/np$ranks" > /dev/null ||
    fail "the table with $ranks ranks failed"
done
"${mpi[@]}" -np 2 "$memplace" "${table[@]}" --jobs 2 --out "$work/np2-jobs2" > /dev/null ||
  fail "the table with 2 ranks of 2 jobs failed"
for run in np1 np2 np3 np2-jobs2; do
  for file in "${outputs[@]}"; do
    cmp -s "$work/plain/$file" "$work/$run/$file" || fail "$run: $file differs from the plain run's"
  done
done
echo "table: the same bytes with 1, 2, 3 ranks and 2 ranks x 2 jobs"

# A small network (hidden=16): the same code, a sixth of the time under the sanitizers.
train=(train --agent egrl --workload transformer-decoder --budget 300 --seed 5
       --checkpoint-every 100 -p hidden=16 -q)
"$memplace" "${train[@]}" --out "$work/egrl-plain" > /dev/null || fail "the plain egrl run failed"
"${mpi[@]}" -np 1 "$memplace" "${train[@]}" --out "$work/egrl-np1" > /dev/null ||
  fail "the egrl run with 1 rank failed"
"${mpi[@]}" -np 2 "$memplace" "${train[@]}" --out "$work/egrl-np2" > "$work/egrl-np2.out" ||
  fail "the egrl run with 2 ranks failed"
without_wall() { cut -d, -f1,3- "$1/curve.csv"; }
for run in np1 np2; do
  [ "$(without_wall "$work/egrl-plain")" == "$(without_wall "$work/egrl-$run")" ] ||
    fail "egrl $run: the curve differs from the plain run's"
  cmp -s "$work/egrl-plain/best_mapping.yaml" "$work/egrl-$run/best_mapping.yaml" ||
    fail "egrl $run: the best mapping differs from the plain run's"
  /usr/bin/python3 "$(dirname "$0")/../compare_checkpoints.py" "$work/egrl-plain/checkpoint.bin" \
    "$work/egrl-$run/checkpoint.bin" || fail "egrl $run: the checkpoint differs from the plain run's"
done
# Rank 0 alone prints the summary.
[ "$(grep -c '^best speedup' "$work/egrl-np2.out")" -eq 1 ] || fail "egrl: not one summary"
echo "egrl: the same curve, best mapping and checkpoint with 1 and 2 ranks"
