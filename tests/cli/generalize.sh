#!/usr/bin/env bash
# The generalization track (docs/table.md#the-generalization-track) on a small scale: ppo trained on
# the Edge TPU's dev instances and a procedural workload, then placing its test instances; the
# report has a row per test instance and seed, is the same with 1 and 2 jobs and when read back by
# a rerun; another config in the folder, an agent without a policy and a chip without dev and test
# instances are refused (exit 2).
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
echo "ok"
