"""The loop an RL researcher writes first, as written in Gymnasium's idiom: masked random actions
across episode ends in a vector env, every column read by name, a batch padded across workloads,
torch tensors as actions."""

import unittest

import numpy as np

import memplace

SEQ = "memplace/sequential/resnet50-v0"
SEQ_V1 = "memplace/sequential/resnet50-v1"
GAME = "memplace/malloc/resnet50-v2"


class MaskedVectorLoopTest(unittest.TestCase):
    def test_the_obvious_loop_runs_across_episode_ends(self):
        envs = memplace.make_vec(SEQ, 3, seed=5)
        obs, _ = envs.reset()
        envs.action_space.seed(7)
        ends = 0
        for _ in range(3 * envs.episode_length + 2):
            actions = envs.action_space.sample(mask=obs["action_mask"])
            self.assertTrue(all(obs["action_mask"][i, a] or not obs["action_mask"][i].any()
                                for i, a in enumerate(actions)))
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            ends += int(terminated.sum())
        self.assertGreaterEqual(ends, 6)  # every copy ended at least twice

    def test_an_empty_mask_samples_start_like_gymnasium(self):
        space = memplace.spaces.Discrete(3, seed=1)
        self.assertEqual(space.sample(mask=np.zeros(3, dtype=np.int8)), 0)
        batch = memplace.spaces.MultiDiscrete([3, 3], seed=1)
        mask = np.array([[0, 0, 0], [0, 0, 1]], dtype=np.int8)
        np.testing.assert_array_equal(batch.sample(mask=mask), [0, 2])
        # A mask of the wrong size is still an error.
        with self.assertRaises(ValueError):
            space.sample(mask=np.zeros(4, dtype=np.int8))


class NamedColumnsTest(unittest.TestCase):
    def check_names(self, env, expected_state):
        obs, _ = env.reset(seed=1)
        lead = obs["nodes"].shape[:-2]
        self.assertEqual(obs["nodes"].shape[-1], len(env.node_feature_names))
        self.assertEqual(obs["node_state"].shape[-1], len(env.node_state_names))
        self.assertEqual(env.node_state_names, expected_state)
        self.assertEqual(len(set(env.node_feature_names)), len(env.node_feature_names))
        for name in env.node_feature_names:
            column = obs["nodes"][..., env.node_feature_names.index(name)]
            self.assertTrue(((column >= 0) & (column <= 1)).all(), name)
        return obs, lead

    def test_the_current_tensor_by_name(self):
        env = memplace.make(SEQ)
        obs, _ = self.check_names(env, ["weight_memory", "activation_memory", "weight_placed",
                                        "activation_placed", "weight_current",
                                        "activation_current"])
        names = env.node_state_names
        for step in range(6):
            state = obs["node_state"]
            weight = state[:, names.index("weight_current")]
            output = state[:, names.index("activation_current")]
            self.assertEqual(weight.sum() + output.sum(), 1.0)
            layer = int(np.argmax(weight + output))
            tensor = 2 * layer + int(output[layer] == 1.0)
            self.assertEqual(tensor, env.placement_order[step])
            self.assertEqual(tensor, env.current_tensor)
            obs, *_ = env.step(int(np.argmax(obs["action_mask"])))
        game = memplace.make(GAME)
        self.assertIsNone(game.current_tensor)  # before reset
        game.reset(seed=1)
        for step in range(game.episode_length):
            self.assertEqual(game.current_tensor, game.placement_order[step])
            game.step(0)  # the slowest memory is always a candidate
        self.assertIsNone(game.current_tensor)
        self.assertIsNone(memplace.make("memplace/single-step/resnet50-v0").current_tensor)

    def test_names_of_every_kind(self):
        tensor_columns = ["weight_memory", "activation_memory", "weight_placed",
                          "activation_placed", "weight_current", "activation_current"]
        self.check_names(memplace.make(SEQ_V1),
                         tensor_columns + ["free_staging", "memory_bound_share"])
        self.check_names(memplace.make(GAME),
                         tensor_columns + ["weight_offset", "activation_offset"])
        self.check_names(memplace.make("memplace/single-step/resnet50-v0"),
                         ["weight_memory", "activation_memory"])
        envs = memplace.make_vec(SEQ_V1, 2, seed=1)
        _, lead = self.check_names(envs, tensor_columns + ["free_staging", "memory_bound_share"])
        self.assertEqual(lead, (2,))
        self.assertEqual(envs.episode_length, memplace.make(SEQ_V1).episode_length)


