#!/usr/bin/env bash
# scripts/slurm-table.sbatch's command line, run outside Slurm (MEMPLACE_LAUNCH=env instead of
# srun) with the variables Slurm would set: it runs the config and options it is given, in the
# folder it is given (or MEMPLACE_TABLE_OUT), with --jobs from --cpus-per-task.
#
# Usage: slurm_script.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'agents: [sa, random]\nworkloads: [resnet50]\nseeds: 1\nbudget: 300\n' > "$work/small.yaml"

MEMPLACE_LAUNCH=env MEMPLACE_BIN=$memplace SLURM_CPUS_PER_TASK=2 SLURM_JOB_ID=7 \
  bash scripts/slurm-table.sbatch "$work/small.yaml" --out "$work/given" -q > "$work/log" 2>&1 ||
  { cat "$work/log"; fail "the script did not run the table"; }
grep -q -- "--jobs 2" "$work/log" || fail "--cpus-per-task did not become --jobs: $(cat "$work/log")"
[ -s "$work/given/table.csv" ] || fail "no table in the folder given with --out"
for agent in sa random; do
  grep -q "^resnet50,$agent," "$work/given/table.csv" ||
    fail "no $agent row: the config was not the one given"
done
grep -q "^resnet50,ea," "$work/given/table.csv" && fail "an agent of the default table ran"
[ "$(find "$work/given/runs" -name result.yaml | wc -l)" -eq 2 ] || fail "not the config's 2 runs"

# Without --out: MEMPLACE_TABLE_OUT; options after the config pass through (--agents).
MEMPLACE_LAUNCH=env MEMPLACE_BIN=$memplace MEMPLACE_TABLE_OUT=$work/from-env \
  bash scripts/slurm-table.sbatch "$work/small.yaml" --agents random -q > "$work/log" 2>&1 ||
  { cat "$work/log"; fail "the script did not run with MEMPLACE_TABLE_OUT"; }
[ "$(find "$work/from-env/runs" -name result.yaml | wc -l)" -eq 1 ] ||
  fail "--agents random was not passed through to MEMPLACE_TABLE_OUT's table"
echo "ok"
