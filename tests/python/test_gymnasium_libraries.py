"""The door for Python agents with the real libraries, when they are importable (Debian has none
of them: docs/python.md, "The library set", puts them on PYTHONPATH; without them every test here
says it skipped and why): Gymnasium's own check_env on every listed id — suite instances of every
kind included —, Stable-Baselines3's check_env with its warnings as errors, and docs/python.md's
snippets for Stable-Baselines3, MaskablePPO and a CleanRL-style loop, run as they are."""

import importlib.util
import os
import re
import unittest
import warnings

import memplace
import memplace.gymnasium  # noqa: F401 - at the top, as docs/python.md says: spawned workers too

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HAVE = {name: importlib.util.find_spec(name) is not None
        for name in ("gymnasium", "stable_baselines3", "sb3_contrib", "torch")}
KINDS = ("memplace/single-step-resnet18-b1-on-edge-tpu-cm1-v0",
         "memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0",
         "memplace/malloc-resnet18-b1-on-edge-tpu-cm2-v0")


def needs(*names):
    missing = [n for n in names if not HAVE[n]]
    return unittest.skipIf(missing, f"{', '.join(missing)} not importable (Debian packages none of "
                                    "them; docs/python.md, \"The library set\")")


def readme_snippet():
    """The README's Python snippet that uses sb3-contrib."""
    with open(os.path.join(ROOT, "README.md")) as f:
        return next(b for b in re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
                    if "sb3_contrib" in b)


def snippets():
    """docs/python.md's Python snippets of the section on Stable-Baselines3 / MaskablePPO /
    CleanRL, in order."""
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        text = f.read()
    section = text.split("## From Stable-Baselines3 / MaskablePPO / CleanRL")[1].split("\n## ")[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


@needs("gymnasium")
class GymnasiumCheckerTest(unittest.TestCase):
    def test_gymnasiums_check_env_on_every_listed_id(self):
        import gymnasium
        from gymnasium.utils.env_checker import check_env

        import memplace.gymnasium  # noqa: F401 - registers

        failed = []
        for env_id in memplace.list_envs():
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a warning of the checker is a failure here
                try:
                    env = gymnasium.make(env_id, disable_env_checker=True)
                    check_env(env.unwrapped, skip_render_check=True)
                except Exception as e:  # noqa: BLE001 - collected, all reported
                    failed.append(f"{env_id}: {type(e).__name__}: {e}")
        self.assertEqual(failed, [])

    def test_the_old_ids_and_an_unversioned_id(self):
        import gymnasium

        import memplace.gymnasium  # noqa: F401

        with self.assertWarnsRegex(DeprecationWarning,
                                   "memplace/sequential-resnet50-on-nnpi-cm1-v0"):
            gymnasium.make("memplace/sequential-resnet50-v1")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            env = gymnasium.make("memplace/sequential-resnet50-on-nnpi-cm1")
        self.assertEqual(env.unwrapped.env.id, "memplace/sequential-resnet50-on-nnpi-cm1-v0")
        self.assertFalse([w for w in caught if "out of date" in str(w.message)])


@needs("gymnasium", "stable_baselines3", "torch")
class StableBaselinesTest(unittest.TestCase):
    def test_sb3s_check_env_without_warnings(self):
        import gymnasium
        from stable_baselines3.common.env_checker import check_env

        import memplace.gymnasium  # noqa: F401

        for env_id in KINDS:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                check_env(gymnasium.make(env_id, disable_env_checker=True))

    def test_the_first_commands(self):
        from stable_baselines3 import PPO
        from stable_baselines3.common.env_util import make_vec_env

        import memplace.gymnasium  # noqa: F401

        for env_id in KINDS:
            envs = make_vec_env(env_id, n_envs=2, seed=0)
            PPO("MultiInputPolicy", envs, n_steps=32, batch_size=32, seed=0).learn(64)
        PPO("MultiInputPolicy", KINDS[1], n_steps=32, batch_size=32, seed=0).learn(32)

    def test_spawned_workers_find_the_ids(self):
        # SubprocVecEnv's workers start afresh and import this module again (its top-level
        # import registers the ids there): no line for them in a user's script.
        from stable_baselines3.common.env_util import make_vec_env
        from stable_baselines3.common.vec_env import SubprocVecEnv

        envs = make_vec_env(KINDS[1], n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                            vec_env_kwargs={"start_method": "spawn"})
        try:
            envs.reset()
            obs, rewards, dones, infos = envs.step([0, 1])
            self.assertEqual(obs["node_state"].shape[0], 2)
            self.assertEqual(len(envs.env_method("action_masks")), 2)
        finally:
            envs.close()

    def test_the_snippet_for_stable_baselines3(self):
        exec(snippets()[0], {})


@needs("gymnasium", "sb3_contrib", "torch")
class MaskablePPOTest(unittest.TestCase):
    def test_maskable_ppo_on_every_kind(self):
        import gymnasium
        from sb3_contrib import MaskablePPO

        import memplace.gymnasium  # noqa: F401

        for env_id in KINDS:
            env = gymnasium.make(env_id)
            MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=0).learn(32)

    def test_the_snippet_for_maskable_ppo(self):
        exec(snippets()[1], {})

    def test_the_readmes_snippet(self):
        exec(readme_snippet(), {})


@needs("gymnasium", "torch")
class CleanRLStyleTest(unittest.TestCase):
    def test_the_snippet_for_a_policy_of_ones_own(self):
        exec(snippets()[2], {})


if __name__ == "__main__":
    unittest.main()
