#!/usr/bin/env bash
# A small table's figures (SVG) parse as XML and show the numbers of its CSV files and run folders
# (tests/cli/check_table_svgs.py, with Debian's /usr/bin/python3), on NNP-I (3 memories) and on the
# Edge TPU (2 memories).
#
# Usage: table_plots.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$memplace" table --agents sa,greedy-dp,random --workloads resnet50,bert-base --seeds 2 \
  --budget 1500 --out "$work/table" -q > /dev/null || { echo "FAIL: the table did not run"; exit 1; }
for kind in curves placement memory; do
  for workload in resnet50 bert-base; do
    [ -s "$work/table/$kind-$workload.svg" ] || { echo "FAIL: no $kind-$workload.svg"; exit 1; }
  done
done
/usr/bin/python3 tests/cli/check_table_svgs.py "$work/table" || exit 1
printf 'agents: [ea, sa]\nworkloads: [resnet50]\nhardware: edge-tpu\nseeds: 1\nbudget: 500\n' \
  > "$work/edge-tpu.yaml"
"$memplace" table "$work/edge-tpu.yaml" --out "$work/edge-tpu" -q > /dev/null ||
  { echo "FAIL: the edge-tpu table did not run"; exit 1; }
/usr/bin/python3 tests/cli/check_table_svgs.py "$work/edge-tpu"
