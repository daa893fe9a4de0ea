"""The C++ golden trajectories (tests/golden/*.txt, written by tests/env/test_golden.cpp), replayed
from Python: the same seed and actions give bit-identical rewards, info and observations (compared
by the same FNV-1a hash over the observation's bytes). The actions are also redrawn from memplace's
Python spaces seeded as the C++ env's generator was, which must give the recorded ones."""

import os
import unittest

import numpy as np

import memplace

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
SEED = 2026


class Fnv1a:
    """ObservationView::hash() (env/observation.cpp): FNV-1a over the static features, the edges
    (2 x E: sources, then targets), the dynamic features and the action mask."""

    def __init__(self, h=0xCBF29CE484222325):
        self.h = h

    def mix(self, data: bytes):
        h = self.h
        for byte in data:
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        self.h = h
        return self


def observation_hash(obs, static_prefix: Fnv1a) -> int:
    h = Fnv1a(static_prefix.h)
    h.mix(obs["node_state"].tobytes()).mix(obs["action_mask"].tobytes())
    if "occupancy" in obs:  # the malloc env's grid, hashed after the mask as in C++
        h.mix(obs["occupancy"].tobytes())
    return h.h


def read_golden(path):
    steps = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            step, action, reward_hex, _, terminated, latency, speedup_hex, obs_hash = line.split()
            steps.append({
                "action": None if action == "-" else [int(a) for a in action.split(",")],
                "reward": None if reward_hex == "-" else float.fromhex(reward_hex),
                "terminated": terminated == "1",
                "latency_fs": int(latency),
                "speedup": float.fromhex(speedup_hex),
                "hash": int(obs_hash, 16),
            })
    return steps


class GoldenTest(unittest.TestCase):
    def replay(self, file_name, env_id):
        steps = read_golden(os.path.join(GOLDEN, file_name))
        env = memplace.make(env_id)
        obs, info = env.reset(seed=SEED)
        static = Fnv1a().mix(obs["nodes"].tobytes()).mix(obs["edge_links"].T.tobytes())
        self.assertEqual(info["latency_fs"], steps[0]["latency_fs"])
        self.assertEqual(info["speedup"], steps[0]["speedup"])
        self.assertEqual(observation_hash(obs, static), steps[0]["hash"])

        space = env.action_space
        space.seed(SEED)  # as reset(seed) reseeds the C++ env's generator
        self.assertEqual(len(steps) - 1, env.episode_length)
        for t, golden in enumerate(steps[1:], start=1):
            drawn = (space.sample(mask=obs["action_mask"])
                     if isinstance(space, memplace.spaces.Discrete) else space.sample())
            self.assertEqual(list(np.atleast_1d(drawn)), golden["action"], f"step {t}: action")
            action = golden["action"][0] if len(golden["action"]) == 1 else golden["action"]
            obs, reward, terminated, truncated, info = env.step(action)
            self.assertEqual(reward.hex(), golden["reward"].hex(), f"step {t}: reward")
            self.assertEqual(terminated, golden["terminated"], f"step {t}")
            self.assertFalse(truncated)
            self.assertEqual(info["latency_fs"], golden["latency_fs"], f"step {t}")
            self.assertEqual(info["speedup"].hex(), golden["speedup"].hex(), f"step {t}")
            self.assertEqual(observation_hash(obs, static), golden["hash"], f"step {t}: obs")

    def test_single_step_resnet50(self):
        self.replay("single-step-resnet50-v0.txt", "memplace/single-step/resnet50-v0")

    def test_sequential_resnet50(self):
        self.replay("sequential-resnet50-v0.txt", "memplace/sequential/resnet50-v0")

    def test_malloc_resnet50(self):
        self.replay("malloc-resnet50-v2.txt", "memplace/malloc/resnet50-v2")

    def test_hash_detects_a_changed_observation(self):
        # The hash is a real check: one changed byte of node_state changes it.
        env = memplace.make("memplace/sequential/resnet50-v0")
        obs, _ = env.reset(seed=SEED)
        static = Fnv1a().mix(obs["nodes"].tobytes()).mix(obs["edge_links"].T.tobytes())
        changed = dict(obs, node_state=obs["node_state"].copy())
        changed["node_state"][0, 0] += 0.5
        self.assertNotEqual(observation_hash(obs, static), observation_hash(changed, static))


if __name__ == "__main__":
    unittest.main()
