"""sb3-contrib's MaskablePPO on the single-step env with its per-tensor hint mask (the memories
each tensor may go to), with sb3-contrib 2.4.0's defaults: a memplace suite run
(docs/leaderboard.md, "Python baselines"). Needs sb3-contrib, Stable-Baselines3 and Gymnasium on
PYTHONPATH (docs/python.md, "The library set").

    /usr/bin/python3 python/baselines/sb3_maskable_ppo.py --out runs/sb3-maskable-ppo-quick
"""

from sb3_contrib import MaskablePPO

from common import parse_args, run_baseline

# sb3-contrib 2.4.0's defaults, stated: nothing was tuned.
HYPERPARAMETERS = {"learning_rate": 3e-4, "n_steps": 2048, "batch_size": 64, "n_epochs": 10,
                   "gamma": 0.99, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.0,
                   "vf_coef": 0.5, "max_grad_norm": 0.5}


def agent(env, budget, seed):
    model = MaskablePPO("MultiInputPolicy", env, seed=seed, device="cpu", **HYPERPARAMETERS)
    model.learn(total_timesteps=budget)  # masks from env.action_masks()


if __name__ == "__main__":
    args = parse_args("sb3-maskable-ppo", __doc__)
    run_baseline(agent, "sb3-maskable-ppo",
                 "sb3-contrib MaskablePPO, MultiInputPolicy (MLP 64x64) on the flat single-step "
                 "observation, the per-tensor hint mask, sb3-contrib's defaults",
                 "sb3_maskable_ppo.py", {"policy": "MultiInputPolicy", **HYPERPARAMETERS}, args,
                 gymnasium=True)
