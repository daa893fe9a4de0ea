"""The environment checker from Python: holds an environment to the contract of memplace's envs
(env/checker.hpp, docs/envs/README.md) and to Gymnasium's checker rules, and lists every problem it
finds. Use it on a memplace env or on your own wrapper around one:

    problems = memplace.check_env(MyRewardWrapper(memplace.make("memplace/sequential/resnet50-v0")))
    assert not problems, problems

It checks that reset(seed) twice gives equal observations and info; that every observation is
inside the observation space with the declared dtypes; that step returns (dict, float, bool, bool,
dict) with finite rewards and info; that terminated is False before the last step and True exactly
after episode_length steps, truncated always False, and a step after the end raises; that bad
actions (wrong length, out of range, negative, not integers, masked) raise ValueError or TypeError
and change nothing; that a fresh environment rejects a step before its first reset and then replays
the same seed and actions exactly. It also makes Gymnasium's checks (gymnasium.utils.env_checker),
so that they hold where Gymnasium is not installed: render modes (metadata["render_modes"] a list,
render_mode one of them or None, render() None without one), and a passive episode of unmasked
action_space.sample() draws.

Under masked_action="fallback" (docs/envs/README.md, "Masked actions") a masked action is not bad:
it must step exactly as its fallback — the nearest allowed action after it, else before it — with
info["replaced_action"] True, and the passive episode must run to its end. Under "raise" (the
default) a masked action must raise, and the passive episode is not played (it would draw one).
"""

from __future__ import annotations

import math

import numpy as np

from memplace.spaces import Dict, Discrete, MultiDiscrete

__all__ = ["check_env"]


class _Problems(list):
    """The problems found so far; stops the check (by _TooMany) after `limit`."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def add(self, text):
        self.append(text)
        if len(self) >= self.limit:
            raise _TooMany()


class _TooMany(Exception):
    pass


def _obs_equal(a, b) -> bool:
    return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
            and all(np.array_equal(a[k], b[k]) for k in a))


def _random_action(space, obs):
    if isinstance(space, Discrete):
        return space.sample(mask=obs["action_mask"])
    return space.sample()


def _masked_falls_back(env) -> bool:
    return getattr(env, "options", {}).get("masked_action", "raise") == "fallback"


def _masked_actions(space, obs) -> list[int]:
    """The actions a Discrete space's mask forbids now (none for other spaces)."""
    if not isinstance(space, Discrete):
        return []
    mask = np.asarray(obs["action_mask"])
    return [int(a) for a in np.flatnonzero(mask == 0)] if mask.shape == (space.n,) else []


def fallback_action(mask, action: int) -> int:
    """The action masked_action="fallback" takes for a masked one: the nearest allowed action after
    it, else the nearest before it (written here apart from the C++ rule, to check it)."""
    allowed = np.flatnonzero(np.asarray(mask) != 0)
    after = allowed[allowed > action]
    return int(after[0]) if after.size else int(allowed[allowed < action][-1])


def _bad_actions(space, obs, masked_falls_back=False):
    """(description, action) pairs that every env must reject, for the state with observation obs."""
    if isinstance(space, Discrete):
        bad = [("out of range", space.n), ("negative", -1), ("a float", 0.0), ("a string", "0"),
               ("None", None), ("a bool", True), ("two entries", [0, 0])]
        masked = _masked_actions(space, obs)
        if masked and not masked_falls_back:
            bad.append(("masked", masked[0]))
        return bad
    length = space.nvec.size
    top = int(space.nvec.max())
    return [("one entry too many", [0] * (length + 1)), ("one entry short", [0] * (length - 1)),
            ("out of range", [top] * length), ("negative", [-1] * length),
            ("floats", np.zeros(length, dtype=np.float32)), ("None", None)]


def _episode(env, seed, actions=None):
    """(actions, steps) of one episode from reset(seed=seed); steps[0] is (obs, info) of the reset,
    then each step's 5-tuple. Actions are drawn from the action space seeded with seed unless
    given."""
    env.action_space.seed(seed)
    first = env.reset(seed=seed)
    steps, taken = [first], []
    obs = first[0]
    for t in range(env.episode_length):
        action = _random_action(env.action_space, obs) if actions is None else actions[t]
        result = env.step(action)
        taken.append(action)
        steps.append(result)
        obs = result[0]
    return taken, steps


