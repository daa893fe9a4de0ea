#!/usr/bin/env bash
# The suite table (docs/table.md#suite-tables): a small table of suite v1's test split gives its
# report (suite.md, suite.csv, profile.csv, shares.csv and the two figures) with the same bytes
# over 2 MPI ranks and on a CPU without AVX-512, AVX2 or FMA (with 2 jobs); its aggregates agree
# with an independent computation from its shares; bad suites and splits exit 2.
#
# Usage: suite_table.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
source "$(dirname "$0")/mpi/mpi_common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table=(table --suite v1 --agents sa,random --seeds 3 --budget 200 -q
       --workloads resnet18-b1@edge-tpu,efficientnet-b0-b1@edge-tpu,distilbert-b1-s128@nnpi)
outputs=(suite.csv profile.csv shares.csv performance-profile.svg heat-map.svg table.csv)

"$memplace" "${table[@]}" --jobs 1 --out "$work/plain" > "$work/plain.out" ||
  fail "the plain suite table failed"
grep -q "^# Suite table: suite v1, test split" "$work/plain.out" || fail "no suite report printed"
for file in "${outputs[@]}" suite.md suite-wall-time.csv; do
  [ -s "$work/plain/$file" ] || fail "no $file"
done
"${mpi[@]}" -np 2 "$memplace" "${table[@]}" --out "$work/np2" > /dev/null ||
  fail "the suite table with 2 ranks failed"
MEMPLACE_GEMM_KERNEL=portable GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ \
  "$memplace" "${table[@]}" --jobs 2 --out "$work/portable" > /dev/null ||
  fail "the suite table on the portable paths failed"
for run in np2 portable; do
  for file in "${outputs[@]}"; do
    cmp -s "$work/plain/$file" "$work/$run/$file" || fail "$run: $file differs from the plain run's"
  done
done
echo "the same report with 1 process, 2 ranks and the portable paths"

# The aggregates from the shares, computed again here from the definitions (docs/table.md).
/usr/bin/python3 - "$work/plain" <<'PY' || fail "the aggregates do not follow from the shares"
import csv, sys
folder = sys.argv[1]
shares = {}
for row in csv.DictReader(open(f"{folder}/shares.csv")):
    shares.setdefault(row["agent"], {}).setdefault(row["instance"], []).append(float(row["share"]))
def iqm(values):
    values = sorted(values)
    cut = len(values) // 4
    middle = values[cut:len(values) - cut]
    return sum(middle) / len(middle)
def improvement(x, y):
    total = 0
    for instance in x:
        wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x[instance] for b in y[instance])
        total += wins / (len(x[instance]) * len(y[instance]))
    return total / len(x)
for row in csv.DictReader(open(f"{folder}/suite.csv")):
    runs = [s for values in shares[row["agent"]].values() for s in values]
    assert int(row["runs"]) == len(runs), row
    # shares.csv keeps 6 decimals: agree to their rounding.
    assert abs(float(row["iqm"]) - iqm(runs)) < 2e-6, (row["agent"], row["iqm"], iqm(runs))
    assert float(row["iqm_low"]) <= float(row["iqm"]) + 1e-6 <= float(row["iqm_high"]) + 2e-6, row
    for other in shares:
        p = improvement(shares[row["agent"]], shares[other])
        assert abs(float(row[f"p_improvement_over_{other}"]) - p) < 1e-6, (row["agent"], other, p)
for row in csv.DictReader(open(f"{folder}/profile.csv")):
    tau = float(row["threshold"])
    for agent, per_instance in shares.items():
        runs = [s for values in per_instance.values() for s in values]
        # Shares within rounding of a threshold are left out of the comparison.
        if any(abs(s - tau) < 2e-6 for s in runs): continue
        assert abs(float(row[agent]) - sum(s > tau for s in runs) / len(runs)) < 1e-6, (tau, agent)
PY
echo "the IQM, probabilities of improvement and profile follow from the shares"

expect_2() {
  "$memplace" "$@" --out "$work/bad" > "$work/bad.log" 2>&1
  local code=$?
  [ "$code" = 2 ] || fail "memplace $* exited $code, expected 2: $(cat "$work/bad.log")"
  grep -q "$expected" "$work/bad.log" || fail "memplace $*: the error does not say '$expected'"
}
expected="suite" expect_2 table --suite v9 --agents sa
expected="split" expect_2 table --suite v1 --split train --agents sa
expected="a split without a suite" expect_2 table --split dev --agents sa
expected="not an instance of suite v1" expect_2 table --suite v1 --workloads bert-base --agents sa
expected="cost model v1" expect_2 table --suite v1 --env-version v0 --agents sa
echo "ok"
