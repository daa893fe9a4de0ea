"""Every registered environment, from Python, held to the contract of the C++ checker
(env/checker.hpp) and to Gymnasium's checker rules by memplace.check_env: reset(seed) twice gives
equal observations; observations inside the space; the 5-tuple's types; episode length; bad
actions raise and change nothing; the same seed and actions replay exactly. Wrappers with one
fault each show that the checker finds what it claims to. Plus what memplace promises beyond the
contract: observations share their read-only static arrays."""

import math
import os

import unittest

import numpy as np

import memplace

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "good")


class Wrapper:
    """Passes everything to a memplace env; subclasses break one rule."""

    def __init__(self, env):
        self.env = env
        self.id, self.options = env.id, env.options
        self.observation_space, self.action_space = env.observation_space, env.action_space
        self.episode_length = env.episode_length

    def reset(self, *, seed=None, options=None):
        return self.env.reset(seed=seed, options=options)

    def step(self, action):
        return self.env.step(action)


class NoisyReward(Wrapper):  # not deterministic
    rng = np.random.default_rng(0)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward + float(self.rng.normal()), terminated, truncated, info


class NeverTerminates(Wrapper):
    def step(self, action):
        obs, reward, _, truncated, info = self.env.step(action)
        return obs, reward, False, truncated, info


class ClipsActions(Wrapper):  # accepts out-of-range actions silently
    def step(self, action):
        return self.env.step(np.clip(np.asarray(action), 0, 2))


class ScaledFeatures(Wrapper):  # observations outside the space
    def _scaled(self, obs):
        return dict(obs, node_state=obs["node_state"] * 2 + 1)

    def reset(self, *, seed=None, options=None):
        obs, info = self.env.reset(seed=seed, options=options)
        return self._scaled(obs), info

    def step(self, action):
        obs, *rest = self.env.step(action)
        return (self._scaled(obs), *rest)


class NumpyReward(Wrapper):  # a numpy float is not the declared Python float
    def step(self, action):
        obs, reward, *rest = self.env.step(action)
        return (obs, np.float32(reward), *rest)


