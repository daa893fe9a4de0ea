#!/usr/bin/env bash
# memplace place (docs/place.md): an ONNX model memplace does not ship, placed zero-shot by a
# policy saved with its spec, within the command's one forward pass; its mapping replays exactly
# with memplace evaluate; without a budget the placement is the greedy mapping rectified; a
# fine-tune runs its budget; a policy for another chip and bad options exit 2 naming the cause;
# memplace pretrain's policy places, and its bad options exit 2.
#
# Usage: place.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/expect.sh"

# A ppo policy for nnpi under v1, trained briefly (saved with its spec by memplace transfer).
expect 0 "Zero-shot transfer" "$memplace" transfer --agent ppo --train resnet50 --to resnet50 \
  --budget 300 --env-version v1 --out "$work/transfer" -q
policy=$work/transfer/policy.gnn

model=workloads/onnx/bert-base-shaped.onnx
expect 0 "placed by $policy (agent=ppo env_version=v1 hardware=nnpi features=observation)" \
  "$memplace" place "$model" --dim batch=2 --dim sequence=128 --hardware nnpi --policy "$policy" \
  -o "$work/zero"
grep -q "zero-shot (greedy mapping" "$work/out.log" || fail "no zero-shot line: $(cat "$work/out.log")"
[ -f "$work/zero/bert-base-shaped.yaml" ] || fail "the ONNX model's workload YAML was not written"
expect 0 "recorded result: reproduced exactly" \
  "$memplace" evaluate "$work/zero/bert-base-shaped.yaml" "$work/zero/mapping.yaml"

# JSON: without a budget the placement is the zero-shot one; with one, the fine-tune ran it.
"$memplace" place resnet50 --hardware nnpi --policy "$policy" -o "$work/json" --json \
  > "$work/zero.json" || fail "place --json exited $?"
"$memplace" place resnet50 --hardware nnpi --policy "$policy" -o "$work/tuned" --budget 200 \
  --json > "$work/tuned.json" || fail "place --budget exited $?"
python3 - "$work/zero.json" "$work/tuned.json" <<'PY' || fail "the JSON results disagree"
import json, sys
zero, tuned = (json.load(open(p)) for p in sys.argv[1:3])
assert zero["speedup"] == zero["zero_shot_speedup"], zero
assert zero["fine_tune_evaluations"] == 0, zero
assert tuned["fine_tune_evaluations"] == 200, tuned
assert tuned["zero_shot_speedup"] == zero["zero_shot_speedup"], (zero, tuned)
assert tuned["speedup"] == max(zero["speedup"], tuned["fine_tuned_speedup"]), tuned
assert tuned["bound_speedup"] >= tuned["speedup"], tuned
PY
expect 0 "reproduced exactly" "$memplace" evaluate resnet50 "$work/tuned/mapping.yaml"
# The same request again reads the finished fine-tune back; another one is not passed off as it.
"$memplace" place resnet50 --hardware nnpi --policy "$policy" -o "$work/tuned" --budget 200 \
  --json > "$work/again.json" || fail "the same place --budget again exited $?"
cmp -s "$work/tuned.json" "$work/again.json" || fail "the rerun gave other figures"
expect 2 "holds the fine-tune of another request" \
  "$memplace" place resnet50 --hardware nnpi --policy "$policy" -o "$work/tuned" --budget 300

# Refused: a policy for another chip, a missing policy, --dim on a workload that is not ONNX, a
# bad --dim, a negative budget, a folder that cannot be written; none leaves a folder behind.
expect 2 "a policy trained for agent=ppo env_version=v1 hardware=nnpi" \
  "$memplace" place resnet50 --hardware edge-tpu --policy "$policy" -o "$work/other"
expect 2 "the model's chip is 'edge-tpu'" \
  "$memplace" place resnet50 --hardware edge-tpu --policy "$policy" -o "$work/other"
expect 2 "$work/none.gnn" "$memplace" place resnet50 --hardware nnpi --policy "$work/none.gnn" -o "$work/x"
expect 2 "--dim is for ONNX models" \
  "$memplace" place resnet50 --hardware nnpi --policy "$policy" --dim batch=2 -o "$work/x"
expect 2 "--dim batch=0" \
  "$memplace" place "$model" --hardware nnpi --policy "$policy" --dim batch=0 -o "$work/x"
# A refused request leaves no folder behind, nor the folders above it that it made.
for refused in other x; do
  [ ! -e "$work/$refused" ] || fail "the refused request left $work/$refused: $(ls -R "$work/$refused")"
done
expect 2 "$work/none.gnn" \
  "$memplace" place resnet50 --hardware nnpi --policy "$work/none.gnn" -o "$work/new/deeper"
[ ! -e "$work/new" ] || fail "the refused request left $work/new"
mkdir "$work/kept"
expect 2 "$work/none.gnn" \
  "$memplace" place resnet50 --hardware nnpi --policy "$work/none.gnn" -o "$work/kept/sub"
