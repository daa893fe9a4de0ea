"""memplace.gymnasium against Gymnasium's registration contract, with a stand-in gymnasium module
(Debian bookworm packages no Gymnasium, so CI has none): every listed id registered as it is, the
old ids with a deprecation naming the new one, the Gymnasium defaults (masked actions fall back,
flat observations), render modes as Gymnasium handles them, action_masks(), pickling, the vector
env. tests/python/test_gymnasium_libraries.py runs the real Gymnasium, SB3 and sb3-contrib when
they are importable."""

import pickle
import re
import sys
import types
import unittest
import warnings

import numpy as np

import memplace
import memplace.gymnasium

GRID = "memplace/malloc-resnet50-on-nnpi-cm2-v0"
SEQUENTIAL = "memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0"
SINGLE = "memplace/single-step-resnet50-on-nnpi-cm1-v0"
# Gymnasium's id format: [namespace/](name)[-v(version)], no "/" inside the name.
GYMNASIUM_ID = re.compile(
    r"^(?:(?P<namespace>[\w:.-]+)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$")


class StandInGymnasium:
    """Gymnasium 1.x's registration contract, as its registration module implements it:
    register() with entry_point, vector_entry_point and kwargs (an id registered twice is an
    error here, so registering once is checked); make() calls entry_point(**kwargs, **given);
    make_vec() calls vector_entry_point(num_envs=n, **kwargs, **given). Env seeds np_random in
    reset(seed=...) as gymnasium.Env does; spaces are memplace.spaces (the same constructors);
    `autoreset` False leaves out vector.AutoresetMode, as Gymnasium 1.0 has none."""

    def __init__(self, autoreset=True):
        self.autoreset = autoreset

    def __enter__(self):
        gym = types.ModuleType("gymnasium")
        gym.registry = {}

        def register(id, entry_point, vector_entry_point=None, kwargs=None):
            if id in gym.registry:
                raise AssertionError(f"{id} registered twice")
            gym.registry[id] = types.SimpleNamespace(id=id, entry_point=entry_point,
                                                     vector_entry_point=vector_entry_point,
                                                     kwargs=dict(kwargs or {}))

        def make(id, **given):
            spec = gym.registry[id]
            return spec.entry_point(**{**spec.kwargs, **given})

        def make_vec(id, num_envs=1, **given):
            spec = gym.registry[id]
            return spec.vector_entry_point(num_envs=num_envs, **{**spec.kwargs, **given})

        class Env:
            _np_random = None

            @property
            def unwrapped(self):
                return self

            @property
            def np_random(self):
                return self._np_random

            def reset(self, *, seed=None, options=None):
                if seed is not None:
                    self._np_random = np.random.default_rng(seed)

        vector = types.ModuleType("gymnasium.vector")

        class VectorEnv:
            @property
            def unwrapped(self):
                return self

        vector.VectorEnv = VectorEnv
        if self.autoreset:
            vector.AutoresetMode = types.SimpleNamespace(NEXT_STEP="NextStep")

        vector.utils = types.SimpleNamespace(batch_space=lambda space, n: ("batched", space, n))
        gym.register, gym.make, gym.make_vec, gym.Env, gym.vector = (
            register, make, make_vec, Env, vector)
        gym.spaces = memplace.spaces
        gym.utils = types.SimpleNamespace(seeding=types.SimpleNamespace(
            np_random=lambda seed: (np.random.default_rng(seed), seed)))
        self.saved = sys.modules.get("gymnasium")
        sys.modules["gymnasium"] = gym
        memplace.gymnasium.register_all()
        return gym

    def __exit__(self, *exc):
        if self.saved is None:
            del sys.modules["gymnasium"]
        else:
            sys.modules["gymnasium"] = self.saved


def play(env, steps, seed=0):
    """Resets and takes `steps` allowed actions drawn from a seeded space; returns the last step."""
    env.action_space.seed(seed)
    obs, info = env.reset(seed=seed)
    result = (obs, 0.0, False, False, info)
    for _ in range(steps):
        result = env.step(env.action_space.sample(mask=env.action_masks().astype(np.int8)))
    return result