def _same_step(a, b) -> bool:
    if len(a) != len(b):
        return False
    return _obs_equal(a[0], b[0]) and all(x == y for x, y in zip(a[1:], b[1:]))


def _check_spaces(env, problems):
    if not isinstance(env.observation_space, Dict):
        problems.add(f"observation_space is {env.observation_space!r}, not a memplace Dict")
    if not isinstance(env.action_space, (Discrete, MultiDiscrete)):
        problems.add(f"action_space is {env.action_space!r}, not Discrete or MultiDiscrete")
    if not env.episode_length >= 1:
        problems.add(f"episode_length is {env.episode_length}")


def _check_info(where, info, problems):
    if not isinstance(info, dict):
        problems.add(f"{where}: info is a {type(info).__name__}, not a dict")
        return
    for key, value in info.items():
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            problems.add(f"{where}: info[{key!r}] = {value!r} is not a finite number")


def _check_observation(env, where, obs, problems):
    if not env.observation_space.contains(obs):
        problems.add(f"{where}: the observation is not inside observation_space")
        return
    for key, space in env.observation_space.items():
        if obs[key].dtype != space.dtype:
            problems.add(f"{where}: obs[{key!r}] is {obs[key].dtype}, the space says {space.dtype}")


def _check_reset(env, seed, problems):
    first = env.reset(seed=seed)
    if not (isinstance(first, tuple) and len(first) == 2):
        problems.add("reset() must return (obs, info)")
        return
    second = env.reset(seed=seed)
    if not _obs_equal(first[0], second[0]) or first[1] != second[1]:
        problems.add(f"reset(seed={seed}) twice gave different observations or info")
    _check_observation(env, "reset", first[0], problems)
    _check_info("reset", first[1], problems)


def _check_steps(env, steps, problems):
    length = env.episode_length
    for t, result in enumerate(steps[1:], start=1):
        where = f"step {t}"
        if not (isinstance(result, tuple) and len(result) == 5):
            problems.add(f"{where}: step() must return (obs, reward, terminated, truncated, info)")
            continue
        obs, reward, terminated, truncated, info = result
        _check_observation(env, where, obs, problems)
        if type(reward) is not float or not math.isfinite(reward):
            problems.add(f"{where}: reward {reward!r} is not a finite float")
        if type(terminated) is not bool or type(truncated) is not bool:
            problems.add(f"{where}: terminated and truncated must be bools")
        if terminated != (t == length):
            problems.add(f"{where}: terminated is {terminated} (episode_length {length})")
        if truncated:
            problems.add(f"{where}: truncated is True (episodes are never truncated)")
        _check_info(where, info, problems)


def _raises(env, action) -> str | None:
    """None if step(action) raised ValueError or TypeError with a message, else what happened."""
    try:
        env.step(action)
    except (ValueError, TypeError) as e:
        return None if str(e) else "raised with an empty message"
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        return f"raised {type(e).__name__} instead of ValueError or TypeError"
    return "was accepted"


def _check_bad_actions(env, seed, actions, steps, problems):
    """Bad actions at every step of the recorded episode; the episode must go on unchanged."""
    env.reset(seed=seed)
    for t, action in enumerate(actions):
        for name, bad in _bad_actions(env.action_space, steps[t][0], _masked_falls_back(env)):
            outcome = _raises(env, bad)
            if outcome:
                problems.add(f"step {t + 1}: an action that is {name} {outcome}")
                return  # the episode may have moved on: the rest would repeat the problem
        if not _same_step(env.step(action), steps[t + 1]):
            problems.add(f"step {t + 1}: after bad actions the episode differs from the replay")
            return
    outcome = _raises(env, actions[-1])
    if outcome:
        problems.add(f"a step after the episode ended {outcome}")


def _same_but_replaced(asked, direct) -> bool:
    """A masked action's step against its fallback's: the same but info's replaced_action."""
    a_info = {k: v for k, v in asked[4].items() if k != "replaced_action"}
    d_info = {k: v for k, v in direct[4].items() if k != "replaced_action"}
    return (_obs_equal(asked[0], direct[0]) and asked[1:4] == direct[1:4] and a_info == d_info
            and bool(asked[4].get("replaced_action")) and not direct[4].get("replaced_action"))