class ContractTest(unittest.TestCase):
    def assert_conforms(self, env_id, **options):
        problems = memplace.check_env(memplace.make(env_id, **options))
        self.assertEqual(problems, [], f"{env_id} {options}")

    def test_every_registered_env(self):
        specs = memplace.env_specs()
        self.assertGreaterEqual(len(specs), 2 * len(memplace.paper_workloads()) + 2)
        self.assertEqual([s["id"] for s in specs], memplace.list_envs())
        # Every id on the default hardware; on the other models (the same code on other
        # numbers), one small workload each; suite v1's instances, one per kind.
        checked = [s for s in specs if s["suite"] is None and s["hardware"] in (None, "nnpi")
                   or s["workload"] in ("mobilenet-v2", "resnet18-b1")]
        self.assertEqual({s["hardware"] for s in checked} - {None}, set(memplace.list_hardware()))
        self.assertEqual(len([s for s in checked if s["suite"]]), 3)
        for spec in checked:
            with self.subTest(env=spec["id"]):
                self.assert_conforms(spec["id"])
        # Masked actions that take their fallback, in both masked kinds (Gymnasium's default).
        for kind in ("sequential", "malloc"):
            env_id = memplace.env_id(kind, "cm2" if kind == "malloc" else "cm1", "resnet18-b1",
                                     "edge-tpu")
            with self.subTest(env=env_id, masked_action="fallback"):
                self.assert_conforms(env_id, masked_action="fallback")

    def test_generic_ids_with_workload_and_hardware_files(self):
        chain, toy_hw = os.path.join(DATA, "chain.yaml"), os.path.join(DATA, "toy-hw.yaml")
        for env_id in ("memplace/single-step-v0", "memplace/sequential-v0"):
            for options in ({"workload": chain},
                            {"workload": chain, "hardware": toy_hw, "memory_time": "sum"},
                            {"workload": "bert-base", "hardware": "nnpi"}):
                with self.subTest(env=env_id, **options):
                    self.assert_conforms(env_id, **options)

    def test_non_default_options(self):
        self.assert_conforms("memplace/single-step/resnet101-v0", invalid="rectify",
                             reward="log-speedup")
        self.assert_conforms("memplace/single-step/resnet50-v0", reward="egrl")
        self.assert_conforms("memplace/sequential/resnet50-v0", order="msa", reward="terminal")

    def test_the_checker_finds_each_fault(self):
        faults = {
            NoisyReward: ("memplace/sequential/resnet50-v0", "different results"),
            NeverTerminates: ("memplace/sequential/resnet50-v0", "terminated is False"),
            ClipsActions: ("memplace/single-step/resnet50-v0", "out of range was accepted"),
            ScaledFeatures: ("memplace/sequential/resnet50-v0", "not inside observation_space"),
            NumpyReward: ("memplace/single-step/resnet50-v0", "not a finite float"),
        }
        for wrapper, (env_id, expected) in faults.items():
            with self.subTest(fault=wrapper.__name__):
                make = lambda: wrapper(memplace.make(env_id))  # noqa: E731
                problems = memplace.check_env(make(), make_fresh=make)
                self.assertTrue(any(expected in p for p in problems), problems)
        # The same wrapper without a fault passes.
        make = lambda: Wrapper(memplace.make("memplace/sequential/resnet50-v0"))  # noqa: E731
        self.assertEqual(memplace.check_env(make(), make_fresh=make), [])

    def test_static_arrays_are_shared_and_read_only(self):
        for env_id in ("memplace/sequential/resnet50-v0", "memplace/single-step/bert-base-v0"):
            env = memplace.make(env_id)
            obs, _ = env.reset(seed=3)
            nodes, edge_links = obs["nodes"], obs["edge_links"]
            for key, value in obs.items():
                self.assertFalse(value.flags.writeable, f"{key} must be read-only")
            for _ in range(env.episode_length):
                action = (env.action_space.sample(mask=obs["action_mask"])
                          if isinstance(env.action_space, memplace.spaces.Discrete)
                          else env.action_space.sample())
                obs, *_ = env.step(action)
                self.assertIs(obs["nodes"], nodes)
                self.assertIs(obs["edge_links"], edge_links)

    def test_numpy_and_list_actions_are_accepted(self):
        env = memplace.make("memplace/single-step/resnet50-v0")
        mapping = env.simulator.compiler_mapping()
        rewards = set()
        for action in (mapping, mapping.tolist(), tuple(mapping.tolist()),
                       mapping.astype(np.int16), mapping.reshape(57, 2)):
            env.reset(seed=0)
            rewards.add(env.step(action)[1])
        self.assertEqual(rewards, {0.0})
        seq = memplace.make("memplace/sequential/resnet50-v0")
        seq.reset(seed=0)
        for action in (np.int8(2), np.array(2), np.array([2]), [2]):
            seq.step(action)

    def test_options_change_the_env_and_are_reported(self):
        env = memplace.make("memplace/single-step/resnet50-v0", invalid="rectify",
                            reward="log-speedup")
        self.assertEqual(env.options["invalid"], "rectify")
        self.assertEqual(env.options["reward"], "log-speedup")
        env.reset(seed=1)
        # All-SRAM overflows and is rectified to a valid mapping, scored as log(speedup).
        _, reward, _, _, info = env.step([0] * env.action_space.shape[0])
        self.assertTrue(info["rectified"])
        self.assertAlmostEqual(reward, math.log(info["speedup"]), places=12)

    def test_close(self):
        env = memplace.make("memplace/sequential/resnet50-v0")
        env.close()
        env.close()  # idempotent
        with self.assertRaises(ValueError):
            env.reset(seed=1)
        with memplace.make("memplace/sequential/resnet50-v0") as env:
            env.reset(seed=1)
        self.assertTrue(env.closed)

    def test_reset_start(self):
        # From the mapping a random episode ends with: the same latency, and replaying that
        # mapping's memories changes nothing; moving tensors changes the speedup by the rewards.
        env = memplace.make("memplace/sequential/resnet50-v1")
        obs, info = env.reset(seed=3)
        rng = np.random.default_rng(3)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, done, _, end = env.step(action)
        start = list(env.mapping)
        obs, info = env.reset(options={"start": start})
        self.assertEqual(info["latency_fs"], end["latency_fs"])
        first = info["speedup"]
        total = 0.0
        for tensor in env.placement_order:
            obs, reward, done, _, info = env.step(start[tensor])
            total += reward
        self.assertTrue(done)
        self.assertEqual(list(env.mapping), start)
        self.assertAlmostEqual(total, 0.0, places=12)
        obs, info = env.reset(options={"start": start})
        total = 0.0
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            total += reward
        self.assertAlmostEqual(total, info["speedup"] - first, places=12)


if __name__ == "__main__":
    unittest.main()
