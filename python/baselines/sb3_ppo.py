"""Stable-Baselines3's PPO on the single-step env, with SB3 2.4.1's defaults: a memplace suite run
(docs/leaderboard.md, "Python baselines"). Needs Stable-Baselines3 and Gymnasium on PYTHONPATH
(docs/python.md, "The library set").

    /usr/bin/python3 python/baselines/sb3_ppo.py --out runs/sb3-ppo-quick
"""

from stable_baselines3 import PPO

from common import parse_args, run_baseline

# SB3 2.4.1's defaults, stated: nothing was tuned.
HYPERPARAMETERS = {"learning_rate": 3e-4, "n_steps": 2048, "batch_size": 64, "n_epochs": 10,
                   "gamma": 0.99, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.0,
                   "vf_coef": 0.5, "max_grad_norm": 0.5}


def agent(env, budget, seed):
    model = PPO("MultiInputPolicy", env, seed=seed, device="cpu", **HYPERPARAMETERS)
    model.learn(total_timesteps=budget)  # a rollout past the budget is stopped there


if __name__ == "__main__":
    args = parse_args("sb3-ppo", __doc__)
    run_baseline(agent, "sb3-ppo",
                 "Stable-Baselines3 PPO, MultiInputPolicy (MLP 64x64) on the flat single-step "
                 "observation, SB3's defaults", "sb3_ppo.py",
                 {"policy": "MultiInputPolicy", **HYPERPARAMETERS}, args, gymnasium=True)
