#!/usr/bin/env python3
"""The C++ GNN beside its PyTorch peer, in one run on this machine, both on one core.

Runs, each pinned to CPU 1 (`taskset -c 1`) with one BLAS thread:
  - build/default/bench/memplace_bench_gnn: the policy's forward + backward (hidden 128, 3 conv
    layers, batch 1) on resnet50 and bert-base, the Q critic at batch 32, and the rate of its
    products (memplace's own GEMM kernels, agents/nn/gemm.hpp) beside OpenBLAS's SGEMM;
  - bench/peers/gnn_torch.py (Debian's python3-torch, /usr/bin/python3) on the same graphs, with
    OpenBLAS — the kernels it detects for this CPU and the best the CPU allows, the faster of
    them, whatever OPENBLAS_CORETYPE the environment sets — and, for context, with Debian's
    reference BLAS;
and prints a Markdown table of medians and ratios (docs/performance.md keeps the published one).

Usage: bench/gnn_vs_torch.py [--bench build/default/bench/memplace_bench_gnn] [--repeat 7]
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE_BLAS = "/usr/lib/x86_64-linux-gnu/blas"  # Debian's libblas3
# PyTorch has no caching allocator on the CPU: glibc returns its large temporaries to the system
# and faults them back in, which makes iterations bimodal (the Q critic's 6 MB ones most). Keeping
# them in the heap is the peer's best case, so it is what we compare against.
TORCH_MALLOC = {"MALLOC_TRIM_THRESHOLD_": "268435456", "MALLOC_MMAP_THRESHOLD_": "268435456"}
WORKLOADS = ("resnet50", "bert-base")


# Variables that force OpenBLAS onto other kernels than it would pick for this CPU (some machines
# set OPENBLAS_CORETYPE=Haswell, which halves its SGEMM on AVX-512): unset for the peer, which
# runs the kernels OpenBLAS detects and the best this CPU allows (best_openblas_cores).
FORCED_OPENBLAS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def run(command, env=None):
    full_env = {k: v for k, v in os.environ.items() if k not in FORCED_OPENBLAS}
    full_env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    full_env.update(env or {})
    result = subprocess.run(["taskset", "-c", "1"] + command, cwd=ROOT, env=full_env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
    return result.stdout


def cpp_medians(bench, repetitions, env):
    out = run([bench,
               "--benchmark_filter=GnnPolicy|GnnCriticQ/bert-base/32|Gemm/.*/374|Sgemm/374",
               "--benchmark_min_time=0.5", f"--benchmark_repetitions={repetitions}",
               "--benchmark_report_aggregates_only=true", "--benchmark_format=json"], env)
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            medians[b["run_name"]] = b
    return medians


def best_openblas_cores():
    """OpenBLAS kernels to run the peer with: the ones it detects (None), and the best this CPU's
    instructions allow, which an OpenBLAS too old for the CPU model does not detect (0.3.21 runs
    its SSE3 'Prescott' kernels on some AVX-512 Xeons). The peer's time is the faster of them."""
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    if "avx512f" in flags:
        return [None, "SkylakeX"]
    if "avx2" in flags:
        return [None, "Haswell"]
    return [None]


def fastest_peer(workload, repeat, model="policy"):
    runs = [torch_median(workload, repeat, {"OPENBLAS_CORETYPE": core} if core else {}, model)
            for core in best_openblas_cores()]
    return min(runs, key=lambda r: r["median_ms"])


def torch_median(workload, repeat, blas_env, model="policy"):
    out = run(["/usr/bin/python3", "bench/peers/gnn_torch.py", "bench", "--observations",
               f"tests/data/gnn/{workload}.json", "--hidden", "128", "--layers", "3",
               "--repeat", str(repeat), "--model", model], env={**TORCH_MALLOC, **blas_env})
    return json.loads(out.strip().splitlines()[-1])


def fastest_kernel_rate(cpp):
    """GFLOP/s of the kernel the GNN uses (the fastest this CPU runs) on the conv layer's shape."""
    for kernel in ("avx512", "avx2", "portable"):
        name = f"Gemm/{kernel}/374/384/128/real_time"
        if name in cpp:
            return kernel, cpp[name]["GFLOPs"]
    sys.exit("memplace_bench_gnn reported no Gemm/<kernel>/374/384/128 benchmark")


def compare(args):
    best_core = best_openblas_cores()[-1]  # for the OpenBLAS SGEMM beside memplace's kernels
    cpp = cpp_medians(args.bench, args.repeat, {"OPENBLAS_CORETYPE": best_core} if best_core else {})
    kernel, gemm = fastest_kernel_rate(cpp)
    openblas_sgemm = cpp["OpenBlasSgemm/374/384/128/real_time"]["GFLOPs"]
    rows = []
    for workload in WORKLOADS:
        c = cpp[f"GnnPolicy/{workload}/real_time"]
        bound_ms = c["flops"] / (gemm * 1e9) * 1e3
        openblas = fastest_peer(workload, args.torch_repeat)
        reference = None
        if not args.skip_reference_blas:
            reference = torch_median(workload, max(5, args.torch_repeat // 5),
                                     {"LD_LIBRARY_PATH": REFERENCE_BLAS})
        rows.append((workload, c["nodes"], c["real_time"], openblas, reference, bound_ms))

    print(f"GEMM 374x384x128, one core: memplace '{kernel}' kernel {gemm:.1f} GFLOP/s, OpenBLAS "
          f"SGEMM ({best_core or 'detected'} kernels) {openblas_sgemm:.1f} GFLOP/s "
          f"(ratio {gemm / openblas_sgemm:.2f})\n")
    print("| workload | nodes | C++ | PyTorch + OpenBLAS | speedup | PyTorch + reference BLAS "
          "| C++ vs GEMM bound |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for workload, nodes, cpp_ms, openblas, reference, bound_ms in rows:
        ref_text = (f"{reference['median_ms']:.2f} ms ({reference['blas']})" if reference
                    else "not run")
        print(f"| {workload} | {int(nodes)} | {cpp_ms:.3f} ms | {openblas['median_ms']:.3f} ms "
              f"({openblas['blas']}) | {openblas['median_ms'] / cpp_ms:.2f}x | {ref_text} | "
              f"{bound_ms / cpp_ms:.0%} ({bound_ms:.3f} ms bound) |")
    q = cpp["GnnCriticQ/bert-base/32/real_time"]
    torch_q = fastest_peer("bert-base", 20, model="critic")
    print(f"\nQ critic forward + backward, bert-base, 32 action samples: C++ "
          f"{q['real_time']:.2f} ms ({q['items_per_second']:.0f} samples/s); PyTorch peer "
          f"{torch_q['median_ms']:.2f} ms ({32 / torch_q['median_ms'] * 1e3:.0f} samples/s)\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default="build/default/bench/memplace_bench_gnn")
    parser.add_argument("--repeat", type=int, default=7, help="C++ repetitions (medians)")
    parser.add_argument("--torch-repeat", type=int, default=50, help="PyTorch iterations")
    parser.add_argument("--skip-reference-blas", action="store_true")
    args = parser.parse_args()

    forced = [f"{k}={os.environ[k]}" for k in FORCED_OPENBLAS if k in os.environ]
    print("PyTorch's OpenBLAS runs the kernels it detects and the best this CPU allows, the "
          "faster counts" + (f" (the environment's {', '.join(forced)} unset)" if forced else "")
          + "\n")
    compare(args)


if __name__ == "__main__":
    main()