def _check_masked_fallback(make_fresh, seed, actions, steps, problems):
    """At the first and middle steps of the recorded episode, every masked action steps as its
    fallback does (each in a fresh environment replayed to that step)."""
    for t in sorted({0, len(actions) // 2}):
        obs = steps[t][0]
        for masked in _masked_actions(make_fresh().action_space, obs):
            taken = fallback_action(obs["action_mask"], masked)
            results = []
            for action in (masked, taken):
                env = make_fresh()
                env.reset(seed=seed)
                for a in actions[:t]:
                    env.step(a)
                results.append(env.step(action))
            if not _same_but_replaced(*results):
                problems.add(f"step {t + 1}: masked action {masked} does not step as its fallback "
                             f"{taken} with info['replaced_action'] set (masked_action=fallback)")
                return


def _check_render(env, problems):
    if not hasattr(env, "metadata"):
        return  # a wrapper of memplace's API alone (Gymnasium's envs all have metadata)
    modes = env.metadata.get("render_modes") if isinstance(env.metadata, dict) else None
    if not isinstance(modes, (list, tuple)):
        problems.add(f"metadata['render_modes'] is {modes!r}, not a list")
        return
    mode = getattr(env, "render_mode", None)
    if mode is not None and mode not in modes:
        problems.add(f"render_mode {mode!r} is not one of metadata['render_modes'] {modes}")
    if mode is None and env.render() is not None:
        problems.add("render() without a render mode returned something other than None")


def _check_passive_episode(env, seed, problems):
    """Gymnasium's passive checker steps unmasked action_space.sample() draws: under fallback a
    whole episode of them must run."""
    env.action_space.seed(seed)
    obs, _ = env.reset(seed=seed)
    for t in range(env.episode_length):
        obs, reward, terminated, _, _ = env.step(env.action_space.sample())
        if not env.observation_space.contains(obs):
            problems.add(f"unmasked episode step {t + 1}: the observation is not inside "
                         "observation_space")
            return
        if terminated != (t + 1 == env.episode_length):
            problems.add(f"unmasked episode step {t + 1}: terminated is {terminated}")
            return


def check_env(env, episodes: int = 2, seed: int = 1, make_fresh=None,
              max_problems: int = 20) -> list[str]:
    """Checks `env` (see the module's docstring) and returns the problems found (empty: it
    conforms). `make_fresh()` makes a new environment equal to env, for the determinism check;
    by default memplace.make(env.id, **env.options). The check steps env: reset it before use."""
    import memplace  # here: memplace imports this module

    if make_fresh is None:
        make_fresh = lambda: memplace.make(env.id, **env.options)  # noqa: E731
    problems = _Problems(max_problems)

    def stage(name, check, *args):
        # An exception a stage did not expect is a problem of the environment, not of the check.
        try:
            return check(*args)
        except _TooMany:
            raise
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            problems.add(f"{name}: unexpected {type(e).__name__}: {e}")
            return None

    def first_episode():
        actions, steps = _episode(env, seed)
        _check_steps(env, steps, problems)
        replayed = stage("replay in a fresh environment", lambda: _episode(fresh, seed, actions))
        if replayed and not all(_same_step(a, b) for a, b in zip(steps, replayed[1])):
            problems.add(f"a fresh environment replaying seed {seed} and the same actions gave "
                         "different results")
        stage("bad actions", _check_bad_actions, env, seed, actions, steps, problems)
        if _masked_falls_back(env):
            stage("masked actions", _check_masked_fallback, make_fresh, seed, actions, steps,
                  problems)

    try:
        stage("spaces", _check_spaces, env, problems)
        stage("render", _check_render, env, problems)
        fresh = stage("make_fresh()", make_fresh)
        if fresh is not None:
            outcome = stage("step before reset", _raises, fresh, fresh.action_space.sample())
            if outcome:
                problems.add(f"a step before the first reset {outcome}")
        stage("reset", _check_reset, env, seed, problems)
        if fresh is not None:
            stage("episode 1", first_episode)
        for e in range(1, episodes):
            stage(f"episode {e + 1}",
                  lambda e=e: _check_steps(env, _episode(env, seed + e)[1], problems))
        if _masked_falls_back(env):
            stage("unmasked episode", _check_passive_episode, env, seed, problems)
    except _TooMany:
        problems.append(f"(stopped after {max_problems} problems)")
    return list(problems)
