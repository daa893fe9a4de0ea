"""memplace's environments in Gymnasium (1.0 to 1.2; docs/python.md, "Gymnasium"). Importing this
module registers every environment when Gymnasium is installed (nothing else in memplace needs
it, and Debian bookworm does not package it):

    import gymnasium
    import memplace.gymnasium  # at the top of the script: spawned workers import it again
    env = gymnasium.make("memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0")

Every id of memplace.list_envs() is a Gymnasium id as it is (docs/envs/README.md, "Ids"), suite
instances included; "memplace.gymnasium:<id>" works with no import at all (Gymnasium imports the
module first). A Gymnasium id is made for the tools that use Gymnasium: a masked action takes its
fallback instead of raising (masked_action="fallback"), and the observation is flat — one 1-D
array per key, all float32 but the int8 mask — unless made with observation="graph" (the graph
arrays of memplace.make). Any option of memplace.make passes through, these two included.

The ids of before the grammar (memplace/sequential-resnet50-v1, whose -v1 named the cost model)
are registered too and warn with the id that replaced them.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

import memplace


LAYOUTS = ("flat", "graph")
# The options a Gymnasium id is made with unless given (masked_action only where the kind has it).
GYMNASIUM_OPTIONS = {"masked_action": "fallback"}


def legacy_gymnasium_id(path_id: str) -> str:
    """The Gymnasium id an environment had before the id grammar, from its path id:
    memplace/sequential/resnet50@edge-tpu-v1 -> memplace/sequential-resnet50-on-edge-tpu-v1."""
    namespace, _, rest = path_id.partition("/")
    return namespace + "/" + rest.replace("/", "-").replace("@", "-on-")


def to_gymnasium_space(space, spaces):
    """A memplace.spaces object as the equivalent space of Gymnasium's `spaces` module."""
    ms = memplace.spaces
    if isinstance(space, ms.Discrete):
        return spaces.Discrete(space.n)
    if isinstance(space, ms.MultiDiscrete):
        return spaces.MultiDiscrete(space.nvec)
    if isinstance(space, ms.Box):
        return spaces.Box(low=space.low, high=space.high, shape=space.shape, dtype=space.dtype)
    if isinstance(space, ms.MultiBinary):
        return spaces.MultiBinary(space.n)
    if isinstance(space, ms.Dict):
        return spaces.Dict({k: to_gymnasium_space(v, spaces) for k, v in space.items()})
    raise TypeError(f"no Gymnasium equivalent of {space!r}")


class _FlatLayout:
    """The observation as 1-D arrays (what SB3's checker, MLP policies and FlattenObservation
    take): nodes (N*F,), node_state (N*D,), edge_index (2*E,) — sources then targets, float32,
    exact below 2^24 nodes —, action_mask (K,) int8 and, in the allocation game, occupancy
    (G*32*32,). The static arrays are made once; the rest are views of the env's arrays."""

    def __init__(self, env, gymnasium, copies=None):
        spaces = gymnasium.spaces
        spec = env._observation_spec()
        n, e, k = spec["num_nodes"], spec["num_edges"], spec["mask_size"]
        nodes = n * spec["static_features"]
        grid = int(np.prod(spec["occupancy_shape"]))
        lead = () if copies is None else (copies,)

        def box(size, high=1.0):
            return spaces.Box(0.0, high, lead + (size,), np.float32)

        entries = {"nodes": box(nodes), "edge_index": box(2 * e, float(max(n - 1, 0))),
                   "node_state": box(n * spec["dynamic_features"]),
                   "action_mask": spaces.MultiBinary(lead + (k,) if lead else k)}
        if spec["occupancy_shape"][0] > 0:
            entries["occupancy"] = box(grid)
        self.space = spaces.Dict(entries)
        self.copies = copies
        edges = np.asarray(env.edge_index, dtype=np.float32).reshape(-1)
        self._edges = edges if copies is None else np.broadcast_to(edges, (copies, edges.size))
        self._nodes = None  # from the first observation, whose nodes array every step shares

    def __call__(self, obs):
        if self._nodes is None:
            nodes = obs["nodes"]
            self._nodes = nodes.reshape(nodes.shape[:-2] + (-1,))
        state = obs["node_state"]
        out = {"nodes": self._nodes, "edge_index": self._edges,
               "node_state": state.reshape(state.shape[:-2] + (-1,)),
               "action_mask": obs["action_mask"]}
        if "occupancy" in obs:
            grid = obs["occupancy"]
            out["occupancy"] = grid.reshape(grid.shape[:-3] + (-1,))
        return out


