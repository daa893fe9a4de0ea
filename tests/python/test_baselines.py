"""The Python baselines of the leaderboard (python/baselines/, docs/leaderboard.md "Python
baselines"), each run as a suite run on one cell past its first policy update: stopped at the
budget, every evaluation recorded, the libraries it ran on in run.yaml. Each test needs its
libraries (torch for the CleanRL-style PPO; Gymnasium and Stable-Baselines3, sb3-contrib for
MaskablePPO) and says it skipped when they are not importable."""

import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

import memplace.suite

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python", "baselines"))
HAVE = {name: importlib.util.find_spec(name) is not None
        for name in ("gymnasium", "stable_baselines3", "sb3_contrib", "torch")}


def needs(*names):
    missing = [n for n in names if not HAVE[n]]
    return unittest.skipIf(missing, f"{', '.join(missing)} not importable (Debian packages no "
                                    "Gymnasium nor SB3; docs/python.md, \"The library set\")")


def read_fields(path):
    with open(path) as f:
        return dict(line.split(": ", 1) for line in f.read().splitlines()
                    if not line.startswith("#"))


class BaselinesTest(unittest.TestCase):
    def run_baseline(self, module_name, budget, **kwargs):
        module = importlib.import_module(module_name)
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        memplace.suite.run(module.agent, module_name.replace("_", "-"), out=out,
                           description="test", code="python/baselines", config="quick",
                           instances=["resnet18-b1@edge-tpu"], seeds=1, budget=budget,
                           hyperparameters=module.HYPERPARAMETERS, progress=False, **kwargs)
        run = os.path.join(out, "runs", f"{module_name.replace('_', '-')}-resnet18-b1@edge-tpu-s0")
        result = read_fields(os.path.join(run, "result.yaml"))
        self.assertEqual(result["evaluations"], str(budget))
        self.assertEqual(result["agent_status"],
                         f'"stopped at the budget of {budget} evaluations"')
        self.assertEqual(result["found_valid"], "true")
        return read_fields(os.path.join(run, "run.yaml"))

    @needs("torch")
    def test_cleanrl_style_ppo(self):
        import torch
        facts = self.run_baseline("cleanrl_ppo", 300)  # two updates of 128 steps, then stopped
        self.assertEqual(facts["library.torch"], f'"{torch.__version__}"')
        self.assertEqual(facts["api"], '"memplace"')

    @needs("torch", "gymnasium", "stable_baselines3")
    def test_stable_baselines3_ppo(self):
        facts = self.run_baseline("sb3_ppo", 2100, gymnasium=True)  # one update of 2048 steps
        self.assertIn("library.stable_baselines3", facts)
        self.assertEqual(facts["api"], '"gymnasium"')

    @needs("torch", "gymnasium", "stable_baselines3")
    def test_stable_baselines3_on_a_vector_env(self):
        from stable_baselines3 import PPO
        from stable_baselines3.common.vec_env import DummyVecEnv

        def agent(envs, budget, seed):  # SB3 counts a vector step as num_envs timesteps
            vec = DummyVecEnv([lambda e=e: e for e in envs])
            PPO("MultiInputPolicy", vec, n_steps=64, batch_size=64, seed=seed,
                device="cpu").learn(total_timesteps=budget)

        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        memplace.suite.run(agent, "sb3-ppo-vec", out=out, description="test", code="test",
                           instances=["resnet18-b1@edge-tpu"], seeds=1, budget=300, num_envs=4,
                           gymnasium=True, progress=False)
        run = os.path.join(out, "runs", "sb3-ppo-vec-resnet18-b1@edge-tpu-s0")
        result = read_fields(os.path.join(run, "result.yaml"))
        # 300 is not a multiple of 4 x 64: the budget stops the second rollout inside a vector step.
        self.assertEqual(result["evaluations"], "300")
        self.assertEqual(result["agent_status"], '"stopped at the budget of 300 evaluations"')
        self.assertEqual(read_fields(os.path.join(run, "run.yaml"))["num_envs"], '"4"')

    @needs("torch", "gymnasium", "stable_baselines3", "sb3_contrib")
    def test_maskable_ppo(self):
        facts = self.run_baseline("sb3_maskable_ppo", 2100, gymnasium=True)
        self.assertIn("library.sb3_contrib", facts)


if __name__ == "__main__":
    unittest.main()
