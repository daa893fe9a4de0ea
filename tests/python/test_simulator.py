"""Scripting the simulator: workloads, hardware, evaluation, references, rectification and mapping
files, checked against the environments and the CLI's conventions."""

import os
import tempfile
import unittest

import numpy as np

import memplace

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CHAIN = os.path.join(ROOT, "tests", "data", "good", "chain.yaml")


class SimulatorTest(unittest.TestCase):
    def setUp(self):
        self.sim = memplace.Simulator("resnet50")

    def test_workload_and_hardware(self):
        w = memplace.load_workload("resnet50")
        self.assertEqual(w.name, "resnet50")
        self.assertEqual(len(w), 57)
        self.assertEqual(len(w.layer_names), 57)
        self.assertEqual(w.layer(0)["name"], w.layer_names[0])
        self.assertEqual(memplace.Workload.from_yaml(w.to_yaml()).num_layers, 57)
        hw = memplace.load_hardware()
        self.assertEqual(hw.memory_names, ["SRAM", "LLC", "DRAM"])
        self.assertEqual(self.sim.num_tensors, 114)
        self.assertEqual(self.sim.num_memories, 3)
        self.assertIn("resnet50", memplace.list_workloads())
        self.assertEqual(memplace.paper_workloads(), ["resnet50", "resnet101", "bert-base"])

    def test_references_and_evaluation(self):
        refs = self.sim.references()
        compiler = self.sim.compiler_mapping()
        self.assertEqual(compiler.dtype, np.uint8)
        ev = self.sim.evaluate(compiler)
        self.assertTrue(ev.valid)
        self.assertEqual(ev.latency_fs, refs["compiler_fs"])
        self.assertEqual(self.sim.evaluate(self.sim.all_slowest_mapping()).latency_fs,
                         refs["all_slowest_fs"])
        self.assertLessEqual(refs["lower_bound_fs"], refs["compiler_fs"])
        self.assertEqual(int(ev.layer_fs.sum()), ev.latency_fs)  # latency is the sum over layers
        self.assertEqual(len(ev.peak_bytes), 3)

    def test_optimum(self):
        refs = self.sim.references()  # resnet50 ships a proven certificate
        self.assertEqual(refs["optimum_status"], "optimal")
        self.assertLessEqual(refs["optimum_fs"], refs["compiler_fs"])
        self.assertGreaterEqual(refs["optimum_fs"], refs["lower_bound_fs"])
        toy = memplace.Simulator(CHAIN, os.path.join(ROOT, "tests", "data", "good", "toy-hw.yaml"))
        self.assertIsNone(toy.references()["optimum_fs"])
        best = toy.optimum(time_limit_s=30)
        self.assertEqual(best["status"], "optimal")
        self.assertEqual(best["gap"], 0.0)
        ev = toy.evaluate(best["mapping"])
        self.assertTrue(ev.valid)
        self.assertEqual(ev.latency_fs, best["latency_fs"])
        self.assertLessEqual(best["latency_fs"], toy.references()["compiler_fs"])
        with self.assertRaises(ValueError):
            toy.optimum(time_limit_s=-1)

    def test_evaluation_agrees_with_the_env(self):
        env = memplace.make("memplace/single-step/resnet50-v0")
        env.reset(seed=1)
        mapping = env.simulator.compiler_mapping()
        _, reward, _, _, info = env.step(mapping)
        self.assertEqual(info["latency_fs"], self.sim.evaluate(mapping).latency_fs)
        self.assertEqual(info["speedup"], 1.0)
        self.assertEqual(reward, 0.0)  # speedup - 1 at parity with the compiler

    def test_rectify(self):
        all_fast = np.zeros(114, dtype=np.int64)
        self.assertFalse(self.sim.evaluate(all_fast).valid)
        mapping, demotions, valid = self.sim.rectify(all_fast)
        self.assertTrue(valid)
        self.assertGreater(demotions, 0)
        self.assertTrue(self.sim.evaluate(mapping).valid)

    def test_mapping_files_round_trip(self):
        mapping = self.sim.compiler_mapping()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.yaml")
            self.sim.save_mapping(path, mapping)
            np.testing.assert_array_equal(self.sim.load_mapping(path), mapping)

    def test_files_and_memory_time(self):
        sim = memplace.Simulator(CHAIN, "nnpi", memory_time="sum")
        self.assertEqual(sim.memory_time, "sum")
        self.assertEqual(sim.workload.name, memplace.load_workload(CHAIN).name)

    def test_streaming_dynamics(self):
        pinned = memplace.Simulator("bert-base")
        streaming = memplace.Simulator("bert-base", dynamics="streaming")
        self.assertEqual(streaming.dynamics, "streaming")
        mapping = pinned.compiler_mapping()
        # Never slower than pinned, and lookahead 0 is pinned exactly.
        self.assertLessEqual(streaming.evaluate(mapping).latency_fs,
                             pinned.evaluate(mapping).latency_fs)
        none = memplace.Simulator("bert-base", dynamics="streaming", lookahead=0)
        self.assertEqual(none.evaluate(mapping).latency_fs, pinned.evaluate(mapping).latency_fs)
        # Its compiler is the streaming-aware one, at least as fast as the pinned one under it.
        self.assertLessEqual(streaming.references()["compiler_fs"],
                             streaming.evaluate(mapping).latency_fs)
        self.assertIsNone(streaming.references()["optimum_fs"])
        # The MIP of the streaming relaxation: a bound under every mapping, a candidate mapping.
        small = memplace.Simulator("resnet50", dynamics="streaming")
        relaxed = small.optimum(time_limit_s=5)
        self.assertFalse(relaxed["exact"])
        self.assertLessEqual(relaxed["bound_fs"], relaxed["latency_fs"])
        self.assertEqual(small.evaluate(relaxed["mapping"]).latency_fs, relaxed["latency_fs"])
        lp = small.streaming_bound_fs()
        self.assertLessEqual(lp, small.references()["compiler_fs"])
        self.assertLessEqual(lp, relaxed["latency_fs"])
        # The headroom: every reference at once, the tightest bound under every one of them.
        room = small.headroom()
        self.assertEqual(room["compiler_fs"], small.references()["compiler_fs"])
        self.assertEqual(room["capacity_aware_bound_fs"], lp)
        self.assertEqual(room["bound_fs"], max(lp, small.references()["lower_bound_fs"]))
        self.assertLessEqual(room["bound_fs"], room["best_known_fs"])
        self.assertIsNone(room["optimum_fs"])
        self.assertIsNotNone(room["pinned_compiler_fs"])
        pinned_room = memplace.Simulator("resnet50").headroom()
        self.assertTrue(pinned_room["optimum_proven"])
        self.assertEqual(pinned_room["bound_fs"], pinned_room["optimum_fs"])
        self.assertIsNone(pinned_room["capacity_aware_bound_fs"])
        with self.assertRaisesRegex(ValueError, "needs a dynamics that runs a DMA, not pinned"):
            pinned.streaming_bound_fs()
        self.assertEqual(memplace.dynamics_names(), ["pinned", "streaming", "addressed"])
        with self.assertRaisesRegex(ValueError, "one of pinned, streaming, addressed, got 'lazy'"):
            memplace.Simulator("resnet50", dynamics="lazy")
        with self.assertRaises(ValueError):
            memplace.Simulator("resnet50", dynamics="streaming", lookahead=-1)

    def test_addressed_dynamics(self):
        # Cost model v2: v1 with addresses, never faster than v1 and valid only if v1-valid.
        streaming = memplace.Simulator("bert-base", dynamics="streaming")
        addressed = memplace.Simulator("bert-base", dynamics="addressed")
        self.assertEqual(addressed.dynamics, "addressed")
        compiler = addressed.compiler_mapping()
        v2 = addressed.evaluate(compiler)
        self.assertTrue(v2.valid)
        self.assertTrue(streaming.evaluate(compiler).valid)
        self.assertGreaterEqual(v2.latency_fs, streaming.evaluate(compiler).latency_fs)
        self.assertEqual(addressed.references()["compiler_fs"], v2.latency_fs)
        self.assertEqual(addressed.streaming_bound_fs(), streaming.streaming_bound_fs())

    def test_bad_input(self):
        for bad, error in (([0] * 113, ValueError), ([3] * 114, ValueError),
                           ([-1] * 114, ValueError), (np.zeros(114), TypeError),
                           ("SRAM", TypeError), (None, TypeError)):
            with self.assertRaises(error, msg=repr(bad)[:40]):
                self.sim.evaluate(bad)
        with self.assertRaisesRegex(ValueError, "mapping\\[5\\] = 7"):
            self.sim.evaluate([0] * 5 + [7] + [0] * 108)
        with self.assertRaises(ValueError):
            memplace.load_workload("no-such-workload")
        with self.assertRaisesRegex(ValueError, "bad.yaml:1"):
            memplace.Workload.from_yaml("layers: [1, 2", "bad.yaml")
        with self.assertRaises(ValueError):
            memplace.Simulator("resnet50", memory_time="fastest")
        with self.assertRaises(TypeError):
            memplace.Simulator(42)
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(ValueError):
                self.sim.load_mapping(os.path.join(d, "missing.yaml"))


if __name__ == "__main__":
    unittest.main()
