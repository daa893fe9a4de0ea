#!/usr/bin/env bash
# Regenerates the seed inputs of fuzz/corpus/ that memplace writes itself (the other targets'
# seeds are shipped files: fuzz/seeds.txt). Run from the repository root after `make build`.
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A checkpoint of each run the checkpoint target resumes, one per agent, from the same config
# (fuzz/targets.cpp, checkpoint_run_config; fuzz/corpus/checkpoint-run.yaml is sa's).
rm -f fuzz/corpus/checkpoint/*.bin
for agent in sa ea egrl ppo sac mcts greedy-dp random; do
  printf 'agent: %s\nworkload: procedural-cnn-s10\nbudget: 100\nthreads: 1\n' "$agent" \
    > "$work/$agent.yaml"
  case $agent in ea | egrl | ppo | sac)
    echo 'hyperparameters: {hidden: 2, conv_layers: 1}' >> "$work/$agent.yaml" ;;
  esac
  "$memplace" train --config "$work/$agent.yaml" --out "$work/run-$agent" -q > /dev/null
  cp "$work/run-$agent/checkpoint.bin" "fuzz/corpus/checkpoint/$agent-procedural-cnn.bin"
done
# A small GNN policy file.
"$memplace" transfer --agent ppo --budget 200 --to resnet50 --threads 1 -p hidden=4 \
  -p conv_layers=1 --out "$work/transfer" -q > /dev/null
cp "$work/transfer/policy.gnn" fuzz/corpus/gnn_file/ppo-resnet50.gnn
# A zero-slack allocation problem, and the same with its packing.
"$memplace" pack --generate 12 --seed 1 -o fuzz/corpus/allocation_csv/zero-slack-12.csv > /dev/null
"$memplace" pack fuzz/corpus/allocation_csv/zero-slack-12.csv \
  -o fuzz/corpus/allocation_csv/zero-slack-12-packed.csv > /dev/null
