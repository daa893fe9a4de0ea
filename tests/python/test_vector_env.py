"""memplace.make_vec: batched arrays that agree with single environments, next-step autoreset,
bad batches that raise and change nothing, and results independent of the thread count."""

import threading
import unittest

import numpy as np

import memplace

SEQ = "memplace/sequential/resnet50-v0"
SINGLE = "memplace/single-step/resnet50-v0"


def first_allowed(masks):
    """Each copy's first allowed memory (a deterministic masked policy)."""
    return np.argmax(masks != 0, axis=1)


class VectorEnvTest(unittest.TestCase):
    def test_shapes_and_spaces(self):
        envs = memplace.make_vec(SEQ, 4, seed=3)
        obs, infos = envs.reset()
        self.assertEqual(obs["nodes"].shape, (4, 57, 21))
        self.assertEqual(obs["nodes"].strides[0], 0)  # broadcast: the static data is not copied
        self.assertEqual(obs["edge_links"].strides[0], 0)
        self.assertEqual(obs["node_state"].shape, (4, 57, 6))
        self.assertEqual(obs["action_mask"].shape, (4, 3))
        self.assertEqual(infos["speedup"].shape, (4,))
        self.assertTrue(envs.observation_space.contains(obs))
        self.assertEqual(envs.single_action_space, memplace.spaces.Discrete(3))
        self.assertEqual(envs.action_space.shape, (4,))
        obs, rewards, terminated, truncated, infos = envs.step(first_allowed(obs["action_mask"]))
        self.assertEqual(rewards.dtype, np.float64)
        self.assertEqual(terminated.dtype, np.bool_)
        self.assertEqual(truncated.dtype, np.bool_)
        self.assertTrue(envs.observation_space.contains(obs))

    def test_copies_match_single_envs_and_autoreset(self):
        n = 3
        envs = memplace.make_vec(SEQ, n, seed=10)
        singles = [memplace.make(SEQ) for _ in range(n)]
        obs, _ = envs.reset()
        single_obs = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
        length = singles[0].episode_length
        for t in range(length + 2):
            actions = first_allowed(obs["action_mask"])
            obs, rewards, terminated, _, infos = envs.step(actions)
            for i, env in enumerate(singles):
                if t < length:
                    o, r, term, _, info = env.step(int(actions[i]))
                    self.assertEqual(rewards[i], r)
                    self.assertEqual(terminated[i], term)
                    self.assertEqual(infos["latency_fs"][i], info["latency_fs"])
                    np.testing.assert_array_equal(obs["node_state"][i], o["node_state"])
                    single_obs[i] = o
                elif t == length:  # the step after the end: reset, reward 0, flags false
                    self.assertEqual(rewards[i], 0.0)
                    self.assertFalse(terminated[i])
                    self.assertEqual(infos["step"][i], 0)

    def test_bad_batches_raise_and_change_nothing(self):
        envs = memplace.make_vec(SINGLE, 2, seed=1)
        with self.assertRaises(ValueError):
            envs.step(np.zeros((2, 114), dtype=np.int64))  # before reset
        envs.reset()
        good = np.full((2, 114), 2, dtype=np.int64)
        for bad, error in ((np.zeros((3, 114), dtype=np.int64), ValueError),
                           (np.full((2, 114), 3), ValueError),
                           (np.zeros((2, 114), dtype=np.float32), TypeError),
                           ("x", TypeError)):
            with self.assertRaises(error):
                envs.step(bad)
        _, rewards, terminated, _, _ = envs.step(good)
        reference = memplace.make(SINGLE)
        reference.reset(seed=1)
        self.assertEqual(rewards[0], reference.step(good[0])[1])
        self.assertTrue(terminated.all())
        envs.close()
        with self.assertRaises(ValueError):
            envs.step(good)

    def test_threads_do_not_change_results(self):
        def run(threads):
            envs = memplace.make_vec(SEQ, 5, seed=4, num_threads=threads)
            space = memplace.spaces.Discrete(3, seed=4)
            obs, _ = envs.reset()
            total = []
            for _ in range(150):
                # A copy that just ended shows an all-zero mask; its next action is ignored.
                actions = [space.sample(mask=m) if m.any() else 0 for m in obs["action_mask"]]
                obs, rewards, _, _, _ = envs.step(actions)
                total.append(rewards.copy())
            return np.array(total)

        np.testing.assert_array_equal(run(1), run(2))

    def test_two_threads_on_one_vector_env_get_an_error_not_a_race(self):
        # The copies step with the GIL released; a second thread entering the same vector env
        # meanwhile is refused. Thread A keeps stepping a large batch; thread B calls in too.
        envs = memplace.make_vec("memplace/single-step/bert-base-v0", 32, seed=0, num_threads=1)
        envs.reset()
        actions = np.full((32, 748), 2, dtype=np.int64)
        outcomes = {"ok": 0, "refused": 0}
        stop = threading.Event()

        def hammer():
            while not stop.is_set():
                try:
                    envs.step(actions)
                    outcomes["ok"] += 1
                except RuntimeError as e:
                    self.assertIn("two threads", str(e))
                    outcomes["refused"] += 1

        other = threading.Thread(target=hammer)
        other.start()
        try:
            for _ in range(200):
                try:
                    envs.step(actions)
                except RuntimeError:
                    outcomes["refused"] += 1
        finally:
            stop.set()
            other.join()
        self.assertGreater(outcomes["refused"], 0)
        self.assertGreater(outcomes["ok"], 0)
        envs.step(actions)  # still usable

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            memplace.make_vec(SEQ, 0)
        with self.assertRaises(TypeError):
            memplace.make_vec(SEQ, 2.5)
        with self.assertRaises(ValueError):
            memplace.make_vec(SEQ, 2, num_threads=-1)
        with self.assertRaises(ValueError):
            memplace.make_vec("memplace/nope-v0", 2)


if __name__ == "__main__":
    unittest.main()
