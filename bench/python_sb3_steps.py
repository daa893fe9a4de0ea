"""Environment steps per second through Stable-Baselines3's DummyVecEnv(8) of gymnasium.make envs
(Gymnasium's checker wrappers included), on suite v1's resnet18-b1@edge-tpu, in the single-step,
sequential and malloc kinds (docs/performance.md, "Through Stable-Baselines3"). Actions
are random among the allowed ones (drawn from each batch's masks with numpy; the single-step env's
uniformly), the same in every kind and package.

    PYTHONPATH=<gymnasium>:<stable-baselines3>:build/default/python \\
        taskset -c 1 /usr/bin/python3 bench/python_sb3_steps.py [--baseline PYTHONPATH] [--rounds 5]

With --baseline, the same measurement runs with the memplace package found on that PYTHONPATH
(an earlier build, whose ids are its own), alternately with this one in one run, and the ratios
are printed: each round runs both, so load drifts hit both alike.
"""

import argparse
import json
import os
import subprocess
import sys
import time

KINDS = {  # kind: (id of the grammar, id of before it)
    "single-step": ("memplace/single-step-resnet18-b1-on-edge-tpu-cm1-v0",
                    "memplace/single-step/resnet18-b1@edge-tpu-v1"),
    "sequential": ("memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0",
                   "memplace/sequential/resnet18-b1@edge-tpu-v1"),
    "malloc env": ("memplace/malloc-resnet18-b1-on-edge-tpu-cm2-v0",
                        "memplace/malloc/resnet18-b1@edge-tpu-v2"),
}
COPIES = 8


def make_env_fns(kind):
    """DummyVecEnv's env functions for `kind`: the registered id where memplace.gymnasium
    registers the grammar's ids, else (an earlier package) its adapter under a bench id."""
    import gymnasium

    import memplace.gymnasium as mg

    new_id, path_id = KINDS[kind]
    if new_id in gymnasium.registry:
        return [lambda: gymnasium.make(new_id)] * COPIES
    bench_id = "bench/" + kind.replace(" ", "-") + "-v0"
    if bench_id not in gymnasium.registry:
        gymnasium.register(id=bench_id, entry_point=mg._adapter(gymnasium),
                           kwargs={"memplace_id": path_id})
    return [lambda: gymnasium.make(bench_id)] * COPIES


def steps_per_second(kind, seconds):
    import numpy as np
    from stable_baselines3.common.vec_env import DummyVecEnv

    envs = DummyVecEnv(make_env_fns(kind))
    envs.seed(0)
    obs = envs.reset()
    rng = np.random.default_rng(0)
    space = envs.action_space
    multi = hasattr(space, "nvec")

    def actions(obs):
        if multi:
            return rng.integers(0, space.nvec, size=(COPIES, space.nvec.size))
        mask = obs["action_mask"]
        return np.argmax(rng.random(mask.shape) * mask, axis=1)

    for _ in range(200):  # warm-up
        obs, _, _, _ = envs.step(actions(obs))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            obs, _, _, _ = envs.step(actions(obs))
        steps += 100 * COPIES
    return steps / (time.perf_counter() - start)


def measure(seconds):
    return {kind: steps_per_second(kind, seconds) for kind in KINDS}


def run_child(pythonpath, seconds):
    """The measurement in a child process with `pythonpath` in front."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + os.environ.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, __file__, "--child", str(seconds)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="PYTHONPATH of an earlier memplace package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child)))
        return
    rows = {kind: {"this": [], "baseline": []} for kind in KINDS}
    for r in range(args.rounds):
        for label, path in (("this", ""), ("baseline", args.baseline)):
            if label == "baseline" and not path:
                continue
            for kind, rate in run_child(path, args.seconds).items():
                rows[kind][label].append(rate)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    median = lambda v: sorted(v)[len(v) // 2]  # noqa: E731
    print(f"| kind | this package (steps/s, median of {args.rounds}) |"
          + (" baseline | ratio |" if args.baseline else ""))
    print("|---|---:|" + ("---:|---:|" if args.baseline else ""))
    for kind, r in rows.items():
        line = f"| {kind} | {median(r['this']):,.0f} |"
        if args.baseline:
            line += f" {median(r['baseline']):,.0f} | {median(r['this']) / median(r['baseline']):.3f} |"
        print(line)


if __name__ == "__main__":
    main()
