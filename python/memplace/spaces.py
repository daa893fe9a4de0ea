"""Gymnasium-style spaces: what memplace's observations and actions look like.

Each space has ``shape``, ``dtype``, ``sample()``, ``contains()`` (also ``x in space``) and
``seed()``, with Gymnasium's meanings. Sampling uses memplace's portable generator, so a space
seeded with ``s`` draws exactly what the C++ space draws from ``Rng(s)``; an unseeded space is
seeded from the operating system. ``gymnasium`` itself is not needed (``memplace.gymnasium``
converts these to its spaces when it is installed).
"""

from __future__ import annotations

import os

import numpy as np

from memplace._memplace import Rng

__all__ = ["Space", "Discrete", "MultiDiscrete", "Box", "MultiBinary", "Dict"]


def _fresh_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


class Space:
    """The common part: a shape, a dtype and a seedable generator."""

    def __init__(self, shape, dtype, seed=None):
        self._shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._rng = Rng(_fresh_seed() if seed is None else seed)

    @property
    def shape(self):
        return self._shape

    def seed(self, seed=None) -> list:
        """Reseeds the generator (from the operating system if seed is None); returns [seed]."""
        seed = _fresh_seed() if seed is None else seed
        self._rng.reseed(seed)
        return [seed]

    def __contains__(self, x) -> bool:
        return self.contains(x)

    def contains(self, x) -> bool:
        raise NotImplementedError

    def sample(self, mask=None):
        raise NotImplementedError


def _integer_array(x):
    """x as an integer ndarray, or None if it is not one (floats, bools, strings...)."""
    if isinstance(x, (bool, np.bool_)):
        return None
    a = np.asarray(x) if isinstance(x, (list, tuple, int, np.integer)) else x
    if not isinstance(a, np.ndarray) or not np.issubdtype(a.dtype, np.integer):
        return None
    return a


class Discrete(Space):
    """The integers 0 .. n - 1 (one memory, in the sequential env)."""

    def __init__(self, n: int, seed=None):
        if int(n) <= 0:
            raise ValueError(f"Discrete: n must be positive, got {n}")
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = 0

    def sample(self, mask=None) -> int:
        """Uniform over 0 .. n - 1, or over the values where mask (n int8 entries) is nonzero.
        A mask that allows nothing gives 0 (``start``) without a draw, as in Gymnasium: a
        sequential episode's last mask is all zeros."""
        return self._rng.discrete(self.n, mask)

    def contains(self, x) -> bool:
        a = _integer_array(x)
        return a is not None and a.shape == () and 0 <= int(a) < self.n

    def __repr__(self):
        return f"Discrete({self.n})"

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n


class MultiDiscrete(Space):
    """An integer array where entry i is in 0 .. nvec[i] - 1 (a whole mapping, in the
    single-step env: nvec is [M] * 2N)."""

    def __init__(self, nvec, seed=None):
        nvec = np.array(nvec, dtype=np.int64)
        if nvec.size == 0 or (nvec <= 0).any():
            raise ValueError("MultiDiscrete: nvec must be non-empty and positive")
        super().__init__(nvec.shape, np.int64, seed)
        self.nvec = nvec
        self.nvec.flags.writeable = False
        self._flat = nvec.reshape(-1)

    def sample(self, mask=None) -> np.ndarray:
        """One value per entry. A mask, if given, has shape (*shape, width) with width >= max(nvec):
        row i's first nvec[i] entries say which values entry i may take. When every entry has the
        same n, a flat mask of size(nvec) * n rows is read as (size, n): the single-step env's
        action_mask can be passed as it is. A row that allows nothing gives 0, as in Gymnasium
        (a vector env's ended copies have all-zero masks; their actions are ignored)."""
        if mask is not None:
            mask = np.ascontiguousarray(mask)
            n = int(self._flat[0])
            if mask.ndim == 1 and mask.size == self._flat.size * n and (self._flat == n).all():
                mask = mask.reshape(-1, n)
            elif mask.ndim >= 2:
                mask = mask.reshape(-1, mask.shape[-1])
        return self._rng.multi_discrete(self._flat, mask).reshape(self.shape)

    def contains(self, x) -> bool:
        a = _integer_array(x)
        return (a is not None and a.shape == self.shape and bool((a >= 0).all())
                and bool((a < self.nvec).all()))

    def __repr__(self):
        if (self._flat == self._flat[0]).all():
            return f"MultiDiscrete([{self._flat[0]}] * {self._flat.size})"
        return f"MultiDiscrete({self.nvec.tolist()})"

    def __eq__(self, other):
        return isinstance(other, MultiDiscrete) and np.array_equal(other.nvec, self.nvec)


