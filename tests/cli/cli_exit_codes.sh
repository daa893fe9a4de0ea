#!/usr/bin/env bash
# End-to-end exit codes of the real `memplace` binary (messages are checked in test_cli.cpp).
# Usage: cli_exit_codes.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
failures=0
expect() {
  local want=$1
  shift
  "$memplace" "$@" > /dev/null 2> /tmp/memplace_cli_err.$$
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: memplace $* exited $got, expected $want: $(cat /tmp/memplace_cli_err.$$)"
    failures=$((failures + 1))
  fi
}
expect 0 list
expect 0 info tests/data/good/chain.yaml
expect 0 evaluate tests/data/good/chain.yaml tests/data/good/chain-mapping.yaml
expect 0 optimum tests/data/good/chain.yaml --hardware tests/data/good/toy-hw.yaml -q -o /tmp/memplace-optimum.$$.yaml
expect 0 evaluate tests/data/good/chain.yaml /tmp/memplace-optimum.$$.yaml --hardware tests/data/good/toy-hw.yaml
expect 2 info tests/data/bad/binary-garbage.yaml
expect 2 info tests/data/bad/cycle.yaml
expect 2 evaluate tests/data/good/chain.yaml tests/data/bad/map-wrong-length.yaml
expect 2 no-such-command
expect 0 references all --hardware all --summary
expect 2 references resnet50 --hardware nnpi,tpu-v9
expect 2 references --suite no-such-suite
expect 2 references --suite v1 --split train
expect 2 references --suite tests/data/bad/cycle.yaml
expect 2 check memplace/single-step/resnet50@tpu-v9-v0
expect 2 info /nonexistent/path.yaml
expect 2 table --seeds 0 -q
expect 2 table /nonexistent/table.yaml -q
expect 2 transfer --agent random -q --out /tmp/memplace-bad-transfer.$$
expect 2 import workloads/onnx/resnet50.onnx -o /nonexistent-folder/x.yaml
# Bad shapes: batch 0, a KV cache longer than the model's context, an unknown element type.
expect 0 import workloads/onnx/bert-large.onnx --dim batch=2 --dim sequence=64 --element-type bf16
expect 2 import workloads/onnx/bert-large.onnx --dim batch=0 --dim sequence=64
expect 2 import workloads/onnx/llama-3.2-1b-decode.onnx --dim batch=1 --dim kv_length=131072 --static-input 'past_*'
# Calibration (docs/calibration.md): a set that is neither shipped nor a file, a bad set file,
# --fit over two sets, an unwritable table.
expect 0 calibrate edge-tpu --hardware edge-tpu.cal1 --json
expect 2 calibrate no-such-chip
expect 2 calibrate tests/data/bad/cycle.yaml
expect 2 calibrate edge-tpu edge-tpu --fit /tmp/memplace-fit.$$.yaml
expect 2 calibrate edge-tpu --csv /nonexistent-folder/x.csv
expect 2 calibrate edge-tpu --hardware tpu-v9
expect 2 import workloads/onnx/bert-large.onnx --dim batch=1 --dim sequence=64 --element-type int4
expect 2 optimum tests/data/bad/cycle.yaml -q
expect 2 optimum tests/data/good/chain.yaml --time-limit -5 -q
expect 2 optimum tests/data/good/chain.yaml --dynamics streaming -q
expect 0 references tests/data/good/chain.yaml --hardware tests/data/good/toy-hw.yaml --dynamics streaming --lookahead 2
expect 2 references tests/data/good/chain.yaml --dynamics streaming --lookahead -1
expect 2 optimum tests/data/good/chain.yaml -q -o /etc/passwd/x.yaml
expect 2 transfer --to no-such-net -q --out /tmp/memplace-bad-transfer.$$
expect 2 train --agent random --env-version v2 -q --out /tmp/memplace-bad-transfer.$$
expect 2 train --agent random -o lookahead=4 -q --out /tmp/memplace-bad-transfer.$$
# Folders that cannot be created (a path under a file).
expect 2 train --agent random --budget 10 -q --out /etc/passwd/run
expect 2 table --agents random --budget 10 --seeds 1 -q --out /etc/passwd/table
# srun with several tasks but without an MPI launch interface (docs/scale-out.md).
SLURM_STEP_NUM_TASKS=2 expect 2 list
[ ! -e /tmp/memplace-bad-transfer.$$ ] || { echo "FAIL: a refused transfer wrote its folder"; failures=$((failures + 1)); }
rm -f /tmp/memplace_cli_err.$$
[ "$failures" -eq 0 ] && echo "cli exit codes: all as expected"
exit "$failures"