class _GraphLayout:
    """The observation as memplace.make gives it (docs/python.md, "Observations")."""

    def __init__(self, env, gymnasium, copies=None):
        single = getattr(env, "single_observation_space", env.observation_space)
        self.space = to_gymnasium_space(single, gymnasium.spaces)
        if copies is not None:
            self.space = gymnasium.vector.utils.batch_space(self.space, copies)

    def __call__(self, obs):
        return obs


def _layout(observation, env, gymnasium, copies=None):
    """The layout `observation` names, for a single env or (with `copies`) a vector env's batch."""
    if observation not in LAYOUTS:
        raise ValueError(f"observation={observation!r}: expected one of {', '.join(LAYOUTS)}")
    cls = _FlatLayout if observation == "flat" else _GraphLayout
    return cls(env, gymnasium, copies)


def _with_defaults(memplace_id: str, options: dict) -> dict:
    names = {o["name"] for o in memplace.env_options(memplace_id)}
    return {**{k: v for k, v in GYMNASIUM_OPTIONS.items() if k in names}, **options}


def _copied(action):
    """An action kept for a replay: the caller may reuse its array for the next step."""
    return action if isinstance(action, (int, np.integer)) else np.array(action, copy=True)


@functools.cache  # one class per Gymnasium module: pickles find it again (_unpickled_env)
def _adapter(gymnasium):
    class GymnasiumEnv(gymnasium.Env):
        """A memplace.Env as a gymnasium.Env: the same rewards, info and actions; observations
        flat or graph (see the module). Picklable: a copy is made again from its id and options
        and replays its episode (the same state)."""

        metadata = {"render_modes": []}

        def __init__(self, memplace_id: str, render_mode=None, observation: str = "flat",
                     **options):
            # Gymnasium's make has already warned about a render mode the env does not have.
            self.render_mode = render_mode
            self._made = (memplace_id, render_mode, observation, options)
            self.env = memplace.make(memplace_id, **_with_defaults(memplace_id, options))
            self._layout = _layout(observation, self.env, gymnasium)
            self.observation_space = self._layout.space
            self.action_space = to_gymnasium_space(self.env.action_space, gymnasium.spaces)
            self._episode = None  # (seed, options, actions) since the last reset

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)  # seeds Gymnasium's np_random
            obs, info = self.env.reset(seed=seed, options=options)
            self._episode = (seed, options, [])
            return self._layout(obs), info

        def step(self, action):
            obs, reward, terminated, truncated, info = self.env.step(action)
            self._episode[2].append(_copied(action))
            return self._layout(obs), reward, terminated, truncated, info

        def action_masks(self) -> np.ndarray:
            """The allowed actions now, as bools (MaskablePPO's protocol; memplace.Env's)."""
            return self.env.action_masks()

        def render(self):
            return None  # no render modes

        def close(self):
            self.env.close()

        def __getattr__(self, name):
            # memplace.Env's extras (simulator, edge_index, mapping, current_tensor, ...).
            if name.startswith("_") or "env" not in self.__dict__:
                raise AttributeError(name)
            return getattr(self.env, name)

        def __getstate__(self):
            return {"made": self._made, "episode": self._episode,
                    "np_random": None if self._np_random is None
                    else self._np_random.bit_generator.state}

        def __reduce__(self):
            # The class is made per Gymnasium module, so pickle cannot name it: a function can.
            return _unpickled_env, (self.__getstate__(),)

        def __setstate__(self, state):
            memplace_id, render_mode, observation, options = state["made"]
            self.__init__(memplace_id, render_mode, observation, **options)
            if state["episode"] is not None:
                seed, reset_options, actions = state["episode"]
                self.env.reset(seed=seed, options=reset_options)
                for action in actions:
                    self.env.step(action)
                self._episode = (seed, reset_options, list(actions))
            if state["np_random"] is not None:
                self._np_random, _ = gymnasium.utils.seeding.np_random(0)
                self._np_random.bit_generator.state = state["np_random"]

    return GymnasiumEnv


