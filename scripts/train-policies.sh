#!/usr/bin/env bash
# The policies memplace ships (policies/<agent>-<chip>.gnn, docs/place.md#the-shipped-policies):
# per chip, a ppo policy trained across graphs by `memplace pretrain` at 100x the evaluations of
# the generalization track's chains, and an egrl policy at 10x (segments of 1,000 evaluations; the
# chains had 2,000 on each of the chip's dev instances and three procedural graphs), the best
# validated policy of each run kept, with its config, validation curve and best.yaml under
# policies/training/. Two runs at a time (one core each); results do not depend on it.
#
# Usage: scripts/train-policies.sh MEMPLACE [WORK_FOLDER]   (from the repository root; about
# 80 min on 2 cores; run again with the same folder, an interrupted run continues where it stopped)
set -eu
memplace=$1
work=${2:-runs/train-policies}
mkdir -p "$work"

# agent:chip:segments — ppo's segments 100x the track's chain evaluations / 1,000, egrl's 10x.
train() {
  local agent chip segments
  IFS=: read -r agent chip segments <<< "$1"
  local options=(--validate-every 10)
  [ "$agent" = ppo ] && options=(-p ent_coef=0.01 -p lr=0.0003 --validate-every 50)
  "$memplace" pretrain --agent "$agent" --hardware "$chip" "${options[@]}" \
    --segments "$segments" --segment-budget 1000 --out "$work/$agent-$chip" -q
}
(train ppo:nnpi:1800 && train egrl:nnpi:180) &
first=$!
for run in ppo:edge-tpu:1200 ppo:ipu-gc200:1200 ppo:tpu-v4i:1000 egrl:edge-tpu:120 \
           egrl:ipu-gc200:120 egrl:tpu-v4i:100; do
  train "$run"
done
wait "$first"

for agent in ppo egrl; do
  for chip in nnpi edge-tpu ipu-gc200 tpu-v4i; do
    mkdir -p "policies/training/$agent-$chip"
    cp "$work/$agent-$chip/best.gnn" "policies/$agent-$chip.gnn"
    for file in config.yaml validation.csv best.yaml; do
      cp "$work/$agent-$chip/$file" "policies/training/$agent-$chip/$file"
    done
  done
done
echo "policies/: $(ls policies/*.gnn | tr '\n' ' ')"
