"""The malloc env from Python (docs/envs/malloc.md): the occupancy grid in the observation and
its space, and the state accessors a search or a decoder needs — each step puts the placed tensor
where the chosen candidate said, in the memory it said, and the episode ends valid under v2."""

import unittest

import numpy as np

import memplace


class MallocTest(unittest.TestCase):
    def test_candidates_are_where_tensors_land(self):
        env = memplace.make("memplace/malloc/resnet50-v2", order="msa")
        obs, info = env.reset(seed=3)
        self.assertEqual(obs["occupancy"].shape, (2, 32, 32))
        self.assertTrue(env.observation_space["occupancy"].contains(obs["occupancy"]))
        self.assertEqual(float(obs["occupancy"].sum()), 0.0)
        order = env.placement_order
        self.assertEqual(len(order), env.episode_length)
        space = env.action_space
        space.seed(3)
        terminated = False
        step = 0
        while not terminated:
            candidates = env.candidates
            self.assertEqual(len(candidates), len(obs["action_mask"]))
            for a, allowed in enumerate(obs["action_mask"]):
                if allowed and a > 0:
                    self.assertGreaterEqual(candidates[a][1], 0)
            action = int(space.sample(mask=obs["action_mask"]))
            memory, offset = candidates[action]
            obs, reward, terminated, truncated, info = env.step(action)
            tensor = order[step]
            self.assertEqual(env.mapping[tensor], memory)
            self.assertEqual(env.tensor_offsets[tensor], offset)
            step += 1
        self.assertTrue(info["valid"])
        self.assertGreater(float(obs["occupancy"].sum()), 0.0)
        self.assertTrue(np.all((obs["occupancy"] >= 0) & (obs["occupancy"] <= 1)))

    def test_other_kinds_have_no_game_state(self):
        seq = memplace.make("memplace/sequential/resnet50-v0")
        seq.reset(seed=0)
        self.assertEqual(len(seq.placement_order), seq.episode_length)
        self.assertEqual(len(seq.mapping), 2 * seq.simulator.num_layers)
        self.assertIsNone(seq.tensor_offsets)
        self.assertIsNone(seq.candidates)
        single = memplace.make("memplace/single-step/resnet50-v0")
        self.assertIsNone(single.placement_order)
        self.assertIsNone(single.mapping)

    def test_vector_env_batches_the_grid(self):
        envs = memplace.VectorEnv("memplace/malloc/resnet50-v2", 3)
        obs, _ = envs.reset(seed=0)
        self.assertEqual(obs["occupancy"].shape, (3, 2, 32, 32))
        self.assertTrue(envs.observation_space["occupancy"].contains(obs["occupancy"]))


if __name__ == "__main__":
    unittest.main()
