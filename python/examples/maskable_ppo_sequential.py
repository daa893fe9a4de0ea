"""sb3-contrib's MaskablePPO on the sequential env — one tensor placed per step, the env's action
mask — as a memplace suite run on one instance (docs/leaderboard.md, "Python baselines": the
quick subset would be about 55 million steps, so this is an example, not an entry). Needs
sb3-contrib, Stable-Baselines3 and Gymnasium on PYTHONPATH (docs/python.md, "The library set").

    /usr/bin/python3 python/examples/maskable_ppo_sequential.py --out runs/maskable-ppo-sequential

An evaluation is an episode (a whole mapping), so 5,000 evaluations on resnet18-b1@edge-tpu are
5,000 episodes of 48 steps.
"""

import argparse

import torch
from sb3_contrib import MaskablePPO

import memplace.suite

# sb3-contrib 2.4.0's defaults, stated: nothing was tuned.
HYPERPARAMETERS = {"learning_rate": 3e-4, "n_steps": 2048, "batch_size": 64, "n_epochs": 10,
                   "gamma": 0.99, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.0,
                   "vf_coef": 0.5, "max_grad_norm": 0.5}


def agent(env, budget, seed):
    model = MaskablePPO("MultiInputPolicy", env, seed=seed, device="cpu", **HYPERPARAMETERS)
    model.learn(total_timesteps=10**9)  # memplace stops it at the budget of episodes


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="runs/maskable-ppo-sequential")
    parser.add_argument("--instance", default="resnet18-b1@edge-tpu")
    parser.add_argument("--budget", type=int, default=5000, help="evaluations (episodes)")
    parser.add_argument("--seeds", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    report = memplace.suite.run(
        agent, "sb3-maskable-ppo-sequential", out=args.out, config="quick",
        description="sb3-contrib MaskablePPO on the sequential env (a tensor per step, masked), "
                    "sb3-contrib's defaults",
        code="memplace python/examples/maskable_ppo_sequential.py", env="sequential",
        gymnasium=True, hyperparameters={"policy": "MultiInputPolicy", **HYPERPARAMETERS},
        instances=[args.instance], seeds=args.seeds, budget=args.budget)
    print(report.markdown)
