#!/usr/bin/python3
"""Do the suite's conclusions survive calibration? (docs/calibration.md, issue 63 item 4)

Re-scores, on the shipped edge-tpu and on the calibrated edge-tpu.cal1 (cost model v1, the
suite's), every Edge TPU instance of suite v1: the compiler, the shipped best-known mapping and
the bound; and, from a suite table's folder, every run's best mapping. Prints Markdown: how the
speedups and the headroom move, and whether the rankings hold (Spearman).

    PYTHONPATH=build/default/python /usr/bin/python3 scripts/calibration-survival.py [TABLE_FOLDER]

TABLE_FOLDER: a `memplace table` folder on suite v1 (its runs/<row>-<instance>-s<seed>/
best_mapping.yaml); without it, only the instances' references.
"""

import glob
import os
import re
import sys

import memplace

CHIPS = ["edge-tpu", "edge-tpu.cal1"]


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    rank = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rank[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return rank


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    mean = (len(a) + 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    va = sum((x - mean) ** 2 for x in ra)
    vb = sum((y - mean) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else float("nan")


def edge_instances():
    with open("workloads/suite/v1.yaml", encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"\{workload: ([\w.-]+), hardware: edge-tpu\}", text)


def simulator(workload, chip):
    return memplace.Simulator(workload, hardware=chip, dynamics="streaming")


def references(instances):
    print("| instance | compiler (ms) | best-known speedup | bound speedup | "
          "compiler (ms), cal1 | best-known speedup, cal1 | bound speedup, cal1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    best, bound = {c: [] for c in CHIPS}, {c: [] for c in CHIPS}
    orders_kept, changed = 0, []
    for w in instances:
        cells, orders = [], []
        for chip in CHIPS:
            sim = simulator(w, chip)
            compiler = sim.evaluate(sim.compiler_mapping()).latency_fs
            known = sim.evaluate(sim.load_mapping(f"workloads/best-known/{w}.edge-tpu.yaml"))
            room = sim.headroom()
            best[chip].append(compiler / known.latency_fs)
            bound[chip].append(compiler / room["bound_fs"])
            cells += [f"{compiler / 1e12:.3f}", f"{best[chip][-1]:.4f}", f"{bound[chip][-1]:.4f}"]
            # The instance's reference mappings in order of latency.
            named = {"all-slowest": room["all_slowest_fs"], "compiler": compiler,
                     "best-known": known.latency_fs}
            if room["all_fast_rectified_fs"] is not None:
                named["all-fast-rectified"] = room["all_fast_rectified_fs"]
            orders.append(sorted(named, key=lambda n: (named[n], n)))
        orders_kept += orders[0] == orders[1]
        if orders[0] != orders[1]:
            changed.append(f"{w} ({' < '.join(orders[0])} becomes {' < '.join(orders[1])})")
        print(f"| {w}@edge-tpu | " + " | ".join(cells) + " |")
    print()
    print(f"Over the {len(instances)} instances: Spearman of the best-known speedups, edge-tpu "
          f"against edge-tpu.cal1: {spearman(best[CHIPS[0]], best[CHIPS[1]]):.3f}; of the bound "
          f"speedups: {spearman(bound[CHIPS[0]], bound[CHIPS[1]]):.3f}. The order of each "
          f"instance's reference mappings (all-slowest, compiler, all-fast-rectified, "
          f"best-known, fastest first) is the same on both chips on {orders_kept} of "
          f"{len(instances)}" + (": not on " + "; ".join(changed) if changed else "") + ".")
    print()


def agents(folder):
    speedups = {}  # (instance, row) -> chip -> [speedup per seed]
    compilers = {}
    for path in sorted(glob.glob(os.path.join(folder, "runs", "*", "best_mapping.yaml"))):
        run = os.path.basename(os.path.dirname(path))
        if "@edge-tpu-s" not in run:
            continue
        with open(os.path.join(os.path.dirname(path), "config.yaml"), encoding="utf-8") as f:
            workload = re.search(r"^workload: \"?([^\"\s]+)", f.read(), re.M).group(1)
        row = run[:run.index("-" + workload + "@edge-tpu")]
        instance = workload + "@edge-tpu"
        for chip in CHIPS:
            sim = simulator(workload, chip)
            key = (workload, chip)
            if key not in compilers:
                compilers[key] = sim.evaluate(sim.compiler_mapping()).latency_fs
            e = sim.evaluate(sim.load_mapping(path))
            speedup = compilers[key] / e.latency_fs if e.valid else 0.0
            speedups.setdefault((instance, row), {}).setdefault(chip, []).append(speedup)
    if not speedups:
        print(f"No Edge TPU runs in {folder}.")
        return
    instances = sorted({i for i, _ in speedups})
    rows = sorted({r for _, r in speedups})
    print("| instance | agents | Spearman of the agents' mean speedups, edge-tpu vs cal1 | "
          "best agent, edge-tpu | best agent, cal1 |")
    print("|---|---:|---:|---|---|")
    overall = {c: {r: [] for r in rows} for c in CHIPS}
    for i in instances:
        present = [r for r in rows if (i, r) in speedups]
        means = {c: [sum(speedups[i, r][c]) / len(speedups[i, r][c]) for r in present]
                 for c in CHIPS}
        for c in CHIPS:
            for r, m in zip(present, means[c]):
                overall[c][r].append(m)
        top = {c: present[max(range(len(present)), key=lambda k: means[c][k])] for c in CHIPS}
        print(f"| {i} | {len(present)} | {spearman(means[CHIPS[0]], means[CHIPS[1]]):.3f} | "
              f"{top[CHIPS[0]]} | {top[CHIPS[1]]} |")
    print()
    mean = {c: [sum(overall[c][r]) / len(overall[c][r]) for r in rows] for c in CHIPS}
    print("| agent | mean speedup over the compiler, edge-tpu | the same, edge-tpu.cal1 |")
    print("|---|---:|---:|")
    for r, a, b in sorted(zip(rows, mean[CHIPS[0]], mean[CHIPS[1]]), key=lambda t: -t[1]):
        print(f"| {r} | {a:.4f} | {b:.4f} |")
    print()
    print(f"Spearman of the agents' mean speedups over the {len(instances)} instances, edge-tpu "
          f"against edge-tpu.cal1: {spearman(mean[CHIPS[0]], mean[CHIPS[1]]):.3f}.")


def main(argv):
    references(edge_instances())
    if argv:
        agents(argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
