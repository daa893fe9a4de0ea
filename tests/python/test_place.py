"""memplace.place: a model placed by a trained policy from Python gives what `memplace place`
gives (the same figures and mapping, for an ONNX model memplace does not ship), writes a mapping
file `memplace evaluate` replays exactly, places with the chip's shipped policy when none is
given, and refuses a policy for another chip and misplaced arguments with a ValueError naming the
cause."""

import json
import os
import subprocess
import tempfile
import unittest

import memplace

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("MEMPLACE_BUILD_DIR", os.path.join(ROOT, "build", "default"))
MEMPLACE = os.path.join(BUILD, "apps", "memplace")
MODEL = os.path.join(ROOT, "workloads", "onnx", "bert-base-shaped.onnx")


def memplace_cli(*args):
    result = subprocess.run([MEMPLACE, *args], capture_output=True, text=True,
                            env=dict(os.environ, OMP_NUM_THREADS="1"))
    if result.returncode != 0:
        raise AssertionError(f"memplace {' '.join(args)}: {result.stderr}{result.stdout}")
    return result.stdout


class PlaceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        folder = os.path.join(cls.dir.name, "transfer")
        memplace_cli("transfer", "--agent", "ppo", "--train", "resnet50", "--to", "resnet50",
                     "--budget", "300", "--env-version", "v1", "--out", folder, "-q")
        cls.policy = os.path.join(folder, "policy.gnn")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_python_and_cli_agree_and_the_mapping_replays(self):
        dims = {"batch": 2, "sequence": 128}
        out = os.path.join(self.dir.name, "py")
        placed = memplace.place(MODEL, hardware="nnpi", policy=self.policy, out=out, dims=dims)
        cli = json.loads(memplace_cli(
            "place", MODEL, "--hardware", "nnpi", "--policy", self.policy, "--dim", "batch=2",
            "--dim", "sequence=128", "-o", os.path.join(self.dir.name, "cli"), "--json"))
        for key in ("speedup", "zero_shot_speedup", "zero_shot_valid", "zero_shot_demotions",
                    "all_fast_rectified_speedup", "bound_speedup", "latency_fs"):
            self.assertEqual(placed[key], cli[key], key)
        self.assertEqual(placed["policy_spec"],
                         "agent=ppo env_version=v1 hardware=nnpi features=observation")
        sim = memplace.Simulator(placed["workload_file"], "nnpi")
        self.assertEqual(len(placed["mapping"]), sim.num_tensors)
        with open(os.path.join(self.dir.name, "cli", "mapping.yaml")) as f:
            cli_mapping = f.read()
        with open(placed["mapping_file"]) as f:
            self.assertEqual(f.read(), cli_mapping)
        self.assertIn("reproduced exactly",
                      memplace_cli("evaluate", placed["workload_file"], placed["mapping_file"]))

    def test_the_shipped_policy_by_default(self):
        placed = memplace.place("resnet50", hardware="edge-tpu")
        self.assertEqual(placed["policy"], "the shipped policy ppo-edge-tpu")
        self.assertEqual(placed["policy_spec"],
                         "agent=ppo env_version=v1 hardware=edge-tpu features=observation")
        by_name = memplace.place("resnet50", hardware="edge-tpu", policy="ppo-edge-tpu")
        self.assertEqual(by_name["mapping"], placed["mapping"])

    def test_a_fine_tune_at_a_temperature_matches_the_cli(self):
        out = os.path.join(self.dir.name, "warm-py")
        placed = memplace.place("resnet50", hardware="nnpi", policy=self.policy, budget=64,
                                out=out, init_temperature=2)
        cli = json.loads(memplace_cli(
            "place", "resnet50", "--hardware", "nnpi", "--policy", self.policy, "--budget", "64",
            "--init-temperature", "2", "-o", os.path.join(self.dir.name, "warm-cli"), "--json",
            "-q"))
        self.assertEqual(placed["fine_tuned_speedup"], cli["fine_tuned_speedup"])
        with open(os.path.join(out, "fine-tune", "config.yaml")) as f:
            self.assertIn("init_temperature: 2\n", f.read())
        with self.assertRaisesRegex(ValueError, "init_temperature: must be in"):
            memplace.place("resnet50", hardware="nnpi", policy=self.policy, budget=8,
                           out=os.path.join(self.dir.name, "cold"), init_temperature=-1)

    def test_refusals_name_the_cause(self):
        with self.assertRaisesRegex(ValueError, "the model's chip is 'edge-tpu'"):
            memplace.place("resnet50", hardware="edge-tpu", policy=self.policy)
        with self.assertRaisesRegex(ValueError, "dims is for ONNX models"):
            memplace.place("resnet50", hardware="nnpi", policy=self.policy, dims={"batch": 2})
        with self.assertRaisesRegex(ValueError, "out: a folder is needed"):
            memplace.place("resnet50", hardware="nnpi", policy=self.policy, budget=10)
        with self.assertRaisesRegex(ValueError, "none.gnn"):
            memplace.place("resnet50", hardware="nnpi", policy=os.path.join(self.dir.name,
                                                                            "none.gnn"))
        # A refused request leaves no folder behind, nor the folders above it that it made.
        refused = os.path.join(self.dir.name, "refused")
        with self.assertRaisesRegex(ValueError, "the model's chip is 'edge-tpu'"):
            memplace.place("resnet50", hardware="edge-tpu", policy=self.policy,
                           out=os.path.join(refused, "deeper"))
        self.assertFalse(os.path.exists(refused))


if __name__ == "__main__":
    unittest.main()