class PaddedBatchTest(unittest.TestCase):
    def test_a_batch_across_two_workloads_and_chips(self):
        small = memplace.make("memplace/sequential/resnet50-v0")
        big = memplace.make_vec("memplace/sequential/bert-base@edge-tpu-v0", 2, seed=4)
        small_obs, _ = small.reset(seed=1)
        small_obs, *_ = small.step(int(np.argmax(small_obs["action_mask"])))
        big_obs, _ = big.reset()
        batch = memplace.pad_observations([small_obs, big_obs])
        n_small, n_big = len(small_obs["nodes"]), big_obs["nodes"].shape[1]
        e_small, e_big = len(small_obs["edge_links"]), big_obs["edge_links"].shape[1]
        m_small, m_big = len(small_obs["action_mask"]), big_obs["action_mask"].shape[1]
        self.assertNotEqual((n_small, m_small), (n_big, m_big))
        n, e, m = max(n_small, n_big), max(e_small, e_big), max(m_small, m_big)
        self.assertEqual(batch["nodes"].shape, (3, n, 21))
        self.assertEqual(batch["node_state"].shape, (3, n, 6))
        self.assertEqual(batch["edge_links"].shape, (3, e, 2))
        self.assertEqual(batch["action_mask"].shape, (3, m))
        self.assertTrue(batch["node_state"].flags.writeable)
        # The real part is the observation, the rest is padding that a mask marks.
        np.testing.assert_array_equal(batch["node_state"][0, :n_small], small_obs["node_state"])
        np.testing.assert_array_equal(batch["nodes"][2, :n_big], big_obs["nodes"][1])
        np.testing.assert_array_equal(batch["edge_links"][1, :e_big], big_obs["edge_links"][0])
        np.testing.assert_array_equal(batch["action_mask"][0, :m_small], small_obs["action_mask"])
        self.assertEqual(batch["node_mask"].sum(axis=1).tolist(), [n_small, n_big, n_big])
        self.assertEqual(batch["edge_mask"].sum(axis=1).tolist(), [e_small, e_big, e_big])
        self.assertFalse(batch["nodes"][~batch["node_mask"]].any())
        self.assertFalse(batch["edge_links"][~batch["edge_mask"]].any())
        self.assertFalse(batch["action_mask"][0, m_small:].any())
        wider = memplace.pad_observations([small_obs], max_nodes=400, max_actions=5)
        self.assertEqual(wider["nodes"].shape, (1, 400, 21))
        self.assertEqual(wider["action_mask"].shape, (1, 5))

    def test_bad_batches_are_refused(self):
        v0, _ = memplace.make(SEQ).reset(seed=1)
        v1, _ = memplace.make(SEQ_V1).reset(seed=1)
        with self.assertRaisesRegex(ValueError, "nodes has \\[21, 23\\] columns"):
            memplace.pad_observations([v0, v1])
        with self.assertRaisesRegex(ValueError, "max_nodes=10 is below"):
            memplace.pad_observations([v0], max_nodes=10)
        with self.assertRaisesRegex(ValueError, "no observations"):
            memplace.pad_observations([])
        with self.assertRaises(TypeError):
            memplace.pad_observations([np.zeros(3)])


class TorchActionsTest(unittest.TestCase):
    def setUp(self):
        try:
            import torch
        except ImportError:  # make test installs python3-torch; a bare build may not have it
            self.skipTest("torch is not installed")
        self.torch = torch

    def test_integer_tensors_are_read_as_arrays(self):
        torch = self.torch
        envs = memplace.make_vec(SEQ, 2, seed=3)
        obs, _ = envs.reset()
        actions = torch.from_numpy(np.argmax(obs["action_mask"], axis=1))
        _, rewards, *_ = envs.step(actions)
        self.assertEqual(rewards.shape, (2,))
        env = memplace.make(SEQ)
        obs, _ = env.reset(seed=1)
        env.step(torch.tensor(int(np.argmax(obs["action_mask"]))))  # one element: a scalar

    def test_float_tensors_are_refused_by_name(self):
        torch = self.torch
        envs = memplace.make_vec(SEQ, 2, seed=3)
        envs.reset()
        with self.assertRaisesRegex(TypeError, "must be integers, got Tensor"):
            envs.step(torch.zeros(2))
        with self.assertRaisesRegex(TypeError, "seed"):
            envs.reset(seed=torch.tensor([1, 2]))


if __name__ == "__main__":
    unittest.main()
