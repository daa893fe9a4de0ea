#!/usr/bin/env bash
# Regenerates the seed inputs of fuzz/corpus/ that memplace writes itself (the other targets'
# seeds are shipped files: fuzz/seeds.txt). Run from the repository root after `make build`.
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A checkpoint of each run the checkpoint target resumes, one per registered agent, from the same
# config (fuzz/targets.cpp, checkpoint_run_config: the GNN at its smallest for an agent with a GNN
# policy).
rm -f fuzz/corpus/checkpoint/*.bin
"$memplace" list --json | /usr/bin/python3 -c '
import json, sys
for agent in json.load(sys.stdin)["agents"]:
    print(agent["name"], "gnn" if agent["has_policy"] else "-",
          "transfer" if agent["starts_from_policy"] else "-")' > "$work/agents"
while read -r agent network _; do
  printf 'agent: %s\nworkload: procedural-cnn-s10\nbudget: 100\nthreads: 1\n' "$agent" \
    > "$work/$agent.yaml"
  if [[ $network == gnn ]]; then
    echo 'hyperparameters: {hidden: 2, conv_layers: 1}' >> "$work/$agent.yaml"
  fi
  "$memplace" train --config "$work/$agent.yaml" --out "$work/run-$agent" -q > /dev/null
  cp "$work/run-$agent/checkpoint.bin" "fuzz/corpus/checkpoint/$agent-procedural-cnn.bin"
done < "$work/agents"
# A small GNN policy file, from the first registered agent that starts from a policy.
rm -f fuzz/corpus/gnn_file/*.gnn
policy_agent=$(awk '$3 == "transfer" { print $1; exit }' "$work/agents")
"$memplace" transfer --agent "$policy_agent" --budget 200 --to resnet50 --threads 1 -p hidden=4 \
  -p conv_layers=1 --out "$work/transfer" -q > /dev/null
cp "$work/transfer/policy.gnn" "fuzz/corpus/gnn_file/$policy_agent-resnet50.gnn"
# A zero-slack allocation problem, and the same with its packing.
"$memplace" pack --generate 12 --seed 1 -o fuzz/corpus/allocation_csv/zero-slack-12.csv > /dev/null
"$memplace" pack fuzz/corpus/allocation_csv/zero-slack-12.csv \
  -o fuzz/corpus/allocation_csv/zero-slack-12-packed.csv > /dev/null
