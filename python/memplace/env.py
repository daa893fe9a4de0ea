"""Environments with Gymnasium's API (docs/python.md).

The stepping happens in C++ (memplace._memplace.Env / VectorEnv); these classes add the space
objects and the Python conveniences.
"""

from __future__ import annotations

import numpy as np

from memplace import _memplace
from memplace.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete

__all__ = ["Env", "VectorEnv", "make", "make_vec"]


def _action_space(spec: dict, copies: int | None = None):
    """The action space from its C++ description; with `copies`, the batched space."""
    if spec["kind"] == "discrete":
        return Discrete(spec["n"]) if copies is None else MultiDiscrete([spec["n"]] * copies)
    nvec = np.array(spec["nvec"], dtype=np.int64)
    return MultiDiscrete(nvec) if copies is None else MultiDiscrete(np.tile(nvec, (copies, 1)))


def _observation_space(spec: dict, copies: int | None = None, layout: str = "graph") -> Dict:
    """The observation space (python/bindings/observation_arrays.hpp describes the arrays, in the
    graph or the flat layout); with `copies`, every entry gets a leading axis of that length."""
    lead = () if copies is None else (copies,)
    n, e = spec["num_nodes"], spec["num_edges"]
    grid = tuple(spec["occupancy_shape"])
    mask = MultiBinary(lead + (spec["mask_size"],) if lead else spec["mask_size"])
    if layout == "flat":
        spaces = {
            "nodes": Box(0.0, 1.0, lead + (n * spec["static_features"],), np.float32),
            "edge_index": Box(0.0, float(max(n - 1, 0)), lead + (2 * e,), np.float32),
            "node_state": Box(0.0, 1.0, lead + (n * spec["dynamic_features"],), np.float32),
            "action_mask": mask,
        }
        if grid[0] > 0:
            spaces["occupancy"] = Box(0.0, 1.0, lead + (int(np.prod(grid)),), np.float32)
        return Dict(spaces)
    spaces = {
        "nodes": Box(0.0, 1.0, lead + (n, spec["static_features"]), np.float32),
        "edge_links": Box(0, max(n - 1, 0), lead + (e, 2), np.int64),
        "node_state": Box(0.0, 1.0, lead + (n, spec["dynamic_features"]), np.float32),
        "action_mask": mask,
    }
    if grid[0] > 0:  # the malloc env's time x address occupancy per on-chip memory
        spaces["occupancy"] = Box(0.0, 1.0, lead + grid, np.float32)
    return Dict(spaces)


def _name_columns(env, spec: dict) -> None:
    """The names of the columns of obs["nodes"] and obs["node_state"], in order
    (docs/envs/<kind>.md describes each): ``obs["node_state"][..., env.node_state_names.index(
    "weight_current")]``."""
    env.node_feature_names = list(spec["feature_names"])
    env.node_state_names = list(spec["state_names"])


class _ClosesOnExit:
    """`with memplace.make(...) as env:` closes the environment at the end of the block."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class Env(_ClosesOnExit, _memplace.Env):
    """One placement environment. Make it with ``memplace.make(id, **options)``.

    ``reset(seed=None, options=None) -> (obs, info)`` and
    ``step(action) -> (obs, reward, terminated, truncated, info)``, as in Gymnasium. Observations
    are dicts of read-only numpy arrays; the static ones (``nodes``, ``edge_links``) are the same
    objects at every step. A bad action raises ValueError or TypeError and changes nothing.
    """

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, id: str, options: dict | None = None, observation: str = "graph"):
        super().__init__(id, dict(options or {}), observation)
        spec = self._observation_spec()
        self.observation_space = _observation_space(spec, layout=observation)
        self.action_space = _action_space(self._action_spec())
        _name_columns(self, spec)

    @property
    def unwrapped(self) -> "Env":
        return self

    def render(self):
        """No rendering: memplace's envs have no render modes."""
        return None

    def __repr__(self):
        return f"memplace.Env({self.id!r})"


class VectorEnv(_ClosesOnExit, _memplace.VectorEnv):
    """``num_envs`` copies of one environment stepped together in C++ (in parallel over copies).
    Make it with ``memplace.make_vec(id, num_envs, seed)``.

    Results are batched: observations are dicts of arrays with a leading ``num_envs`` axis (the
    static arrays are broadcast views, not copies), rewards a float64 array, terminated and
    truncated bool arrays, infos a dict of arrays. A copy that ends at a step resets at the next
    step, which ignores its action (Gymnasium's next-step autoreset).
    """

    metadata = {"render_modes": [], "autoreset_mode": "next_step"}
    render_mode = None

    def __init__(self, id: str, num_envs: int, seed: int | None = None, num_threads: int = 0,
                 options: dict | None = None, observation: str = "graph"):
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool):
            raise TypeError(f"num_envs must be an integer, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        super().__init__(id, int(num_envs), seed, dict(options or {}), num_threads, observation)
        spec = self._observation_spec()
        action = self._action_spec()
        self.single_observation_space = _observation_space(spec, layout=observation)
        self.single_action_space = _action_space(action)
        self.observation_space = _observation_space(spec, self.num_envs, observation)
        self.action_space = _action_space(action, self.num_envs)
        _name_columns(self, spec)

    def __repr__(self):
        return f"memplace.VectorEnv({self.id!r}, num_envs={self.num_envs})"


def make(id: str, observation: str = "graph", **options) -> Env:
    """Makes an environment by id (``memplace.list_envs()``), with options by name
    (``memplace.env_options(id)``), e.g. ``make("memplace/single-step-resnet50-on-nnpi-cm0-v0",
    invalid="rectify")``. ``observation``: "graph" (2-D arrays, edge_links) or "flat" (1-D
    float32 rows and edge_index, for MLP policies; docs/python.md, "Observations"). An unknown
    id or a bad option raises ValueError naming it."""
    return Env(id, options, observation)


def make_vec(id: str, num_envs: int = 1, seed: int | None = None, num_threads: int = 0,
             observation: str = "graph", **options) -> VectorEnv:
    """``num_envs`` copies of ``make(id, observation, **options)``. ``seed`` seeds the first
    ``reset()`` that is given none (copy i gets seed + i); ``num_threads`` = 0 uses one thread
    per core."""
    return VectorEnv(id, num_envs, seed, num_threads, options, observation)