@functools.cache
def _vector_adapter(gymnasium):
    vector = gymnasium.vector
    autoreset = getattr(vector, "AutoresetMode", None)  # Gymnasium 1.1 on

    class GymnasiumVectorEnv(vector.VectorEnv):
        """A memplace.VectorEnv as a gymnasium.vector.VectorEnv: what ``gymnasium.make_vec``
        gives (the copies step in C++; next-step autoreset; infos with Gymnasium's ``_key``
        masks; observations flat or graph, as the single env's)."""

        metadata = {"render_modes": [],
                    **({"autoreset_mode": autoreset.NEXT_STEP} if autoreset else {})}

        def __init__(self, memplace_id: str, num_envs: int = 1, render_mode=None,
                     num_threads: int = 0, observation: str = "flat", **options):
            self.render_mode = render_mode
            self.envs = memplace.make_vec(memplace_id, num_envs, num_threads=num_threads,
                                          **_with_defaults(memplace_id, options))
            self.num_envs = self.envs.num_envs
            self._layout = _layout(observation, self.envs, gymnasium, self.num_envs)
            self.single_observation_space = _layout(observation, self.envs, gymnasium).space
            self.single_action_space = to_gymnasium_space(self.envs.single_action_space,
                                                          gymnasium.spaces)
            self.observation_space = self._layout.space
            self.action_space = vector.utils.batch_space(self.single_action_space, self.num_envs)

        def _infos(self, infos: dict) -> dict:
            every = np.ones(self.num_envs, dtype=bool)
            return {**infos, **{"_" + key: every for key in infos}}

        def reset(self, *, seed=None, options=None):
            if isinstance(seed, (list, tuple)):  # Gymnasium allows one seed per copy
                if list(seed) != [seed[0] + i for i in range(self.num_envs)]:
                    raise ValueError("memplace seeds copy i with seed + i: pass one int, or the "
                                     f"list [s, s + 1, ..., s + {self.num_envs - 1}]")
                seed = seed[0]
            obs, infos = self.envs.reset(seed=seed, options=options)
            return self._layout(obs), self._infos(infos)

        def step(self, actions):
            obs, rewards, terminated, truncated, infos = self.envs.step(actions)
            return self._layout(obs), rewards, terminated, truncated, self._infos(infos)

        def action_masks(self) -> np.ndarray:
            """(num_envs, K) bools; a copy that resets at the next step allows every action (its
            action is ignored), so a masked softmax never sees an all-False row."""
            return self.envs.action_masks()

        def __getattr__(self, name):
            # memplace.VectorEnv's extras (simulator, edge_index, mapping(i), current_tensor).
            if name.startswith("_") or "envs" not in self.__dict__:
                raise AttributeError(name)
            return getattr(self.envs, name)

        def close(self, **kwargs):
            self.envs.close()

    return GymnasiumVectorEnv


def _unpickled_env(state):
    import gymnasium

    cls = _adapter(gymnasium)
    env = cls.__new__(cls)
    env.__setstate__(state)
    return env


def _deprecated(maker, old_id: str, new_id: str):
    @functools.wraps(maker)
    def make_deprecated(*args, **kwargs):
        warnings.warn(f"{old_id} is deprecated: it is {new_id} (the -vN of the old ids named the "
                      "cost model, which Gymnasium reads as a revision; docs/envs/README.md, "
                      "\"Ids\")", DeprecationWarning, stacklevel=3)
        kwargs["memplace_id"] = new_id
        return maker(*args, **kwargs)

    return make_deprecated


def _import_gymnasium():
    try:
        import gymnasium
    except ImportError as e:
        raise ImportError("memplace.gymnasium.register_all() needs the gymnasium package; "
                          "memplace.make() works without it") from e
    return gymnasium


def register_all() -> list[str]:
    """Registers every memplace environment with Gymnasium (once per Gymnasium registry:
    importing this module already did when Gymnasium was importable); returns the ids, the old
    ones left out. Raises ImportError if Gymnasium is not installed."""
    gymnasium = _import_gymnasium()
    specs = memplace.env_specs()
    ids = [spec["id"] for spec in specs]
    if ids[0] in gymnasium.registry:
        return ids
    adapter, vector_adapter = _adapter(gymnasium), _vector_adapter(gymnasium)
    for spec in specs:
        gymnasium.register(id=spec["id"], entry_point=adapter, vector_entry_point=vector_adapter,
                           kwargs={"memplace_id": spec["id"]})
        if spec["suite"] is None:  # the ids of before the grammar
            old = legacy_gymnasium_id(spec["path_id"])
            gymnasium.register(id=old, entry_point=_deprecated(adapter, old, spec["id"]),
                               vector_entry_point=_deprecated(vector_adapter, old, spec["id"]),
                               kwargs={"memplace_id": spec["id"]})
    return ids


try:
    register_all()
except ImportError:  # no Gymnasium: memplace.make() works without it
    pass
