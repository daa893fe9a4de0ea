#!/usr/bin/env python3
"""Environment steps per second from Python (docs/performance.md, "From Python").

The loop is what a Python agent runs: a random masked policy drawn with the space's own sampler,
env.step, and an env.reset when an episode ends; every observation is a fresh dict of numpy
arrays and every info a dict. Reported: the median over repetitions of steps / wall time.

    taskset -c 1 env PYTHONPATH=build/default/python /usr/bin/python3 bench/python_env_steps.py
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import memplace


def sequential_rate(env_id: str, steps: int) -> float:
    env = memplace.make(env_id)
    space = env.action_space
    space.seed(0)
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.step(space.sample(mask=obs["action_mask"]))
        if terminated or truncated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def single_step_rate(env_id: str, steps: int) -> float:
    env = memplace.make(env_id)
    space = env.action_space
    space.seed(0)
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        env.reset()
        env.step(space.sample())
    return steps / (time.perf_counter() - start)


def vector_rate(env_id: str, num_envs: int, steps: int) -> float:
    envs = memplace.make_vec(env_id, num_envs, seed=0)
    obs, _ = envs.reset()
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        masks = obs["action_mask"].astype(bool)
        # A random allowed memory per copy (any memory for a copy that just ended: ignored).
        scores = rng.random(masks.shape) * masks
        obs, *_ = envs.step(scores.argmax(axis=1))
    return steps * num_envs / (time.perf_counter() - start)


def median_rate(measure, repetitions: int) -> float:
    return statistics.median(measure() for _ in range(repetitions))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for workload in ("resnet50", "bert-base"):
        seq = f"memplace/sequential/{workload}-v0"
        single = f"memplace/single-step/{workload}-v0"
        rows.append((f"sequential {workload}: random masked policy",
                     median_rate(lambda: sequential_rate(seq, args.steps), args.repetitions)))
        rows.append((f"single-step {workload}: reset + random mapping",
                     median_rate(lambda: single_step_rate(single, args.steps // 10),
                                 args.repetitions)))
        rows.append((f"vector env, 16 sequential {workload}",
                     median_rate(lambda: vector_rate(seq, 16, args.steps // 16),
                                 args.repetitions)))
    print(f"| loop (median of {args.repetitions}) | steps/s |\n|---|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
