"""Headroom under the streaming dynamics (cost model v1): how much faster than the streaming-aware
compiler a long simulated annealing from its mapping and the EA get, against the largest lower bound.

Usage (from the repository root, after `make build`):
  PYTHONPATH=build/default/python /usr/bin/python3 bench/streaming_headroom.py \
      [--workloads resnet50,resnet101,bert-base,gpt2-small] [--lookaheads 4,8,16] [--moves 1000000]
      [--ea-budget 200000] [--mip-seconds 0] [--memplace build/default/apps/memplace]

Prints one Markdown row per workload and lookahead (docs/cost-model.md shows the table). SA: one
tensor moved to a uniformly drawn other memory per step; only valid mappings are accepted, by the
Metropolis rule on the relative latency change with a temperature cooling geometrically from 2e-3
to 1e-5; seed 0. EA: `memplace train --agent ea --env-version v1` (default hyperparameters, from
random mappings, seed 0, --ea-budget evaluations; 0 skips it). The bound is the largest of the capacity-free, slowest-port and compute bounds
and the capacity-aware LP (Simulator.streaming_bound_fs). Deterministic: the same arguments print
the same table. With --mip-seconds S > 0, two more columns: the MIP of the streaming relaxation
solved by CBC for S seconds (Simulator.optimum), its best mapping re-scored under streaming and its
bound — these depend on how far CBC gets in S seconds, so on the machine.
"""
import argparse
import math
import random
import re
import subprocess
import tempfile

import numpy as np

import memplace


def anneal(sim, start, moves, seed):
    rng = random.Random(seed)
    current = np.array(start, dtype=np.uint8)
    current_fs = sim.evaluate(current).latency_fs
    best_fs = current_fs
    t_start, t_end = 2e-3, 1e-5
    for i in range(moves):
        temperature = t_start * (t_end / t_start) ** (i / moves)
        tensor = rng.randrange(len(current))
        memory = rng.randrange(sim.num_memories - 1)
        if memory >= current[tensor]:
            memory += 1
        old = current[tensor]
        current[tensor] = memory
        e = sim.evaluate(current)
        change = (current_fs - e.latency_fs) / current_fs
        if e.valid and (change >= 0 or rng.random() < math.exp(change / temperature)):
            current_fs = e.latency_fs
            best_fs = min(best_fs, current_fs)
        else:
            current[tensor] = old
    return best_fs


def run_ea(memplace, workload, lookahead, budget, seed):
    """The best valid latency of an EA run under v1, read from its best_mapping.yaml."""
    with tempfile.TemporaryDirectory() as folder:
        run = folder + "/run"
        subprocess.run([memplace, "train", "--agent", "ea", "--workload", workload,
                        "--env-version", "v1", "-o", f"lookahead={lookahead}",
                        "--budget", str(budget), "--seed", str(seed), "--threads", "2", "-q",
                        "--out", run], check=True, stdout=subprocess.DEVNULL)
        with open(run + "/best_mapping.yaml", encoding="utf-8") as f:
            return int(re.search(r"latency_fs: (\d+)", f.read()).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", default="resnet50,resnet101,bert-base,gpt2-small")
    parser.add_argument("--lookaheads", default="4,8,16")
    parser.add_argument("--moves", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ea-budget", type=int, default=200_000)
    parser.add_argument("--mip-seconds", type=float, default=0)
    parser.add_argument("--memplace", default="build/default/apps/memplace")
    args = parser.parse_args()
    mip = args.mip_seconds > 0
    ea = args.ea_budget > 0
    print("| workload | lookahead | pinned compiler (µs) | streaming-aware compiler (µs) | SA (µs) | "
          + ("EA (µs) | " if ea else "")
          + ("MIP mapping (µs) | MIP bound (µs) | " if mip else "")
          + "largest bound (µs) | headroom found | bound's room | best to bound |")
    print("|---|---:|---:|---:|---:|" + ("---:|" if ea else "") + ("---:|---:|" if mip else "")
          + "---:|---:|---:|---:|")
    for lookahead in (int(x) for x in args.lookaheads.split(",")):
        for workload in args.workloads.split(","):
            sim = memplace.Simulator(workload, dynamics="streaming", lookahead=lookahead)
            pinned = memplace.Simulator(workload)
            refs = sim.references()
            compiler = refs["compiler_fs"]
            pinned_fs = sim.evaluate(pinned.compiler_mapping()).latency_fs
            sa = anneal(sim, sim.compiler_mapping(), args.moves, args.seed)
            best = sa
            bound = max(refs["lower_bound_fs"], sim.streaming_bound_fs())
            ea_cells = ""
            if ea:
                ea_fs = run_ea(args.memplace, workload, lookahead, args.ea_budget, args.seed)
                best = min(best, ea_fs)
                ea_cells = f"{ea_fs / 1e9:.2f} | "
            mip_cells = ""
            if mip:
                relaxed = sim.optimum(time_limit_s=args.mip_seconds)
                best = min(best, relaxed["latency_fs"])
                bound = max(bound, relaxed["bound_fs"])
                mip_cells = (f"{relaxed['latency_fs'] / 1e9:.2f} | "
                             f"{relaxed['bound_fs'] / 1e9:.2f} | ")
            print(f"| {workload} | {lookahead} | {pinned_fs / 1e9:.2f} | {compiler / 1e9:.2f} "
                  f"| {sa / 1e9:.2f} | {ea_cells}{mip_cells}{bound / 1e9:.2f} "
                  f"| {compiler / best - 1:.1%} | {compiler / bound - 1:.1%} "
                  f"| {best / bound - 1:.1%} |", flush=True)


if __name__ == "__main__":
    main()
