#!/usr/bin/env bash
# A training run gives the same bytes (curve.csv apart from its wall-clock column, and
# best_mapping.yaml) on any x86-64 CPU and any thread count. Each GNN agent runs three times,
# standing for three machines (mcts with its GNN prior):
#   - the fastest products this CPU runs (AVX-512 or AVX2), one thread;
#   - the AVX2 products, with glibc told the CPU has no AVX-512, two threads;
#   - the portable products (their own exactly rounded fma, portable::fma_float), with glibc told
#     the CPU has neither AVX2 nor FMA (its libm then takes its SSE2 paths), two threads.
# Before memplace had its own products and math (docs/gnn.md), these egrl and sac runs differed
# between OpenBLAS's Haswell and SkylakeX kernels (OPENBLAS_CORETYPE), and an avx2 kernel that
# rounds its products before adding them (no FMA) changes the egrl run.
#
# Usage: train_same_bits_any_cpu.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
without_wall() { cut -d, -f1,3- "$1/curve.csv"; }

grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && have_avx2=1 || have_avx2=0

for agent in egrl ea ppo sac mcts; do
  run=(train --agent "$agent" --workload resnet50 --budget 1000 --seed 3 -p hidden=16 -q)
  # mcts's network is its search's prior, and learns from the searches it guides.
  [ "$agent" = mcts ] && run+=(-p prior=gnn -p samples=64)
  "$memplace" "${run[@]}" --threads 1 --out "$work/$agent-fastest" > /dev/null ||
    fail "$agent: the run with the fastest kernel failed"
  machines=(portable)
  [ "$have_avx2" = 1 ] && machines+=(avx2)
  for machine in "${machines[@]}"; do
    if [ "$machine" = avx2 ]; then
      hwcaps=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ
    else
      hwcaps=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ
    fi
    MEMPLACE_GEMM_KERNEL=$machine GLIBC_TUNABLES=$hwcaps \
      "$memplace" "${run[@]}" --threads 2 --out "$work/$agent-$machine" > /dev/null ||
      fail "$agent: the run with the $machine kernel failed"
    cmp -s <(without_wall "$work/$agent-fastest") <(without_wall "$work/$agent-$machine") ||
      fail "$agent: the curve with the $machine kernel differs from the fastest kernel's"
    cmp -s "$work/$agent-fastest/best_mapping.yaml" "$work/$agent-$machine/best_mapping.yaml" ||
      fail "$agent: the best mapping with the $machine kernel differs from the fastest kernel's"
  done
  echo "$agent: same bytes with the fastest, ${machines[*]} kernels"
done

# A name the CPU cannot run, or no kernel at all, is refused before any work.
MEMPLACE_GEMM_KERNEL=sse "$memplace" "${run[@]}" --out "$work/bad" > "$work/bad.log" 2>&1
code=$?
[ "$code" = 2 ] || fail "MEMPLACE_GEMM_KERNEL=sse exited $code, expected 2"
grep -q "MEMPLACE_GEMM_KERNEL=sse" "$work/bad.log" || fail "the error does not name the variable"
echo "ok"
