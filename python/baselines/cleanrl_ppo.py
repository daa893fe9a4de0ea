"""PPO in one file, in the style of CleanRL's ppo.py (Huang et al., 2022) and with its defaults,
written for memplace's single-step env: a memplace suite run (docs/leaderboard.md, "Python
baselines"). Needs only PyTorch (Debian's python3-torch) — no Gymnasium.

The single-step env is a one-step episode: the observation (the graph) is the same every time and
the action is a whole mapping, a memory per tensor. The policy is CleanRL's MLP (two tanh layers
of 64, orthogonal initialisation) on the flat graph arrays, with one categorical head per tensor
masked by the env's hint mask (the memories each tensor may go to); each step is a finished
episode, so the advantage is the reward less the value.

    /usr/bin/python3 python/baselines/cleanrl_ppo.py --out runs/cleanrl-ppo-quick
"""

import numpy as np
import torch
from torch import nn

import memplace
from common import parse_args, run_baseline

# CleanRL's ppo.py defaults, with one env (a suite run gives the agent one): nothing was tuned.
HYPERPARAMETERS = {"learning_rate": 2.5e-4, "anneal_lr": True, "num_steps": 128,
                   "num_minibatches": 4, "update_epochs": 4, "norm_adv": True, "clip_coef": 0.2,
                   "clip_vloss": True, "ent_coef": 0.01, "vf_coef": 0.5, "max_grad_norm": 0.5,
                   "hidden": 64}
INPUTS = ("nodes", "node_state")


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, inputs: int, tensors: int, memories: int, hidden: int):
        super().__init__()
        self.tensors, self.memories = tensors, memories

        def trunk():
            return nn.Sequential(layer_init(nn.Linear(inputs, hidden)), nn.Tanh(),
                                 layer_init(nn.Linear(hidden, hidden)), nn.Tanh())

        self.critic = nn.Sequential(trunk(), layer_init(nn.Linear(hidden, 1), std=1.0))
        self.actor = nn.Sequential(trunk(),
                                   layer_init(nn.Linear(hidden, tensors * memories), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, mask, action=None):
        logits = self.actor(x).view(-1, self.tensors, self.memories)
        logits = memplace.masked_logits(logits, mask.view(-1, self.tensors, self.memories))
        dist = torch.distributions.Categorical(logits=logits)  # one per tensor
        if action is None:
            action = dist.sample()
        return (action, dist.log_prob(action).sum(1), dist.entropy().sum(1),
                self.critic(x).squeeze(1))


def agent(env, budget, seed, hp=HYPERPARAMETERS):
    torch.manual_seed(seed)
    tensors, memories = len(env.action_space.nvec), int(env.action_space.nvec[0])
    obs, _ = env.reset(seed=seed)

    def features(o):
        return torch.from_numpy(np.concatenate([o[k] for k in INPUTS]).astype(np.float32))

    x = features(obs)
    mask = torch.from_numpy(obs["action_mask"].astype(bool))
    model = Agent(x.numel(), tensors, memories, hp["hidden"])
    optimizer = torch.optim.Adam(model.parameters(), lr=hp["learning_rate"], eps=1e-5)
    steps = hp["num_steps"]
    updates = -(-budget // steps)
    minibatch = steps // hp["num_minibatches"]
    for update in range(updates):  # the env stops the run at the budget
        if hp["anneal_lr"]:
            optimizer.param_groups[0]["lr"] = (1.0 - update / updates) * hp["learning_rate"]
        actions, logprobs, rewards, values = [], [], [], []
        for _ in range(steps):
            with torch.no_grad():
                action, logprob, _, value = model.get_action_and_value(x[None], mask[None])
            _, reward, _, _, _ = env.step(action[0].numpy())
            obs, _ = env.reset()  # every step ends its episode
            actions.append(action[0])
            logprobs.append(logprob[0])
            values.append(value[0])
            rewards.append(float(reward))
        b_actions, b_logprobs = torch.stack(actions), torch.stack(logprobs)
        b_values, b_returns = torch.stack(values), torch.tensor(rewards, dtype=torch.float32)
        b_advantages = b_returns - b_values  # a finished episode: GAE is reward - value
        b_x, b_mask = x.expand(steps, -1), mask.expand(steps, -1)
        for _ in range(hp["update_epochs"]):
            order = torch.randperm(steps)
            for start in range(0, steps, minibatch):
                mb = order[start:start + minibatch]
                _, newlogprob, entropy, newvalue = model.get_action_and_value(
                    b_x[mb], b_mask[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                if hp["norm_adv"]:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(
                    ratio, 1 - hp["clip_coef"], 1 + hp["clip_coef"])).mean()
                if hp["clip_vloss"]:
                    clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb],
                                                         -hp["clip_coef"], hp["clip_coef"])
                    v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2,
                                             (clipped - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - hp["ent_coef"] * entropy.mean() + hp["vf_coef"] * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), hp["max_grad_norm"])
                optimizer.step()


if __name__ == "__main__":
    args = parse_args("cleanrl-ppo", __doc__)
    run_baseline(agent, "cleanrl-ppo",
                 "CleanRL-style single-file PPO (torch): MLP 64x64 on the flat single-step "
                 "observation, a masked categorical per tensor, CleanRL's defaults",
                 "cleanrl_ppo.py", HYPERPARAMETERS, args)
