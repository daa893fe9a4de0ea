"""Every registered environment, from Python, held to the contract of the C++ checker
(env/checker.hpp) and to Gymnasium's checker rules: reset(seed) twice gives equal observations;
observations inside the space; the 5-tuple's types; episode length; bad actions raise and change
nothing; the same seed and actions replay exactly; observations share their static arrays."""

import math
import os
import unittest

import numpy as np

import memplace

# The generic ids run with their default options (workload resnet50).
IDS = memplace.list_envs()


def obs_equal(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def random_action(env, obs):
    space = env.action_space
    if isinstance(space, memplace.spaces.Discrete):
        return space.sample(mask=obs["action_mask"])
    return space.sample()


def play(env, seed, actions=None):
    """One episode: (actions, rewards, observations, infos); actions are drawn from a space seeded
    with `seed` unless given."""
    env.action_space.seed(seed)
    obs, info = env.reset(seed=seed)
    out_actions, rewards, observations, infos = [], [], [obs], [info]
    for t in range(env.episode_length):
        action = random_action(env, obs) if actions is None else actions[t]
        obs, reward, terminated, truncated, info = env.step(action)
        out_actions.append(action)
        rewards.append(reward)
        observations.append(obs)
        infos.append(info)
    return out_actions, rewards, observations, infos


class ContractTest(unittest.TestCase):
    def check_step_types(self, env, result, t):
        self.assertIsInstance(result, tuple)
        self.assertEqual(len(result), 5)
        obs, reward, terminated, truncated, info = result
        self.assertIsInstance(obs, dict)
        self.assertIsInstance(reward, float)
        self.assertTrue(math.isfinite(reward))
        self.assertIs(type(terminated), bool)
        self.assertIs(type(truncated), bool)
        self.assertIsInstance(info, dict)
        self.assertTrue(env.observation_space.contains(obs), f"step {t}: obs outside the space")
        self.assertFalse(truncated)
        self.assertEqual(terminated, t == env.episode_length, f"terminated at step {t}")
        for key, value in info.items():
            self.assertTrue(math.isfinite(value), f"info[{key}] = {value}")

    def check_env(self, env_id, **options):
        env = memplace.make(env_id, **options)
        self.assertEqual(env.id, env_id)
        self.assertIsInstance(env.observation_space, memplace.spaces.Dict)
        self.assertGreater(env.episode_length, 0)

        # A step before the first reset raises.
        with self.assertRaises(ValueError):
            env.step(env.action_space.sample())

        # reset(seed) twice: equal observations and info; inside the space; dtypes as declared.
        obs1, info1 = env.reset(seed=7)
        obs2, info2 = env.reset(seed=7)
        self.assertTrue(obs_equal(obs1, obs2))
        self.assertEqual(info1, info2)
        self.assertTrue(env.observation_space.contains(obs1))
        for key, space in env.observation_space.items():
            self.assertEqual(obs1[key].dtype, space.dtype, key)
            self.assertFalse(obs1[key].flags.writeable, f"{key} must be read-only")
        self.assertEqual(env.reset(seed=None)[1], info1)  # unseeded: same start, generator kept

        # One random-agent episode: types, termination, and static arrays never copied.
        obs, _ = env.reset(seed=3)
        nodes, edge_links = obs["nodes"], obs["edge_links"]
        for t in range(1, env.episode_length + 1):
            result = env.step(random_action(env, obs))
            self.check_step_types(env, result, t)
            obs = result[0]
            self.assertIs(obs["nodes"], nodes)
            self.assertIs(obs["edge_links"], edge_links)
        with self.assertRaises(ValueError):  # after termination
            env.step(random_action(env, obs))

        # The same seed and actions replay exactly, in another environment too.
        actions, rewards, observations, infos = play(env, seed=11)
        for other in (env, memplace.make(env_id, **options)):
            _, rewards2, observations2, infos2 = play(other, seed=11, actions=actions)
            self.assertEqual(rewards, rewards2)
            self.assertEqual(infos, infos2)
            self.assertTrue(all(obs_equal(a, b) for a, b in zip(observations, observations2)))

        self.check_bad_actions(memplace.make(env_id, **options), actions, rewards, observations)

        # Spaces sample inside themselves, and seeded samples repeat.
        self.assertTrue(env.action_space.contains(env.action_space.sample()))
        self.assertTrue(env.observation_space.contains(env.observation_space.sample()))
        env.action_space.seed(5)
        first = env.action_space.sample()
        env.action_space.seed(5)
        np.testing.assert_array_equal(first, env.action_space.sample())

        env.close()
        env.close()  # idempotent
        with self.assertRaises(ValueError):
            env.reset(seed=1)

    def check_bad_actions(self, env, actions, rewards, observations):
        """Bad actions raise with a message, and the episode then goes on exactly as the clean
        replay (actions/rewards/observations from seed 11)."""
        env_id = env.id
        space = env.action_space
        env.reset(seed=11)
        discrete = isinstance(space, memplace.spaces.Discrete)
        n = space.n if discrete else int(space.nvec.max())
        length = 1 if discrete else space.shape[0]
        bad = [
            ([0] * (length + 1), ValueError),       # wrong length
            ([0] * (length - 1) if length > 1 else [], ValueError),
            ([n] * length if not discrete else n, ValueError),  # out of range
            ([-1] * length if not discrete else -1, ValueError),
            (np.zeros(length, dtype=np.float32), TypeError),  # not integers
            ("0", TypeError),
            (None, TypeError),
            (True, TypeError),
            (2**70, ValueError),
        ]
        for t, action in enumerate(actions):
            mask = observations[t]["action_mask"]
            masked = [(int(np.flatnonzero(mask == 0)[0]), ValueError)] if not mask.all() else []
            for value, error in bad + (masked if discrete else []):
                with self.assertRaises(error, msg=f"{env_id} step {t}: {value!r}") as caught:
                    env.step(value)
                self.assertTrue(str(caught.exception), "the error says what is wrong")
            # Numpy integers and arrays are accepted as well as plain ints and lists.
            given = np.int32(action) if discrete else np.asarray(action, dtype=np.int16)
            obs, reward, *_ = env.step(given)
            self.assertEqual(reward, rewards[t])
            self.assertTrue(obs_equal(obs, observations[t + 1]))
            if t >= 20:  # the long sequential episodes: the first steps make the point
                break

    def test_every_registered_env(self):
        self.assertGreaterEqual(len(IDS), 2 * len(memplace.paper_workloads()) + 2)
        for env_id in IDS:
            with self.subTest(env=env_id):
                self.check_env(env_id)

    def test_generic_ids_with_workload_and_hardware_files(self):
        data = os.path.join(os.path.dirname(__file__), "..", "data", "good")
        for env_id in ("memplace/single-step-v0", "memplace/sequential-v0"):
            for options in ({"workload": os.path.join(data, "chain.yaml")},
                            {"workload": os.path.join(data, "chain.yaml"),
                             "hardware": os.path.join(data, "toy-hw.yaml"), "memory_time": "sum"},
                            {"workload": "bert-base", "hardware": "nnpi"}):
                with self.subTest(env=env_id, **options):
                    self.check_env(env_id, **options)

    def test_options_change_the_env_and_are_reported(self):
        env = memplace.make("memplace/single-step/resnet50-v0", invalid="rectify",
                            reward="log-speedup")
        self.assertEqual(env.options["invalid"], "rectify")
        self.assertEqual(env.options["reward"], "log-speedup")
        env.reset(seed=1)
        # Everything in DRAM but rectified... all-SRAM overflows and is rectified to a valid one.
        _, reward, _, _, info = env.step([0] * env.action_space.shape[0])
        self.assertTrue(info["rectified"])
        self.assertAlmostEqual(reward, math.log(info["speedup"]), places=12)


if __name__ == "__main__":
    unittest.main()