[ -d "$work/kept" ] && [ ! -e "$work/kept/sub" ] || fail "a folder that was there before went"
expect 2 "--budget" "$memplace" place resnet50 --hardware nnpi --policy "$policy" --budget -1
expect 2 "--init-temperature" \
  "$memplace" place resnet50 --hardware nnpi --policy "$policy" --budget 5 --init-temperature 0
expect 2 "init_temperature: tempers a trained policy, so it needs init_policy" \
  "$memplace" train --agent ppo --budget 5 --init-temperature 2 -q --out "$work/lone"
touch "$work/file"
expect 2 "$work/file" "$memplace" place resnet50 --hardware nnpi --policy "$policy" -o "$work/file/sub"
# The policy memplace ships for the chip, by default and by name; none ships for a hardware file
# of another name.
expect 0 "placed by the shipped policy ppo-nnpi (agent=ppo env_version=v1 hardware=nnpi" \
  "$memplace" place "$model" --dim batch=2 --dim sequence=128 --hardware nnpi -o "$work/shipped"
expect 0 "placed by the shipped policy ppo-nnpi" \
  "$memplace" place resnet50 --hardware nnpi --policy ppo-nnpi -o "$work/shipped-name"
expect 0 "fine-tuned (100 evaluations)" \
  "$memplace" place resnet50 --hardware nnpi --budget 100 -q -o "$work/shipped-fine"
[ -s "$work/shipped-fine/ppo-nnpi.gnn" ] || fail "the fine-tune's start was not written beside it"
sed 's/^name: .*/name: my-chip/' workloads/hardware/nnpi.yaml > "$work/my-chip.yaml"
expect 2 "no policy ships for the chip 'my-chip'" \
  "$memplace" place resnet50 --hardware "$work/my-chip.yaml" -o "$work/y"
# memplace pretrain: a short run across graphs gives a policy with its spec, which places.
expect 0 "trained ppo on 3 segments (300 evaluations)" "$memplace" pretrain --hardware tpu-v4i \
  --segments 3 --segment-budget 100 --validate-every 2 --validation-graphs 1 --out "$work/pre" -q
[ "$(wc -l < "$work/pre/validation.csv")" = 5 ] || fail "validation.csv: $(cat "$work/pre/validation.csv")"
expect 0 "agent=ppo env_version=v1 hardware=tpu-v4i features=observation" \
  "$memplace" place procedural-cnn-s7 --hardware tpu-v4i --policy "$work/pre/policy.gnn" -o "$work/pre-place"
expect 2 "only --segments may change" "$memplace" pretrain --hardware tpu-v4i --segments 3 \
  --segment-budget 50 --validate-every 2 --validation-graphs 1 --out "$work/pre" -q
expect 2 "has no GNN policy" "$memplace" pretrain --hardware tpu-v4i --agent greedy-dp --out "$work/y"
expect 2 "no dev instance" "$memplace" pretrain --hardware no-such-chip --out "$work/y"
# A value the agent or the env refuses leaves no folder whose config would refuse the corrected one.
expect 2 "hyperparameter lr=abc" "$memplace" pretrain --hardware tpu-v4i -p lr=abc --out "$work/typo"
expect 2 "option 'invalid'" "$memplace" pretrain --hardware tpu-v4i -o invalid=xx --out "$work/typo"
[ ! -e "$work/typo" ] || fail "a refused pretrain left $work/typo behind: $(ls "$work/typo")"
# The chip-relative features: trained with them, the policy says so and places with them.
expect 0 "trained ppo on 2 segments" "$memplace" pretrain --hardware tpu-v4i --features chip-relative \
  -p ent_coef=0.01 --segments 2 --segment-budget 64 --validation-graphs 1 --out "$work/pre-rel" -q
expect 0 "features=chip-relative" \
  "$memplace" place procedural-cnn-s7 --hardware tpu-v4i --policy "$work/pre-rel/policy.gnn" -o "$work/rel-place"
expect 0 "Zero-shot transfer" "$memplace" transfer --agent ppo --train resnet50 --to mobilenet-v2 \
  --budget 64 --env-version v1 --features chip-relative --out "$work/transfer-rel" -q
expect 0 "features=chip-relative" "$memplace" place mobilenet-v2 --hardware nnpi \
  --policy "$work/transfer-rel/policy.gnn" -o "$work/rel-place2"
expect 2 "--features" "$memplace" pretrain --hardware tpu-v4i --features relative --out "$work/y"
expect 2 "no_such_param" "$memplace" pretrain --hardware tpu-v4i -p no_such_param=1 --out "$work/y"
expect 2 "invalid" "$memplace" pretrain --hardware tpu-v4i -o invalid=ignore --out "$work/y"
echo "place: all checks passed"