class RegistrationTest(unittest.TestCase):
    def test_every_listed_id_is_registered_as_it_is_and_reads_as_revision_0(self):
        with StandInGymnasium() as gym:
            ids = memplace.gymnasium.register_all()
            self.assertEqual(ids, memplace.list_envs())
            self.assertEqual(memplace.gymnasium.register_all(), ids)  # once per registry
        names = set()
        for env_id in ids:
            match = GYMNASIUM_ID.match(env_id)
            self.assertIsNotNone(match, env_id)
            self.assertEqual((match["namespace"], match["version"]), ("memplace", "0"), env_id)
            names.add(match["name"])
        # One version per name: no cost model is a revision of another.
        self.assertEqual(len(names), len(ids))
        self.assertIn(SEQUENTIAL, ids)
        suite = [s for s in memplace.env_specs() if s["suite"] == "v1"]
        self.assertEqual(len(suite), 3 * 37)
        self.assertEqual(len(set(gym.registry)), len(ids) + len(ids) - len(suite))

    def test_the_old_ids_warn_with_the_new_one(self):
        with StandInGymnasium() as gym:
            for old, new in (("memplace/sequential-resnet50-v1",
                              "memplace/sequential-resnet50-on-nnpi-cm1-v0"),
                             ("memplace/single-step-bert-base-on-edge-tpu-v2",
                              "memplace/single-step-bert-base-on-edge-tpu-cm2-v0"),
                             ("memplace/malloc-v2", "memplace/malloc-cm2-v0")):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    env = gym.make(old)
                self.assertEqual([str(w.message).split(" is deprecated: it is ")
                                  for w in caught if w.category is DeprecationWarning][0][1][:len(new)],
                                 new)
                self.assertEqual(env.env.id, new)

    def test_every_old_id_still_makes_its_environment(self):
        with StandInGymnasium() as gym:
            for spec in memplace.env_specs():
                if spec["suite"] is not None:
                    continue  # never had an old id
                old = memplace.gymnasium.legacy_gymnasium_id(spec["path_id"])
                with self.subTest(old=old):
                    self.assertEqual(gym.registry[old].kwargs, {"memplace_id": spec["id"]})
                    # memplace.make takes the path id itself, with the same options (the short
                    # ids on nnpi leave the hardware open).
                    options = {o["name"] for o in memplace.env_options(spec["path_id"])}
                    self.assertLessEqual({o["name"] for o in memplace.env_options(spec["id"])},
                                         options)
            # Made, one of each kind: the new environment, and the same one by its path id.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                for old, path_id, new in (
                        ("memplace/sequential-mobilenet-v2-on-edge-tpu-v0",
                         "memplace/sequential/mobilenet-v2@edge-tpu-v0",
                         "memplace/sequential-mobilenet-v2-on-edge-tpu-cm0-v0"),
                        ("memplace/single-step-resnet50-v1", "memplace/single-step/resnet50-v1",
                         "memplace/single-step-resnet50-on-nnpi-cm1-v0"),
                        ("memplace/malloc-mobilenet-v2-v2", "memplace/malloc/mobilenet-v2-v2",
                         "memplace/malloc-mobilenet-v2-on-nnpi-cm2-v0")):
                    self.assertEqual(gym.make(old).env.id, new)
                    self.assertEqual(memplace.make(path_id).options, memplace.make(new).options)

    def test_the_gymnasium_defaults_and_any_option_passing_through(self):
        with StandInGymnasium() as gym:
            env = gym.make(SEQUENTIAL)
            self.assertEqual(env.env.options["masked_action"], "fallback")
            raising = gym.make(SEQUENTIAL, masked_action="raise", order="msa")
            self.assertEqual((raising.env.options["masked_action"], raising.env.options["order"]),
                             ("raise", "msa"))
            # The single-step env has no masked_action option: none is added.
            self.assertNotIn("masked_action", gym.make(SINGLE).env.options)
            with self.assertRaisesRegex(ValueError, "observation='image'"):
                gym.make(SEQUENTIAL, observation="image")

    def test_render_modes_as_gymnasium_handles_them(self):
        # Gymnasium's make warns about a mode the env lacks and passes it on; SB3 asks for
        # rgb_array. The env keeps it and renders nothing.
        with StandInGymnasium() as gym:
            env = gym.make(SEQUENTIAL, render_mode="rgb_array")
            self.assertEqual(env.render_mode, "rgb_array")
            self.assertIsNone(env.render())
            self.assertEqual(env.metadata["render_modes"], [])
            vec = gym.make_vec(SEQUENTIAL, num_envs=2, render_mode="human")
            self.assertEqual(vec.render_mode, "human")


