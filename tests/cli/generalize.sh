#!/usr/bin/env bash
# The generalization track (docs/table.md#the-generalization-track) on a small scale: ppo trained on
# the Edge TPU's dev instances and a procedural workload, then placing its test instances; the
# report has a row per test instance and seed, is the same with 1 and 2 jobs and when read back by
# a rerun; another config in the folder, an agent without a policy and a chip without dev and test
# instances are refused (exit 2); the track from policies trained before (--policies) trains no
# chain, runs with the policies' features and places as memplace place does.
#
# Usage: generalize.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
track=(generalize --agents ppo --chips edge-tpu --procedural procedural-cnn-s1 --train-budget 40
       -k 30 --seeds 2 -q)

"$memplace" "${track[@]}" --jobs 1 --out "$work/one" > "$work/one.out" || fail "the track failed"
"$memplace" "${track[@]}" --jobs 2 --out "$work/two" > /dev/null || fail "the track with 2 jobs failed"
for file in generalization.csv cross-hardware.csv generalization.md; do
  [ -s "$work/one/$file" ] || fail "no $file"
  cmp -s "$work/one/$file" "$work/two/$file" || fail "$file differs between 1 and 2 jobs"
done
tests=$("$memplace" references --suite v1 --split test | grep -c '@edge-tpu')
[ "$(tail -n +2 "$work/one/generalization.csv" | wc -l)" = $((2 * tests)) ] ||
  fail "generalization.csv: not one row per test instance on the Edge TPU and seed"
[ -s "$work/one/chains/ppo-edge-tpu/3-procedural-cnn-s1/policy.gnn" ] ||
  fail "the chain's last segment has no policy"
grep -q "init_policy" "$work/one/runs/ppo-fine-resnet18-b1@edge-tpu-s0/config.yaml" ||
  fail "the fine-tuned run does not start from the policy"
if grep -q "init_policy" "$work/one/runs/ppo-scratch-resnet18-b1@edge-tpu-s0/config.yaml"; then
  fail "the scratch run starts from the policy"
fi
# A rerun reads everything back and reports the same.
"$memplace" "${track[@]}" --jobs 1 --out "$work/one" > "$work/again.out" || fail "the rerun failed"
cmp -s "$work/one.out" "$work/again.out" || fail "the rerun reports otherwise"
echo "the same report with 1 and 2 jobs and when read back"

# --pretrain extends the folder with runs from a reward predictor; the other runs are kept.
"$memplace" "${track[@]}" --pretrain --pretrain-steps 20 --out "$work/one" > /dev/null ||
  fail "the track extended with --pretrain failed"
[ -s "$work/one/chains/reward-predictor-edge-tpu/network.gnn" ] || fail "no reward predictor"
grep -q "held_out_r2" "$work/one/chains/reward-predictor-edge-tpu/prediction.yaml" ||
  fail "no record of the predictor"
[ -z "$(tail -n +2 "$work/one/generalization.csv" | awk -F, '$11 == ""')" ] ||
  fail "generalization.csv: a row without its pretrained run"
cmp -s <(cut -d, -f1-10 "$work/one/generalization.csv") <(cut -d, -f1-10 "$work/two/generalization.csv") ||
  fail "extending the folder changed the other runs' results"
echo "--pretrain extends the folder"

# --policies: the track from policies trained before (memplace pretrain's), no chain trained; every
# run of the agent reads the policy's node features; the zero-shot placement is memplace place's.
"$memplace" pretrain --hardware edge-tpu --features chip-relative --segments 2 --segment-budget 40 \
  --validation-graphs 1 --out "$work/pre" -q > /dev/null || fail "pretrain failed"
mkdir -p "$work/policies" && cp "$work/pre/best.gnn" "$work/policies/ppo-edge-tpu.gnn"
from=(generalize --agents ppo --chips edge-tpu -k 30 --seeds 1 -q --policies "$work/policies")
"$memplace" "${from[@]}" --pretrain --pretrain-steps 20 --out "$work/from" > /dev/null ||
  fail "the track from given policies failed"
[ ! -e "$work/from/chains/ppo-edge-tpu" ] || fail "a chain was trained although the policy was given"
for mode in fine scratch pretrained; do
  grep -q "features: chip-relative" "$work/from/runs/ppo-$mode-resnet18-b1@edge-tpu-s0/config.yaml" ||
    fail "the $mode run does not read the policy's features"
done
grep -q "init_policy: \"$work/policies/ppo-edge-tpu.gnn\"" \
  "$work/from/runs/ppo-fine-resnet18-b1@edge-tpu-s0/config.yaml" || fail "the fine-tuned run's start"
zero=$(awk -F, '$3 == "resnet18-b1@edge-tpu" {print $6}' "$work/from/generalization.csv")
placed=$("$memplace" place resnet18-b1 --hardware edge-tpu --policy "$work/policies/ppo-edge-tpu.gnn" \
  --json -o "$work/placed" | /usr/bin/python3 -c 'import json,sys; print("%.6f" % json.load(sys.stdin)["zero_shot_speedup"])')
[ -n "$zero" ] && [ "$zero" = "$placed" ] || fail "zero-shot $zero in the track, $placed placed"
echo "the track from given policies"

expect_2() {
  "$memplace" "$@" > "$work/bad.log" 2>&1
  local code=$?
  [ "$code" = 2 ] || fail "memplace $* exited $code, expected 2: $(cat "$work/bad.log")"
  grep -q "$expected" "$work/bad.log" || fail "memplace $*: the error does not say '$expected'"
}
expected="holds a generalization track with another config" \
  expect_2 "${track[@]}" --rounds 2 --out "$work/one"
expected="holds a generalization track with another config" \
  expect_2 "${track[@]}" --out "$work/one"   # the folder now holds the pretrained runs too
expected="'sa' has no GNN policy" expect_2 generalize --agents sa --out "$work/bad"
expected="no dev and test instances on 'nowhere'" expect_2 generalize --chips nowhere --out "$work/bad"
expected="not a procedural workload" expect_2 generalize --procedural resnet50 --out "$work/bad"
expected="no $work/policies/ppo-nnpi.gnn" expect_2 "${from[@]}" --chips nnpi --out "$work/bad"
cp "$work/policies/ppo-edge-tpu.gnn" "$work/policies/egrl-edge-tpu.gnn"
expected="is a policy for agent=ppo" \
  expect_2 generalize --agents egrl --chips edge-tpu --policies "$work/policies" --out "$work/bad"
expected="'$work/none' is not a folder" expect_2 generalize --policies "$work/none" --out "$work/bad"
[ ! -e "$work/bad" ] || fail "a refused track left its folder behind"
echo "ok"
