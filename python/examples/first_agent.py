"""A first agent: one softmax preference per tensor and memory, learned by REINFORCE.

The single-step env asks for a whole mapping at once: a memory (on the Edge TPU 0 = SRAM, 1 = HOST)
for each layer's weight and output. The policy keeps a table of preferences theta[tensor, memory] and
samples every tensor's memory from softmax(theta[tensor]); after each episode it moves theta
towards the choices of mappings that beat the running average reward.
"""
import sys

import numpy as np

import memplace

episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
# MobileNetV3-Large at batch 32 on the Edge TPU, an instance of the benchmark suite's dev split.
# invalid=rectify: a mapping that overflows a memory is repaired (as a compiler would) and scored.
env = memplace.make("memplace/single-step-v1", workload="mobilenet-v3-large-b32",
                    hardware="edge-tpu", invalid="rectify")
obs, info = env.reset(seed=0)
memories = env.simulator.num_memories
fits = obs["action_mask"].reshape(-1, memories).astype(bool)  # where each tensor can fit at all
theta = np.where(fits, 0.0, -np.inf)  # start uniform over the memories a tensor fits in
rng = np.random.default_rng(0)
baseline, learning_rate = 0.0, 0.5
best_speedup, best_mapping = 0.0, None
for episode in range(episodes):
    probs = np.exp(theta - theta.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    # One memory per tensor, drawn from its row of probabilities.
    mapping = (rng.random((len(probs), 1)) > probs.cumsum(axis=1)).sum(axis=1)
    env.reset()
    obs, reward, terminated, truncated, info = env.step(mapping)
    if info["speedup"] > best_speedup:
        best_speedup, best_mapping = info["speedup"], mapping
    # REINFORCE: grad log p(mapping) = onehot(mapping) - probs, per tensor.
    grad = -probs
    grad[np.arange(len(mapping)), mapping] += 1.0
    theta[fits] += learning_rate * (reward - baseline) * grad[fits]
    baseline += 0.05 * (reward - baseline)
    if (episode + 1) % (episodes // 10) == 0:
        print(f"episode {episode + 1:5d}  reward {reward:+.4f}  speedup {info['speedup']:.4f}"
              f"  best {best_speedup:.4f}")

# The best mapping, repaired as the env scored it, saved for `memplace evaluate` to re-check.
rectified, _, _ = env.simulator.rectify(best_mapping)
env.simulator.save_mapping("first-agent-mapping.yaml", rectified)
print(f"best speedup over the compiler: {best_speedup:.4f} (first-agent-mapping.yaml)")
