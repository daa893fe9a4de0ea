"""Bad input from Python raises ValueError or TypeError with the C++ message, never crashes; and
memplace.gymnasium registers every env under an id Gymnasium accepts (checked with a stand-in
gymnasium module: Debian bookworm does not package Gymnasium)."""

import enum
import re
import sys
import types
import unittest

import numpy as np

import memplace
import memplace.gymnasium

SEQ = "memplace/sequential/resnet50-v0"


class ErrorTest(unittest.TestCase):
    def test_make(self):
        with self.assertRaisesRegex(ValueError, "unknown environment .*resnet5-v0"):
            memplace.make("memplace/sequential/resnet5-v0")
        with self.assertRaisesRegex(ValueError, "order"):
            memplace.make(SEQ, order="random")
        with self.assertRaisesRegex(ValueError, "colour"):
            memplace.make(SEQ, colour="red")
        with self.assertRaises(TypeError):
            memplace.make(SEQ, order=["msa"])
        with self.assertRaises(ValueError):
            memplace.make("memplace/sequential-v0", workload="/no/such/file.yaml")
        self.assertTrue(issubclass(memplace.InputError, ValueError))

    def test_reset_arguments(self):
        env = memplace.make(SEQ)
        for seed, error in ((-1, ValueError), (2**64, ValueError), (1.5, TypeError),
                            ("1", TypeError), (True, TypeError)):
            with self.assertRaises(error, msg=repr(seed)):
                env.reset(seed=seed)
        env.reset(seed=np.uint64(2**64 - 1))  # the whole range is accepted
        with self.assertRaises(ValueError):
            env.reset(seed=1, options={"order": "msa"})
        with self.assertRaises(TypeError):
            env.reset(seed=1, options=[1])
        env.reset(seed=1, options={})

    def test_reset_start(self):
        env = memplace.make(SEQ)
        env.reset(seed=0)
        n = len(env.mapping)
        with self.assertRaisesRegex(ValueError, "needs %d memories, one per tensor; got 2" % n):
            env.reset(options={"start": [0, 1]})
        with self.assertRaisesRegex(ValueError, "tensor 0 has memory 7"):
            env.reset(options={"start": [7] * n})
        with self.assertRaisesRegex(ValueError, "does not fit"):
            env.reset(options={"start": [0] * n})  # everything in SRAM
        with self.assertRaisesRegex(ValueError, "after the episode ended"):
            env.step(2)
        with self.assertRaises(TypeError):
            env.reset(options={"start": "2" * n})
        with self.assertRaisesRegex(ValueError, "only the option 'start'"):
            env.reset(options={"begin": [2] * n})
        single = memplace.make("memplace/single-step/resnet50-v0")
        with self.assertRaisesRegex(ValueError, "takes no options"):
            single.reset(options={"start": [2] * n})

    def test_masked_action_raises_and_changes_nothing(self):
        # Fill the fastest memory until the mask forbids it, then try to use it anyway.
        env = memplace.make(SEQ)
        obs, _ = env.reset(seed=0)
        steps = 0
        while obs["action_mask"][0] == 1:
            obs, *_ = env.step(0)
            steps += 1
        with self.assertRaisesRegex(ValueError, "masked"):
            env.step(0)
        obs2, *_ = env.step(2)  # the episode goes on from where it was
        replay = memplace.make(SEQ)
        replay.reset(seed=0)
        for _ in range(steps):
            replay.step(0)
        np.testing.assert_array_equal(replay.step(2)[0]["node_state"], obs2["node_state"])

    def test_observations_are_read_only(self):
        obs, _ = memplace.make(SEQ).reset(seed=0)
        with self.assertRaises(ValueError):
            obs["nodes"][0, 0] = 1.0
        with self.assertRaises(ValueError):
            obs["action_mask"][0] = 0


class FakeGymnasium:
    """Gymnasium 1.x's registration contract, as its registration module implements it: register()
    with entry_point, vector_entry_point and kwargs; make() calls entry_point(**kwargs, **given),
    render_mode included when given; make_vec() calls vector_entry_point(num_envs=n, **kwargs,
    **given) and expects metadata["autoreset_mode"] to be an AutoresetMode; both set
    env.unwrapped.spec. Env, vector.VectorEnv, vector.utils.batch_space and spaces are stand-ins."""

    def __enter__(self):
        gym = types.ModuleType("gymnasium")
        gym.registry = {}

        def register(id, entry_point, vector_entry_point=None, kwargs=None):
            gym.registry[id] = types.SimpleNamespace(id=id, entry_point=entry_point,
                                                     vector_entry_point=vector_entry_point,
                                                     kwargs=dict(kwargs or {}))

        def make(id, **given):
            spec = gym.registry[id]
            env = spec.entry_point(**{**spec.kwargs, **given})
            env.unwrapped.spec = spec
            return env

        def make_vec(id, num_envs=1, **given):
            spec = gym.registry[id]
            env = spec.vector_entry_point(num_envs=num_envs, **{**spec.kwargs, **given})
            if not isinstance(env.metadata.get("autoreset_mode"), gym.vector.AutoresetMode):
                raise AssertionError("metadata['autoreset_mode'] is not an AutoresetMode")
            env.unwrapped.spec = spec
            return env

        class Env:
            @property
            def unwrapped(self):
                return self

            def reset(self, *, seed=None, options=None):
                self.seeded = seed

        vector = types.ModuleType("gymnasium.vector")

        class VectorEnv:
            @property
            def unwrapped(self):
                return self

        class AutoresetMode(enum.Enum):
            NEXT_STEP = "NextStep"
            SAME_STEP = "SameStep"
            DISABLED = "Disabled"

        vector.VectorEnv, vector.AutoresetMode = VectorEnv, AutoresetMode
        vector.utils = types.SimpleNamespace(batch_space=lambda space, n: ("batched", space, n))
        gym.register, gym.make, gym.make_vec, gym.Env, gym.vector = (
            register, make, make_vec, Env, vector)
        spaces = types.ModuleType("gymnasium.spaces")
        for name in ("Discrete", "MultiDiscrete", "Box", "MultiBinary", "Dict"):
            setattr(spaces, name, type(name, (), {"__init__": lambda self, *a, **k: None}))
        gym.spaces = spaces
        self.saved = sys.modules.get("gymnasium")
        sys.modules["gymnasium"] = gym
        return gym

    def __exit__(self, *exc):
        if self.saved is None:
            del sys.modules["gymnasium"]
        else:
            sys.modules["gymnasium"] = self.saved


