#!/usr/bin/env bash
# The policies memplace ships (policies/ppo-<chip>.gnn, docs/place.md#the-shipped-policies): one
# ppo policy per chip trained across graphs by `memplace pretrain` at 100x the evaluations of the
# generalization track's chains (1,000 evaluations a segment; the chains had 2,000 on each of the
# chip's dev instances and three procedural graphs), the best validated policy of each kept, with
# its config, validation curve and best.yaml under policies/training/. The chips run two at a time
# (one core each); results do not depend on it.
#
# Usage: scripts/train-policies.sh MEMPLACE [WORK_FOLDER]   (from the repository root; 36 min on
# 2 cores; an interrupted run continues where it stopped when run again with the same folder)
set -eu
memplace=$1
work=${2:-runs/train-policies}
mkdir -p "$work"

# chip:segments, the segments 100x the track's chain evaluations / 1,000.
train() {
  local chip=${1%%:*} segments=${1##*:}
  "$memplace" pretrain --agent ppo --hardware "$chip" -p ent_coef=0.01 -p lr=0.0003 \
    --segments "$segments" --segment-budget 1000 --validate-every 50 --out "$work/ppo-$chip" -q
}
(train nnpi:1800) &
first=$!
train edge-tpu:1200
train ipu-gc200:1200
train tpu-v4i:1000
wait "$first"

for chip in nnpi edge-tpu ipu-gc200 tpu-v4i; do
  mkdir -p "policies/training/ppo-$chip"
  cp "$work/ppo-$chip/best.gnn" "policies/ppo-$chip.gnn"
  for file in config.yaml validation.csv best.yaml; do
    cp "$work/ppo-$chip/$file" "policies/training/ppo-$chip/$file"
  done
done
echo "policies/: $(ls policies/*.gnn | tr '\n' ' ')"
