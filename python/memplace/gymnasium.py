"""Registers memplace's environments with Gymnasium, when it is installed. Nothing else in memplace
needs Gymnasium (Debian bookworm does not package it).

    import gymnasium, memplace.gymnasium
    memplace.gymnasium.register_all()
    env = gymnasium.make("memplace/sequential-resnet50-v0", order="msa")

Gymnasium's ids allow one "/" (namespace/name-vN) and no "@", so memplace/<kind>/<workload>-v0 is
registered as memplace/<kind>-<workload>-v0 and memplace/<kind>/<workload>@<hardware>-v0 as
memplace/<kind>-<workload>-on-<hardware>-v0; the generic ids keep their names
(memplace/sequential-v0).

``gymnasium.make_vec(id, num_envs)`` gives memplace's C++ vector env (registered as the
``vector_entry_point``), not copies stepped in Python; ``render_mode=None`` is accepted by both and
any other mode refused (memplace has no rendering). Checked against Gymnasium 1.x's registration
rules with a stand-in module (tests/python/test_errors.py): Debian does not package Gymnasium.
"""

from __future__ import annotations

import numpy as np

import memplace


def gymnasium_id(env_id: str) -> str:
    """memplace/sequential/resnet50@edge-tpu-v0 -> memplace/sequential-resnet50-on-edge-tpu-v0."""
    namespace, _, rest = env_id.partition("/")
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


def _refuse_render_mode(render_mode) -> None:
    """Gymnasium's make passes render_mode through (warning when the env lacks the mode)."""
    if render_mode is not None:
        raise ValueError(f"render_mode={render_mode!r}: memplace environments have no render "
                         "modes (metadata['render_modes'] is empty); pass render_mode=None")


def _adapter(gymnasium):
    class GymnasiumEnv(gymnasium.Env):
        """A memplace.Env as a gymnasium.Env (same observations, rewards and info)."""

        metadata = {"render_modes": []}

        def __init__(self, memplace_id: str, render_mode=None, **options):
            _refuse_render_mode(render_mode)
            self.render_mode = None
            self.env = memplace.make(memplace_id, **options)
            self.observation_space = to_gymnasium_space(self.env.observation_space,
                                                        gymnasium.spaces)
            self.action_space = to_gymnasium_space(self.env.action_space, gymnasium.spaces)

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)  # seeds Gymnasium's np_random
            return self.env.reset(seed=seed, options=options)

        def step(self, action):
            return self.env.step(action)

        def close(self):
            self.env.close()

    return GymnasiumEnv


def _vector_adapter(gymnasium):
    vector = gymnasium.vector

    class GymnasiumVectorEnv(vector.VectorEnv):
        """A memplace.VectorEnv as a gymnasium.vector.VectorEnv: what ``gymnasium.make_vec`` gives
        (the copies step in C++; Gymnasium's next-step autoreset; infos with Gymnasium's ``_key``
        masks)."""

        metadata = {"render_modes": [], "autoreset_mode": vector.AutoresetMode.NEXT_STEP}

        def __init__(self, memplace_id: str, num_envs: int = 1, render_mode=None,
                     num_threads: int = 0, **options):
            _refuse_render_mode(render_mode)
            self.render_mode = None
            self.envs = memplace.make_vec(memplace_id, num_envs, num_threads=num_threads,
                                          **options)
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

        def close(self, **kwargs):
            self.envs.close()

    return GymnasiumVectorEnv


def register_all() -> list[str]:
    """Registers every memplace environment with Gymnasium; returns the Gymnasium ids.
    Raises ImportError if Gymnasium is not installed."""
    try:
        import gymnasium
    except ImportError as e:
        raise ImportError("memplace.gymnasium.register_all() needs the gymnasium package; "
                          "memplace.make() works without it") from e
    adapter, vector_adapter = _adapter(gymnasium), _vector_adapter(gymnasium)
    ids = []
    for spec in memplace.env_specs():
        gym_id = gymnasium_id(spec["id"])
        gymnasium.register(id=gym_id, entry_point=adapter, vector_entry_point=vector_adapter,
                           kwargs={"memplace_id": spec["id"]})
        ids.append(gym_id)
    return ids
