"""memplace.spaces: membership and sampling on hand-checked cases, seeded determinism, and masks."""

import unittest

import numpy as np

from memplace import Rng
from memplace.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete


class DiscreteTest(unittest.TestCase):
    def test_contains(self):
        space = Discrete(3)
        for value in (0, 2, np.int64(1), np.int8(2), np.array(1)):
            self.assertIn(value, space)
        for value in (3, -1, 1.0, "1", None, True, np.array([1]), np.float32(1)):
            self.assertNotIn(value, space)
        self.assertEqual(space.shape, ())
        self.assertEqual(space.n, 3)

    def test_masked_samples_stay_in_the_mask(self):
        space = Discrete(4, seed=1)
        mask = np.array([0, 1, 0, 1], dtype=np.int8)
        draws = {space.sample(mask=mask) for _ in range(200)}
        self.assertEqual(draws, {1, 3})
        self.assertEqual({space.sample(mask=np.array([0, 0, 1, 0], dtype=np.uint8))}, {2})
        self.assertEqual({space.sample(mask=np.array([0, 0, 0, 1], dtype=bool))}, {3})

    def test_bad_masks_raise(self):
        space = Discrete(3, seed=1)
        with self.assertRaises(ValueError):
            space.sample(mask=np.ones(4, dtype=np.int8))  # wrong size
        with self.assertRaises(TypeError):
            space.sample(mask=np.ones(3, dtype=np.float64))
        with self.assertRaises(ValueError):
            Discrete(0)

    def test_uniform(self):
        space = Discrete(3, seed=2)
        counts = np.bincount([space.sample() for _ in range(3000)], minlength=3)
        self.assertTrue((np.abs(counts - 1000) < 150).all(), counts)

    def test_same_numbers_as_the_rng(self):
        # A space seeded s draws Rng(s)'s numbers, as the C++ Discrete does.
        space = Discrete(5, seed=9)
        rng = Rng(9)
        self.assertEqual([space.sample() for _ in range(20)],
                         [rng.discrete(5) for _ in range(20)])


class MultiDiscreteTest(unittest.TestCase):
    def test_contains(self):
        space = MultiDiscrete([3, 2, 4])
        self.assertIn([2, 1, 3], space)
        self.assertIn(np.array([0, 0, 0], dtype=np.uint8), space)
        for value in ([3, 1, 3], [0, 2, 0], [0, 0], [0, 0, 0, 0], [-1, 0, 0],
                      np.zeros(3, dtype=np.float32), [[0, 0, 0]]):
            self.assertNotIn(value, space)

    def test_samples_respect_nvec_and_mask(self):
        space = MultiDiscrete([3, 2, 4], seed=4)
        samples = np.array([space.sample() for _ in range(500)])
        self.assertTrue(((samples >= 0) & (samples < [3, 2, 4])).all())
        self.assertEqual(samples.dtype, np.int64)
        mask = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 1]], dtype=np.int8)
        for _ in range(50):
            s = space.sample(mask=mask)
            self.assertEqual(s[0], 2)
            self.assertEqual(s[1], 0)
            self.assertIn(s[2], (1, 3))
        with self.assertRaises(ValueError):
            space.sample(mask=np.ones((2, 4), dtype=np.int8))  # a row per entry
        with self.assertRaises(ValueError):
            space.sample(mask=np.ones(12, dtype=np.int8))  # flat only when every n is the same

    def test_flat_mask_of_uniform_nvec(self):
        # The single-step env's action_mask, (2N * M,), is read as one row of M per entry.
        space = MultiDiscrete([3] * 4, seed=5)
        mask = np.array([0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1], dtype=np.int8)
        for _ in range(50):
            s = space.sample(mask=mask)
            self.assertEqual((s[0], s[1]), (2, 0))
            self.assertIn(s[2], (1, 2))

    def test_batched_shape(self):
        space = MultiDiscrete(np.full((2, 3), 4), seed=1)
        self.assertEqual(space.sample().shape, (2, 3))
        self.assertIn(np.zeros((2, 3), dtype=np.int64), space)
        self.assertNotIn(np.zeros(6, dtype=np.int64), space)


