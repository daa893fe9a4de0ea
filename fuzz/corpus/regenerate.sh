#!/usr/bin/env bash
# Regenerates the seed inputs of fuzz/corpus/ that memplace writes itself (the other targets'
# seeds are shipped files: fuzz/seeds.txt). Run from the repository root after `make build`.
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A checkpoint of the run the checkpoint target resumes (fuzz/targets.cpp, kCheckpointRun).
"$memplace" train --config fuzz/corpus/checkpoint-run.yaml --out "$work/run" -q > /dev/null
cp "$work/run/checkpoint.bin" fuzz/corpus/checkpoint/sa-procedural-cnn.bin
# A small GNN policy file.
"$memplace" transfer --agent ppo --budget 200 --to resnet50 --threads 1 -p hidden=4 \
  -p conv_layers=1 --out "$work/transfer" -q > /dev/null
cp "$work/transfer/policy.gnn" fuzz/corpus/gnn_file/ppo-resnet50.gnn
# A zero-slack allocation problem, and the same with its packing.
"$memplace" pack --generate 12 --seed 1 -o fuzz/corpus/allocation_csv/zero-slack-12.csv > /dev/null
"$memplace" pack fuzz/corpus/allocation_csv/zero-slack-12.csv \
  -o fuzz/corpus/allocation_csv/zero-slack-12-packed.csv > /dev/null