class Box(Space):
    """An array of fixed shape with every entry in [low, high]: float32 node features, or int64
    node indices (edge_links)."""

    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        super().__init__(shape, dtype, seed)
        if self.dtype not in (np.dtype(np.float32), np.dtype(np.int64)):
            raise ValueError(f"Box: dtype must be float32 or int64, got {self.dtype}")
        if not low <= high:
            raise ValueError(f"Box: low ({low}) must be <= high ({high})")
        self.low = self.dtype.type(low)
        self.high = self.dtype.type(high)

    def sample(self, mask=None) -> np.ndarray:
        if mask is not None:
            raise ValueError("Box.sample takes no mask")
        size = int(np.prod(self.shape, dtype=np.int64))
        if self.dtype == np.float32:
            values = self._rng.uniform(float(self.low), float(self.high), size)
        else:
            values = self._rng.integers(int(self.low), int(self.high), size)
        return values.reshape(self.shape)

    def contains(self, x) -> bool:
        a = np.asarray(x) if isinstance(x, (list, tuple)) else x
        if not isinstance(a, np.ndarray) or a.shape != self.shape:
            return False
        if not np.can_cast(a.dtype, self.dtype) or a.dtype == np.bool_:
            return False
        return bool(((a >= self.low) & (a <= self.high)).all())  # False for NaN too

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"

    def __eq__(self, other):
        return (isinstance(other, Box) and other.shape == self.shape and other.dtype == self.dtype
                and other.low == self.low and other.high == self.high)


class MultiBinary(Space):
    """An int8 array of 0s and 1s (action masks)."""

    def __init__(self, n, seed=None):
        shape = (n,) if isinstance(n, (int, np.integer)) else tuple(n)
        super().__init__(shape, np.int8, seed)
        self.n = self.shape[0] if len(self.shape) == 1 else self.shape

    def sample(self, mask=None) -> np.ndarray:
        if mask is not None:
            raise ValueError("MultiBinary.sample takes no mask")
        size = int(np.prod(self.shape, dtype=np.int64))
        return self._rng.integers(0, 1, size).astype(np.int8).reshape(self.shape)

    def contains(self, x) -> bool:
        a = np.asarray(x) if isinstance(x, (list, tuple)) else x
        if not isinstance(a, np.ndarray) or a.shape != self.shape:
            return False
        if not (np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
            return False
        return bool(((a == 0) | (a == 1)).all())

    def __repr__(self):
        return f"MultiBinary({self.n})"

    def __eq__(self, other):
        return isinstance(other, MultiBinary) and other.shape == self.shape


class Dict(Space):
    """A fixed set of named spaces (the observations: nodes, edge_links, node_state,
    action_mask)."""

    def __init__(self, spaces: dict, seed=None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None) -> list:
        """Seeds every subspace: the i-th (in key order) with seed + i."""
        seed = _fresh_seed() if seed is None else seed
        out = [seed]
        for i, space in enumerate(self.spaces.values()):
            out += space.seed((seed + i) % 2**64)
        return out

    def sample(self, mask=None) -> dict:
        if mask is not None:
            raise ValueError("Dict.sample takes no mask")
        return {key: space.sample() for key, space in self.spaces.items()}

    def contains(self, x) -> bool:
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(space.contains(x[key]) for key, space in self.spaces.items()))

    def __getitem__(self, key):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self):
        return len(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k}: {v}" for k, v in self.spaces.items()) + ")"

    def __eq__(self, other):
        return isinstance(other, Dict) and other.spaces == self.spaces