class BoxTest(unittest.TestCase):
    def test_float_box(self):
        space = Box(0.0, 1.0, (4, 2), np.float32, seed=3)
        sample = space.sample()
        self.assertEqual(sample.shape, (4, 2))
        self.assertEqual(sample.dtype, np.float32)
        self.assertIn(sample, space)
        self.assertNotIn(np.full((4, 2), 1.5, dtype=np.float32), space)
        self.assertNotIn(np.full((4, 2), np.nan, dtype=np.float32), space)
        self.assertNotIn(np.zeros((2, 4), dtype=np.float32), space)
        self.assertNotIn(np.zeros((4, 2), dtype=np.float64), space)  # would lose precision

    def test_int_box(self):
        space = Box(0, 5, (10, 2), np.int64, seed=3)
        sample = space.sample()
        self.assertTrue(((sample >= 0) & (sample <= 5)).all())
        self.assertIn(sample, space)
        self.assertNotIn(np.full((10, 2), 6), space)
        self.assertNotIn(np.zeros((10, 2), dtype=np.float32), space)

    def test_bad_boxes(self):
        with self.assertRaises(ValueError):
            Box(1.0, 0.0, (2,))
        with self.assertRaises(ValueError):
            Box(0, 1, (2,), np.float64)


class MultiBinaryAndDictTest(unittest.TestCase):
    def test_multi_binary(self):
        space = MultiBinary(5, seed=2)
        self.assertEqual(space.n, 5)
        self.assertIn(np.array([0, 1, 1, 0, 1], dtype=np.int8), space)
        self.assertIn([True, False, True, True, False], space)
        self.assertNotIn(np.array([0, 2, 1, 0, 1]), space)
        self.assertNotIn(np.zeros(4, dtype=np.int8), space)
        sample = space.sample()
        self.assertEqual(sample.dtype, np.int8)
        self.assertIn(sample, space)

    def test_dict(self):
        space = Dict({"a": Discrete(2), "b": Box(0.0, 1.0, (2,))})
        self.assertIn({"a": 1, "b": np.zeros(2, dtype=np.float32)}, space)
        self.assertNotIn({"a": 2, "b": np.zeros(2, dtype=np.float32)}, space)
        self.assertNotIn({"a": 1}, space)
        self.assertNotIn([1, 2], space)
        space.seed(8)
        first = space.sample()
        space.seed(8)
        second = space.sample()
        self.assertEqual(first["a"], second["a"])
        np.testing.assert_array_equal(first["b"], second["b"])
        self.assertEqual(list(space), ["a", "b"])


MASK64 = (1 << 64) - 1


class ReferenceRng:
    """base/rng.hpp written again from the published algorithms: splitmix64 seeding, xoshiro256**,
    Lemire's multiply-and-reject bounded integers."""

    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed = (seed + 0x9E3779B97F4A7C15) & MASK64
            z = seed
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            self.s.append(z ^ (z >> 31))

    def next(self):
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & MASK64
        s = self.s
        result = (rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform(self, n):
        m = self.next() * n
        if (m & MASK64) < n:
            threshold = ((1 << 64) - n) % n
            while (m & MASK64) < threshold:
                m = self.next() * n
        return m >> 64


class RngTest(unittest.TestCase):
    def test_matches_the_published_algorithms(self):
        for seed, n in ((0, 3), (2026, 7), (12345, 1 << 40), (1 << 63, 1000003)):
            rng, reference = Rng(seed), ReferenceRng(seed)
            self.assertEqual([rng.discrete(n) for _ in range(50)],
                             [reference.uniform(n) for _ in range(50)], (seed, n))

    def test_bad_seeds(self):
        with self.assertRaises(ValueError):
            Rng(-1)
        with self.assertRaises(ValueError):
            Rng(1 << 64)
        with self.assertRaises(TypeError):
            Rng(1.5)


if __name__ == "__main__":
    unittest.main()
