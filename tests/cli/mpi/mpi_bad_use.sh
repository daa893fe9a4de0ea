#!/usr/bin/env bash
# Bad use of a job of several ranks ends with a clear error on every rank and a non-zero exit,
# never a hang: a rank given another config, or a command line that does not parse, or --help;
# a table folder that cannot be written; a bad --jobs; srun without an MPI plugin.
#
# Usage: mpi_bad_use.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
source "$(dirname "$0")/mpi_common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table=(table --agents ea --workloads transformer-decoder --seeds 1 -q)
train=(train --agent sa --workload transformer-decoder --budget 200 -q)

# expect_refusal NAME PATTERN RANKS mpirun-arguments...: the job ends within 2 minutes with exit
# code 2, and each of the RANKS ranks prints one line matching PATTERN.
expect_refusal() {
  local name=$1 pattern=$2 ranks=$3
  shift 3
  timeout 120 "${mpi[@]}" "$@" > "$work/out" 2> "$work/err"
  local code=$?
  [ "$code" -ne 124 ] || fail "$name: the job hung"
  [ "$code" -eq 2 ] || { cat "$work/err"; fail "$name: exit code $code, expected 2"; }
  for rank in $(seq 0 $((ranks - 1))); do
    grep -q "^memplace (rank $rank of $ranks): .*$pattern" "$work/err" ||
      { cat "$work/err"; fail "$name: rank $rank did not say '$pattern'"; }
  done
  echo "$name: refused on every rank"
}

expect_refusal "table, another config on rank 1" "rank 1 of 2 was started with another table config" 2 \
  -np 1 "$memplace" "${table[@]}" --out "$work/t" : -np 1 "$memplace" "${table[@]}" --budget 300 --out "$work/t"
expect_refusal "table, another --out on rank 2" "rank 2 of 3 was started with another table config or --out" 3 \
  -np 2 "$memplace" "${table[@]}" --out "$work/t" : -np 1 "$memplace" "${table[@]}" --out "$work/u"
expect_refusal "train, another seed on rank 1" "rank 1 of 2 was started with another train config" 2 \
  -np 1 "$memplace" "${train[@]}" --out "$work/r" : -np 1 "$memplace" "${train[@]}" --seed 3 --out "$work/r"
expect_refusal "table, rank 1's command line does not parse" "budget" 2 \
  -np 1 "$memplace" "${table[@]}" --out "$work/t" : -np 1 "$memplace" "${table[@]}" --budget x --out "$work/t"
# --help on rank 1 alone: it prints the help (exit 0), rank 0 stops with an error.
timeout 120 "${mpi[@]}" -np 1 "$memplace" "${table[@]}" --out "$work/t" : \
  -np 1 "$memplace" "${table[@]}" --help > /dev/null 2> "$work/err"
code=$?
[ "$code" -eq 2 ] && grep -q "^memplace (rank 0 of 2): rank 1 of 2: printed the help" "$work/err" ||
  fail "--help on rank 1 only: exit code $code, or rank 0 did not say so"
echo "table, --help on rank 1 only: rank 0 refused"
touch "$work/a-file"
expect_refusal "table folder that cannot be written" "cannot create the table folder" 2 \
  -np 2 "$memplace" "${table[@]}" --out "$work/a-file/table"
expect_refusal "train folder that cannot be written" "cannot create the run folder" 2 \
  -np 2 "$memplace" "${train[@]}" --out "$work/a-file/run"
expect_refusal "--jobs out of range" "--jobs" 2 -np 2 "$memplace" "${table[@]}" --jobs 5000 --out "$work/t"
expect_refusal "resume of a folder without a run" "no such file\|cannot\|not" 2 \
  -np 2 "$memplace" train --resume "$work/nothing-here" -q

# srun with several tasks but no MPI plugin: each task would run the whole table alone.
SLURM_STEP_NUM_TASKS=2 "$memplace" "${table[@]}" --out "$work/s" 2> "$work/err"
[ $? -eq 2 ] && grep -q "srun --mpi=pmix" "$work/err" || fail "srun without an MPI plugin was not refused"
echo "srun without an MPI plugin: refused"