class GymnasiumTest(unittest.TestCase):
    # Gymnasium's id format: [namespace/](name)[-v(version)], no "/" inside the name.
    ID = re.compile(r"^(?:(?P<namespace>[\w:.-]+)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$")

    def test_register_all(self):
        with FakeGymnasium() as gym:
            ids = memplace.gymnasium.register_all()
        self.assertEqual(len(ids), len(memplace.list_envs()))
        self.assertEqual(set(ids), set(gym.registry))
        for gym_id in ids:
            match = self.ID.match(gym_id)
            self.assertIsNotNone(match, gym_id)
            self.assertEqual(match["namespace"], "memplace")
            self.assertIn(match["version"], ("0", "1", "2"))
        self.assertIn("memplace/sequential-resnet50-v0", ids)
        self.assertIn("memplace/sequential-resnet50-v1", ids)
        self.assertIn("memplace/single-step-resnet50-v2", ids)
        self.assertIn("memplace/single-step-bert-base-on-edge-tpu-v1", ids)
        on_edge = gym.registry["memplace/single-step-bert-base-on-edge-tpu-v1"].kwargs
        self.assertEqual(on_edge, {"memplace_id": "memplace/single-step/bert-base@edge-tpu-v1"})
        with FakeGymnasium() as gym:
            memplace.gymnasium.register_all()
            env = gym.make("memplace/single-step-resnet50-v0", invalid="rectify", render_mode=None)
            with self.assertRaisesRegex(ValueError, "no render modes"):
                gym.make("memplace/single-step-resnet50-v0", render_mode="human")
        obs, _ = env.reset(seed=3)
        self.assertEqual(env.seeded, 3)
        _, _, terminated, _, info = env.step(np.zeros(114, dtype=np.int64))
        self.assertTrue(terminated)
        self.assertTrue(info["rectified"])

    def test_make_vec_gives_the_cpp_vector_env(self):
        with FakeGymnasium() as gym:
            memplace.gymnasium.register_all()
            envs = gym.make_vec("memplace/sequential-resnet50-v0", num_envs=3, render_mode=None)
            with self.assertRaisesRegex(ValueError, "no render modes"):
                gym.make_vec("memplace/sequential-resnet50-v0", render_mode="rgb_array")
            autoreset = gym.vector.AutoresetMode.NEXT_STEP
        self.assertIsInstance(envs.envs, memplace.VectorEnv)  # not copies stepped in Python
        self.assertEqual(envs.metadata["autoreset_mode"], autoreset)
        self.assertEqual(envs.num_envs, 3)
        self.assertEqual(envs.action_space[2], 3)  # batch_space(single, num_envs)
        obs, infos = envs.reset(seed=[5, 6, 7])
        same, _ = memplace.make_vec("memplace/sequential/resnet50-v0", 3).reset(seed=5)
        np.testing.assert_array_equal(obs["node_state"], same["node_state"])
        with self.assertRaisesRegex(ValueError, "seed \\+ i"):
            envs.reset(seed=[5, 9, 1])
        sampler = memplace.spaces.MultiDiscrete([3] * 3, seed=2)
        ends = 0
        for _ in range(envs.envs.episode_length + 2):  # across an episode end
            obs, rewards, terminated, truncated, infos = envs.step(
                sampler.sample(mask=obs["action_mask"]))
            ends += int(terminated.sum())
            for key in ("speedup", "valid", "step"):
                self.assertTrue(infos["_" + key].all())
                self.assertEqual(infos[key].shape, (3,))
        self.assertEqual(ends, 3)
        envs.close()

    def test_without_gymnasium(self):
        saved = sys.modules.get("gymnasium")
        sys.modules["gymnasium"] = None  # makes `import gymnasium` fail
        try:
            with self.assertRaisesRegex(ImportError, "gymnasium"):
                memplace.gymnasium.register_all()
        finally:
            if saved is None:
                del sys.modules["gymnasium"]
            else:
                sys.modules["gymnasium"] = saved


if __name__ == "__main__":
    unittest.main()
