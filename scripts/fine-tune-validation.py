#!/usr/bin/python3
"""How to fine-tune the shipped policies, decided on their validation graphs only.

A policy trained across graphs ends near-deterministic: a fine-tune from it samples the same mapping
batch after batch. `memplace train --init-temperature T` divides its logits by T at the start. This
script places every validation graph of each chip's shipped policy (policies/training/<agent>-
<chip>/config.yaml: held-out dev instances and procedural seeds 101-106; never a test instance) by
runs of K evaluations: from scratch, and fine-tuned from the policy at each temperature, over
seeds 0..S-1, and prints per chip and overall P(fine-tuned at T > scratch) (per graph the share of
(fine-tuned, scratch) seed pairs it wins, ties half, averaged over graphs, as the generalization
track counts it) and the IQM of the share of the best speedup any run found on the graph. Graphs
where no run beat the compiler are left out. docs/place.md#fine-tuning shows the result.

Usage (from the repository root; about 20 min on 2 cores for the defaults):
  scripts/fine-tune-validation.py MEMPLACE [--out runs/fine-tune-validation] [--agent ppo]
      [--temperatures 1,2,4,8,16] [--seeds 3] [--k 1000] [--jobs 2]
A rerun with the same folder reuses the finished runs.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

CHIPS = ["nnpi", "edge-tpu", "ipu-gc200", "tpu-v4i"]


def validation_graphs(agent, chip):
    path = f"policies/training/{agent}-{chip}/config.yaml"
    with open(path) as f:
        for line in f:
            if line.startswith("validation:"):
                return json.loads(line.split(":", 1)[1])
    sys.exit(f"{path}: no validation list")


def mode_name(temperature):
    return "scratch" if temperature is None else f"fine-t{temperature:g}"


def run(memplace, out, agent, chip, workload, seed, temperature, k):
    folder = os.path.join(out, f"{mode_name(temperature)}-{chip}-{workload}-s{seed}")
    if not os.path.exists(os.path.join(folder, "finished")):
        command = [memplace, "train", "--agent", agent, "--workload", workload, "--hardware", chip,
                   "--env-version", "v1", "-o", "invalid=rectify", "--budget", str(k),
                   "--seed", str(seed), "--threads", "1", "--checkpoint-every", str(k // 10 or 1),
                   "-q", "--out", folder]
        if temperature is not None:
            command += ["--init-policy", f"policies/{agent}-{chip}.gnn",
                        "--init-temperature", f"{temperature:g}"]
        if os.path.exists(folder):  # an interrupted run: started again
            subprocess.run(["rm", "-rf", folder], check=True)
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
        open(os.path.join(folder, "finished"), "w").close()
    with open(os.path.join(folder, "curve.csv")) as f:
        return float(f.read().strip().split("\n")[-1].split(",")[2])  # best_speedup


def probability_of_improvement(x, y):
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)
    return wins / (len(x) * len(y))


def interquartile_mean(values):
    values = sorted(values)
    cut = len(values) // 4
    middle = values[cut:len(values) - cut]
    return sum(middle) / len(middle)


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False) as f:
        f.write(text)
    os.replace(f.name, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("memplace")
    parser.add_argument("--out", default="runs/fine-tune-validation")
    parser.add_argument("--agent", default="ppo")
    parser.add_argument("--temperatures", default="1,2,4,8,16")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    a = parser.parse_args()
    try:
        temperatures = [float(t) for t in a.temperatures.split(",")]
    except ValueError:
        parser.error(f"--temperatures: '{a.temperatures}' is not a comma-separated list of numbers")
    if not temperatures or any(not 1e-3 <= t <= 1e3 for t in temperatures):
        parser.error("--temperatures: each must be in [0.001, 1000]")
    if a.seeds < 2 or a.k < 1 or a.jobs < 1:
        parser.error("--seeds must be at least 2, --k and --jobs at least 1")
    os.makedirs(a.out, exist_ok=True)
    modes = [None] + temperatures
    tasks = [(chip, w, s, t) for chip in CHIPS for w in validation_graphs(a.agent, chip)
             for s in range(a.seeds) for t in modes]
    best = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = {pool.submit(run, a.memplace, a.out, a.agent, *task, a.k): task for task in tasks}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            best[futures[future]] = future.result()
            chip, w, s, t = futures[future]
            print(f"[{done}/{len(tasks)}] {mode_name(t)} {w} on {chip}, seed {s}", file=sys.stderr)

    rows = []
    for scope in CHIPS + ["all"]:
        improvement = {t: [] for t in temperatures}
        shares = {t: [] for t in modes}
        graphs = 0
        for chip in CHIPS if scope == "all" else [scope]:
            for w in validation_graphs(a.agent, chip):
                speedups = {t: [best[(chip, w, s, t)] for s in range(a.seeds)] for t in modes}
                top = max(max(v) for v in speedups.values())
                if top <= 1:
                    continue  # no run beat the compiler: nothing to gain
                graphs += 1
                share = {t: [(x - 1) / (top - 1) for x in v] for t, v in speedups.items()}
                for t in temperatures:
                    improvement[t].append(probability_of_improvement(share[t], share[None]))
                for t in modes:
                    shares[t] += share[t]
        if graphs == 0:
            continue
        rows.append(f"| {scope} | {graphs} | "
                    + " | ".join(f"{sum(improvement[t]) / graphs:.2f}" for t in temperatures)
                    + " | " + " | ".join(f"{100 * interquartile_mean(shares[t]):.1f} %"
                                         for t in modes) + " |")
    header = ("| chip | graphs | " + " | ".join(f"P(T={t:g} > scratch)" for t in temperatures)
              + " | IQM scratch | " + " | ".join(f"IQM T={t:g}" for t in temperatures) + " |")
    table = "\n".join([header, "|---|---:|" + "---:|" * (2 * len(temperatures) + 1)] + rows)
    text = (f"# Fine-tuning {a.agent}'s shipped policies on their validation graphs\n\n"
            f"Runs of {a.k} evaluations, seeds 0-{a.seeds - 1} (scripts/fine-tune-validation.py)."
            "\n\n" + table + "\n")
    write_atomically(os.path.join(a.out, "summary.md"), text)
    print(text)


if __name__ == "__main__":
    main()
