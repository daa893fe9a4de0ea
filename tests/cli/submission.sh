#!/usr/bin/env bash
# Submissions (docs/leaderboard.md): the shipped entries re-check (exit 0); a copy with one tampered
# mapping, one tampered claim or one tampered report does not (exit 1, naming the run); malformed
# copies are refused (exit 2, naming the file); a fresh suite table packs into a submission that
# checks, and packing over an existing folder or from a table that is not a suite table is refused.
#
# Usage: submission.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
entry=submissions/memplace-baselines-quick-v1
run=ea-resnet18-b1@edge-tpu-s0

"$memplace" submission check "$entry" > "$work/ok.log" 2>&1 || fail "the shipped entry: $(cat "$work/ok.log")"
grep -q "every claim reproduces" "$work/ok.log" || fail "the shipped entry: no verdict"

# expect CODE TEXT COMMAND...: the command exits CODE and says TEXT.
source "$(dirname "$0")/expect.sh"
copy() { rm -rf "$work/copy"; cp -r "$entry" "$work/copy"; }

# A mapping moved: one weight from SRAM to host memory.
copy
mapping="$work/copy/runs/$run/best_mapping.yaml"
line=$(grep -n "weight: SRAM" "$mapping" | head -1 | cut -d: -f1)
sed -i "${line}s/weight: SRAM/weight: HOST/" "$mapping"
expect 1 "$run: claims a best speedup of" "$memplace" submission check "$work/copy"
expect 1 "DO NOT REPRODUCE" "$memplace" submission leaderboard "$work/copy"
# A claim raised.
copy
sed -i 's/^best_speedup: 1\./best_speedup: 2./' "$work/copy/runs/$run/result.yaml"
expect 1 "$run: claims a best speedup of 2." "$memplace" submission check "$work/copy"
# A report raised.
copy
sed -i '2s/^\([a-z-]*\),18,0\./\1,18,0.9/' "$work/copy/suite.csv"
cmp -s "$entry/suite.csv" "$work/copy/suite.csv" && fail "the report was not tampered"
expect 1 "suite.csv: is not the report of the re-scored runs" "$memplace" submission check "$work/copy"

# Malformed folders.
expect 2 "not a folder" "$memplace" submission check "$work/nothing"
copy
rm "$work/copy/suite.csv"
expect 2 "suite.csv: cannot open file" "$memplace" submission check "$work/copy"
copy
sed -i '/^authors:/d' "$work/copy/submission.yaml"
expect 2 "authors" "$memplace" submission check "$work/copy"
copy
sed -i '/^  sa:/d' "$work/copy/submission.yaml"
expect 2 "agents: 'sa' (a row of the table) is not described" "$memplace" submission check "$work/copy"
copy
rm "$work/copy/runs/$run/curve.csv"
expect 2 "curve.csv" "$memplace" submission check "$work/copy"
copy
sed -i 's/^seed: 0/seed: 1/' "$work/copy/runs/$run/result.yaml"
expect 2 "not of ea on resnet18-b1@edge-tpu, seed 0" "$memplace" submission check "$work/copy"
copy
sed -i "${line}s/weight: SRAM/weight: DRAM/" "$work/copy/runs/$run/best_mapping.yaml"
expect 2 "unknown memory 'DRAM'" "$memplace" submission check "$work/copy"
copy
sed -i '/^suite:/d; /^split:/d' "$work/copy/config.yaml"
expect 2 "not a suite table" "$memplace" submission check "$work/copy"
echo "the shipped entry checks; tampered claims exit 1, malformed folders 2"

# The Python baselines' entry (external agents): it checks, and a raised claim of each of its agents
# is caught.
python_entry=submissions/python-baselines-quick-v1
expect 0 "every claim reproduces" "$memplace" submission check "$python_entry"
for agent in cleanrl-ppo sb3-ppo sb3-maskable-ppo; do
  rm -rf "$work/copy"
  cp -r "$python_entry" "$work/copy"
  sed -i 's/^best_speedup: [0-9.e+-]*/best_speedup: 3.5/' "$work/copy/runs/$agent-resnet18-b1@edge-tpu-s1/result.yaml"
  expect 1 "$agent-resnet18-b1@edge-tpu-s1: claims a best speedup of 3.5" "$memplace" submission check "$work/copy"
done
echo "the Python baselines' entry checks; a raised claim of each agent exits 1"

# Pack a fresh suite table, and refuse what cannot be packed.
"$memplace" table --suite v1 --agents sa,random --seeds 2 --budget 100 -q \
  --workloads resnet18-b1@edge-tpu,distilbert-b1-s128@nnpi --out "$work/table" > /dev/null ||
  fail "the suite table failed"
pack=(submission pack "$work/table" --name t --authors me --code here --memplace abc)
expect 0 "every claim reproduces" "$memplace" "${pack[@]}" --out "$work/packed"
[ ! -e "$work/packed/runs/sa-resnet18-b1@edge-tpu-s0/checkpoint.bin" ] || fail "packed a checkpoint"
expect 0 "every claim reproduces" "$memplace" submission check "$work/packed"
expect 2 "exists" "$memplace" "${pack[@]}" --out "$work/packed"
"$memplace" table --agents sa --workloads resnet50 --seeds 1 --budget 50 -q --out "$work/plain" > /dev/null ||
  fail "the plain table failed"
expect 2 "not a suite table" "$memplace" submission pack "$work/plain" --out "$work/p2" --name t \
  --authors me --code here --memplace abc
echo "ok"
