#!/usr/bin/env python3
"""REINFORCE with a small graph network in PyTorch, on memplace's single-step environment.

Each episode is one whole mapping: the policy reads the workload graph, gives every tensor (the
weight and the output of each layer) a distribution over the memories, and samples a memory for
each. The environment scores the mapping with the cost model and returns speedup - 1 over the
compiler's mapping (a penalty if the mapping overflows a memory). REINFORCE raises the
log-probability of mappings that beat the batch's mean reward.

    /usr/bin/python3 python/examples/reinforce_torch.py --episodes 20000

Needs Debian's python3-torch and the memplace package on PYTHONPATH (docs/python.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
import torch
from torch import nn

import memplace


class GraphPolicy(nn.Module):
    """Two rounds of message passing (a node's own features, the mean of its producers', the
    mean of its consumers'), then M logits for its weight and M for its output."""

    def __init__(self, features: int, memories: int, hidden: int = 64):
        super().__init__()
        self.embed = nn.Linear(features, hidden)
        self.rounds = nn.ModuleList(nn.Linear(3 * hidden, hidden) for _ in range(2))
        self.head = nn.Linear(hidden, 2 * memories)
        self.memories = memories

    def forward(self, x: torch.Tensor, links: torch.Tensor) -> torch.Tensor:
        n = x.shape[0]
        src, dst = links[:, 0], links[:, 1]
        in_count = torch.zeros(n).index_add_(0, dst, torch.ones(len(dst))).clamp(min=1)
        out_count = torch.zeros(n).index_add_(0, src, torch.ones(len(src))).clamp(min=1)
        h = torch.relu(self.embed(x))
        for layer in self.rounds:
            from_producers = torch.zeros_like(h).index_add_(0, dst, h[src]) / in_count[:, None]
            from_consumers = torch.zeros_like(h).index_add_(0, src, h[dst]) / out_count[:, None]
            h = h + torch.relu(layer(torch.cat([h, from_producers, from_consumers], dim=1)))
        # Row 2l is layer l's weight, row 2l + 1 its output: the order of the action.
        return self.head(h).reshape(2 * n, self.memories)


def episode_score(info: dict) -> float:
    """The speedup of the scored mapping (the rectified one with --invalid rectify); 0 for a
    mapping that does not fit and was not rectified."""
    return info["speedup"] if info["valid"] or info["rectified"] else 0.0


def train(env_id="memplace/single-step/resnet50-v0", episodes=20000, batch=32, lr=0.01,
          seed=0, log=print, **env_options):
    """Trains and returns the history: one (reward, score) pair per episode, and the best
    mapping found with its speedup."""
    torch.manual_seed(seed)
    env = memplace.make(env_id, **env_options)
    obs, _ = env.reset(seed=seed)
    x = torch.from_numpy(np.concatenate([obs["nodes"], obs["node_state"]], axis=1))
    links = torch.from_numpy(np.array(obs["edge_links"]))
    memories = env.simulator.num_memories
    # The mask says where each tensor can fit at all (a hint: it rules out hopeless choices).
    fits = torch.from_numpy(obs["action_mask"].reshape(-1, memories).astype(bool))
    policy = GraphPolicy(x.shape[1], memories)
    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)

    rewards, scores, best = [], [], (0.0, None)
    for update in range(math.ceil(episodes / batch)):
        logits = policy(x, links).masked_fill(~fits, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        mappings = dist.sample((batch,))  # batch x 2N
        batch_rewards = []
        for mapping in mappings.numpy():
            env.reset()
            _, reward, _, _, info = env.step(mapping)
            batch_rewards.append(reward)
            scores.append(episode_score(info))
            if scores[-1] > best[0]:
                best = (scores[-1], mapping.copy())
        rewards += batch_rewards
        r = torch.tensor(batch_rewards)
        advantage = (r - r.mean()) / (r.std() + 1e-8)
        loss = -(advantage * dist.log_prob(mappings).sum(dim=1)).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if log and (update + 1) % max(1, episodes // batch // 10) == 0:
            recent = scores[-batch:]
            log(f"episode {len(scores):6d}  mean reward {np.mean(batch_rewards):+.4f}  "
                f"valid {np.mean([s > 0 for s in recent]):4.0%}  "
                f"mean speedup {np.mean(recent):.4f}  best {best[0]:.4f}")
    return {"rewards": rewards, "scores": scores, "best_speedup": best[0],
            "best_mapping": best[1]}


def improvement(history: dict) -> tuple[float, float]:
    """Mean speedup (invalid mappings count 0) over the first and the last 10 % of episodes."""
    scores = history["scores"]
    tenth = max(1, len(scores) // 10)
    return float(np.mean(scores[:tenth])), float(np.mean(scores[-tenth:]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="memplace/single-step/resnet50-v0")
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--batch", type=int, default=32, help="episodes per policy update")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--invalid", choices=["penalize", "rectify"], default="penalize",
                        help="what the env does with a mapping that does not fit")
    parser.add_argument("--json", help="also write the summary to this file")
    args = parser.parse_args(argv)
    if args.episodes < 1 or args.batch < 2:
        parser.error("--episodes must be >= 1 and --batch >= 2")
    if args.lr <= 0:
        parser.error("--lr must be positive")
    torch.set_num_threads(1)  # small tensors: threads only add overhead (and nondeterminism)
    try:
        history = train(args.env, args.episodes, args.batch, args.lr, args.seed,
                        invalid=args.invalid)
    except ValueError as e:  # an unknown env id or option, with memplace's message
        print(f"{parser.prog}: error: {e}", file=sys.stderr)
        return 2
    first, last = improvement(history)
    print(f"mean speedup over the compiler: first 10 % of episodes {first:.4f}, "
          f"last 10 % {last:.4f}; best mapping {history['best_speedup']:.4f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"first_tenth": first, "last_tenth": last,
                       "best_speedup": history["best_speedup"]}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
