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


def _with_defaults(memplace_id: str, options: dict) -> dict:
    names = {o["name"] for o in memplace.env_options(memplace_id)}
    return {**{k: v for k, v in GYMNASIUM_OPTIONS.items() if k in names}, **options}


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
            self.env = memplace.make(memplace_id, observation,
                                     **_with_defaults(memplace_id, options))
            self.observation_space = to_gymnasium_space(self.env.observation_space,
                                                        gymnasium.spaces)
            self.action_space = to_gymnasium_space(self.env.action_space, gymnasium.spaces)
            self._reset_with = None  # (seed, options) of the last reset, for a pickled copy

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)  # seeds Gymnasium's np_random
            self._reset_with = (seed, options)
            return self.env.reset(seed=seed, options=options)

        def step(self, action):
            return self.env.step(action)

        def action_masks(self) -> np.ndarray:
            """The allowed actions now, as bools (MaskablePPO's protocol; memplace.Env's)."""
            return self.env.action_masks()

        def render(self):
            return None  # no render modes

        def close(self):
            self.env.close()

        # memplace.Env's extras, as properties: a class with __getattr__ makes every attribute
        # lookup on it slower (CPython's slot_tp_getattr_hook), 3 % of a step through SB3.
        simulator = property(lambda self: self.env.simulator)
        edge_index = property(lambda self: self.env.edge_index)
        episode_length = property(lambda self: self.env.episode_length)
        options = property(lambda self: self.env.options)
        placement_order = property(lambda self: self.env.placement_order)
        current_tensor = property(lambda self: self.env.current_tensor)
        mapping = property(lambda self: self.env.mapping)
        tensor_offsets = property(lambda self: self.env.tensor_offsets)
        candidates = property(lambda self: self.env.candidates)
        node_feature_names = property(lambda self: self.env.node_feature_names)
        node_state_names = property(lambda self: self.env.node_state_names)

        def __getstate__(self):
            episode = None if self._reset_with is None else (
                *self._reset_with, self.env._episode_actions())
            return {"made": self._made, "episode": episode,
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
                self.reset(seed=seed, options=reset_options)
                for action in actions:
                    self.env.step(action if action.size > 1 else int(action[0]))
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
                                          observation=observation,
                                          **_with_defaults(memplace_id, options))
            self.num_envs = self.envs.num_envs
            self.single_observation_space = to_gymnasium_space(
                self.envs.single_observation_space, gymnasium.spaces)
            self.single_action_space = to_gymnasium_space(self.envs.single_action_space,
                                                          gymnasium.spaces)
            self.observation_space = vector.utils.batch_space(self.single_observation_space,
                                                              self.num_envs)
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
            return obs, self._infos(infos)

        def step(self, actions):
            obs, rewards, terminated, truncated, infos = self.envs.step(actions)
            return obs, rewards, terminated, truncated, self._infos(infos)

        def action_masks(self) -> np.ndarray:
            """(num_envs, K) bools; a copy that resets at the next step allows every action (its
            action is ignored), so a masked softmax never sees an all-False row."""
            return self.envs.action_masks()

        # memplace.VectorEnv's extras (properties, not __getattr__: see GymnasiumEnv).
        simulator = property(lambda self: self.envs.simulator)
        edge_index = property(lambda self: self.envs.edge_index)
        episode_length = property(lambda self: self.envs.episode_length)
        current_tensor = property(lambda self: self.envs.current_tensor)

        def mapping(self, index: int):
            """Copy `index`'s mapping so far (sequential env and malloc env)."""
            return self.envs.mapping(index)

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
