"""Registers memplace's environments with Gymnasium, when it is installed. Nothing else in memplace
needs Gymnasium (Debian bookworm does not package it).

    import gymnasium, memplace.gymnasium
    memplace.gymnasium.register_all()
    env = gymnasium.make("memplace/sequential-resnet50-v0", order="msa")

Gymnasium's ids allow one "/" (namespace/name-vN) and no "@", so memplace/<kind>/<workload>-v0 is
registered as memplace/<kind>-<workload>-v0 and memplace/<kind>/<workload>@<hardware>-v0 as
memplace/<kind>-<workload>-on-<hardware>-v0; the generic ids keep their names
(memplace/sequential-v0).
"""

from __future__ import annotations

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


def _adapter(gymnasium):
    class GymnasiumEnv(gymnasium.Env):
        """A memplace.Env as a gymnasium.Env (same observations, rewards and info)."""

        metadata = {"render_modes": []}

        def __init__(self, memplace_id: str, **options):
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


def register_all() -> list[str]:
    """Registers every memplace environment with Gymnasium; returns the Gymnasium ids.
    Raises ImportError if Gymnasium is not installed."""
    try:
        import gymnasium
    except ImportError as e:
        raise ImportError("memplace.gymnasium.register_all() needs the gymnasium package; "
                          "memplace.make() works without it") from e
    adapter = _adapter(gymnasium)
    ids = []
    for spec in memplace.env_specs():
        gym_id = gymnasium_id(spec["id"])
        gymnasium.register(id=gym_id, entry_point=adapter,
                           kwargs={"memplace_id": spec["id"]})
        ids.append(gym_id)
    return ids