class ObservationTest(unittest.TestCase):
    def test_flat_observations_are_the_graph_arrays_flattened(self):
        with StandInGymnasium() as gym:
            flat, graph = gym.make(GRID), gym.make(GRID, observation="graph")
        direct = memplace.make("memplace/malloc/resnet50-v2")
        obs, gobs, dobs = (play(env, 5)[0] for env in (flat, graph, direct))
        for key in dobs:
            np.testing.assert_array_equal(gobs[key], dobs[key])
        self.assertEqual(set(obs), {"nodes", "edge_index", "node_state", "action_mask",
                                    "occupancy"})
        for key, value in obs.items():
            self.assertEqual(value.ndim, 1, key)
            self.assertEqual(value.dtype, np.int8 if key == "action_mask" else np.float32, key)
            self.assertIn(value, flat.observation_space[key], key)
        np.testing.assert_array_equal(obs["nodes"], dobs["nodes"].reshape(-1))
        np.testing.assert_array_equal(obs["node_state"], dobs["node_state"].reshape(-1))
        np.testing.assert_array_equal(obs["occupancy"], dobs["occupancy"].reshape(-1))
        # edge_index: PyTorch Geometric's (2, E), sources then targets.
        np.testing.assert_array_equal(obs["edge_index"].reshape(2, -1), dobs["edge_links"].T)
        np.testing.assert_array_equal(direct.edge_index, dobs["edge_links"].T)
        self.assertEqual(direct.edge_index.dtype, np.int64)
        self.assertIn(gobs, graph.observation_space)

    def test_flat_batches_of_the_vector_env(self):
        with StandInGymnasium() as gym:
            vec = gym.make_vec(SEQUENTIAL, num_envs=3)
        obs, _ = vec.reset(seed=4)
        one, _ = memplace.make_vec(SEQUENTIAL, 3).reset(seed=4)
        self.assertEqual(obs["node_state"].shape, (3, one["node_state"][0].size))
        np.testing.assert_array_equal(obs["node_state"], one["node_state"].reshape(3, -1))
        np.testing.assert_array_equal(obs["nodes"][2], one["nodes"][2].reshape(-1))
        self.assertEqual(obs["edge_index"].shape, (3, 2 * one["edge_links"].shape[1]))
        self.assertEqual(vec.single_observation_space["nodes"].shape, obs["nodes"].shape[1:])


class MaskTest(unittest.TestCase):
    def test_a_masked_action_takes_its_fallback_under_gymnasium(self):
        with StandInGymnasium() as gym:
            env, direct = gym.make(SEQUENTIAL), gym.make(SEQUENTIAL)
        env.reset(seed=1)
        direct.reset(seed=1)
        for _ in range(env.env.episode_length):
            mask = env.action_masks()
            masked = np.flatnonzero(~mask)
            if masked.size:
                break
            env.step(0)
            direct.step(0)
        self.assertTrue(masked.size, "no step of the episode masks a memory")
        taken = memplace.checker.fallback_action(mask, int(masked[0]))
        a = env.step(int(masked[0]))
        b = direct.step(taken)
        self.assertIs(a[4]["replaced_action"], True)
        self.assertNotIn("replaced_action", b[4])  # only at a step that took a fallback
        for key in a[0]:
            np.testing.assert_array_equal(a[0][key], b[0][key])
        self.assertEqual(a[1], b[1])

    def test_action_masks_of_every_kind(self):
        for env_id, size in ((SINGLE, 114 * 3), (SEQUENTIAL, 2), (GRID, 1 + 4 * 2)):
            env = memplace.make(env_id)
            obs, _ = env.reset(seed=0)
            masks = env.action_masks()
            self.assertEqual((masks.dtype, masks.shape), (np.bool_, (size,)), env_id)
            np.testing.assert_array_equal(masks, obs["action_mask"] != 0)

    def test_a_vector_env_never_gives_an_all_false_row(self):
        envs = memplace.make_vec(SEQUENTIAL, 3, seed=0)
        obs, _ = envs.reset()
        sampler = memplace.spaces.MultiDiscrete([2] * 3, seed=5)
        ended = False
        for _ in range(envs.episode_length + 1):
            masks = envs.action_masks()
            self.assertTrue(masks.any(axis=1).all())
            obs, _, terminated, _, _ = envs.step(sampler.sample(mask=masks.astype(np.int8)))
            if terminated.any():
                ended = True
                self.assertFalse(obs["action_mask"][terminated].any())  # the terminal mask
                self.assertTrue(envs.action_masks()[terminated].all())
                self.assertEqual([t is None for t in envs.current_tensor], list(terminated))
        self.assertTrue(ended)
        self.assertIsInstance(envs.simulator, memplace.Simulator)
        self.assertEqual(len(envs.mapping(2)), envs.simulator.num_tensors)
        with self.assertRaises(IndexError):
            envs.mapping(3)


class PickleTest(unittest.TestCase):
    def test_a_pickled_env_goes_on_as_the_original(self):
        with StandInGymnasium() as gym:
            env = gym.make(SEQUENTIAL)
            play(env, 7)
            copy = pickle.loads(pickle.dumps(env))
            fresh = pickle.loads(pickle.dumps(gym.make(SEQUENTIAL)))
        for action in (1, 0, 1):
            a, b = env.step(action), copy.step(action)
            for key in a[0]:
                np.testing.assert_array_equal(a[0][key], b[0][key])
            self.assertEqual(a[1:], b[1:])
        self.assertEqual(env.np_random.random(), copy.np_random.random())
        with self.assertRaisesRegex(ValueError, "no episode running"):
            fresh.step(0)


class WithoutGymnasiumTest(unittest.TestCase):
    def test_register_all_says_what_is_missing(self):
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

    def test_vector_env_without_autoreset_mode(self):
        with StandInGymnasium(autoreset=False) as gym:
            vec = gym.make_vec(SEQUENTIAL, num_envs=2)
        self.assertNotIn("autoreset_mode", vec.metadata)
        vec.reset(seed=0)


if __name__ == "__main__":
    unittest.main()
