"""python/examples/reinforce_torch.py, as a smoke test with a small budget: the REINFORCE agent's
mean speedup over the last 10 % of its episodes is above that of its first 10 %."""

import importlib.util
import json
import os
import tempfile
import unittest

import torch

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "python", "examples",
                       "reinforce_torch.py")


def load_example():
    spec = importlib.util.spec_from_file_location("reinforce_torch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ReinforceExampleTest(unittest.TestCase):
    def test_improves_over_its_first_tenth(self):
        torch.set_num_threads(1)
        example = load_example()
        for seed in (0, 1):
            history = example.train(episodes=1280, batch=32, seed=seed, log=None)
            first, last = example.improvement(history)
            self.assertEqual(len(history["scores"]), 1280)
            self.assertGreater(last, first + 0.1, f"seed {seed}: {first:.4f} -> {last:.4f}")

    def test_command_line(self):
        example = load_example()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "summary.json")
            self.assertEqual(example.main(["--episodes", "320", "--json", path]), 0)
            with open(path) as f:
                summary = json.load(f)
        self.assertEqual(set(summary), {"first_tenth", "last_tenth", "best_speedup"})
        self.assertGreater(summary["best_speedup"], 0.0)
        with self.assertRaises(SystemExit):
            example.main(["--batch", "1"])
        with self.assertRaises(SystemExit):
            example.main(["--lr", "0"])
        self.assertEqual(example.main(["--env", "memplace/single-step/nope-v0"]), 2)


if __name__ == "__main__":
    unittest.main()
