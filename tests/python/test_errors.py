"""Bad input from Python raises ValueError or TypeError with the C++ message, never crashes
(Gymnasium's registration: tests/python/test_gymnasium.py)."""

import unittest

import numpy as np

import memplace

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


if __name__ == "__main__":
    unittest.main()
