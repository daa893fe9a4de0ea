"""Suite runs from Python: any agent over a suite table's cells, its evaluations scored, counted
against the budget and recorded by memplace, the table's report written as `memplace table`
writes it (docs/python.md, "Suite runs"; docs/leaderboard.md to enter the leaderboard).

    import memplace.suite

    def random_agent(env, budget, seed):
        env.action_space.seed(seed)
        env.reset(seed=seed)
        while True:  # memplace stops the agent at the budget
            env.step(env.action_space.sample())

    report = memplace.suite.run(random_agent, "my-random", out="runs/my-random",
                                description="uniform random mappings", code="my repo @ 1a2b3c4")
    print(report.markdown)

An agent is any callable ``agent(env, budget, seed)``: it plays ``env`` — one environment of the
run's instance, a memplace.Env, or a Gymnasium env with ``gymnasium=True`` — and may return when
it is done or step on until memplace stops it. Every mapping it completes is one evaluation
(docs/agents.md): a single-step env's step, a sequential env's episode. The run ends when the
agent returns, or at the first step (or reset) after the budget is spent, where env raises
memplace.BudgetExhausted and the run says so; the agent never sees an evaluation past the budget.
With ``num_envs=n`` the agent gets a list of n envs of the instance that share the run's budget, to
build its vector env from (Stable-Baselines3's DummyVecEnv, Gymnasium's SyncVectorEnv): they are
stepped in turn, so the order of evaluations, and the run, stays the seed's.
An agent that raises anything else stops the suite run: its unfinished run is run again by the
next call with the same arguments, and the finished ones are kept.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import memplace
from memplace import _memplace

__all__ = ["run", "SuiteReport", "table_config", "BudgetExhausted", "ENV_KINDS"]

BudgetExhausted = _memplace.BudgetExhausted

# The env kinds a suite run can give an agent: those whose mappings the table's cost model scores.
ENV_KINDS = ("single-step", "sequential")

# The libraries recorded in each run's run.yaml when the agent has imported them.
_LIBRARIES = ("torch", "gymnasium", "stable_baselines3", "sb3_contrib")

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


@dataclass
class SuiteReport:
    """What a suite run leaves: the table folder, its report (suite.md for a suite table), the
    files written, the runs made by this call and the table's runs still missing."""

    folder: str
    markdown: str
    files: str
    runs_made: int
    runs_missing: int


def table_config(name: str) -> str:
    """The path of a shipped table config by name ("quick": the quick suite table of `make run`,
    docs/results/suite-quick.yaml), or `name` itself when it is a file."""
    if os.path.isfile(name):
        return name
    file = f"suite-{name}.yaml"
    # The package holds a copy of docs/results' suite tables (python/CMakeLists.txt).
    candidates = [Path(__file__).resolve().parent / "tables" / file,
                  Path(sys.prefix) / "share" / "memplace" / "tables" / file]
    for path in candidates:
        if path.is_file():
            return str(path)
    raise ValueError(f"config: '{name}' is neither a file nor a shipped table config "
                     f"(looked for {file} in " + ", ".join(str(p.parent) for p in candidates)
                     + ")")


def _option_text(key: str, value) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"hyperparameters: {key!r} is not a name (letters, digits, _ . -)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str, np.integer, np.floating)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_option_text(key, v) for v in value) + "]"
    raise TypeError(f"hyperparameters.{key}: {type(value).__name__} is not recorded "
                    "(give a number, a string, a bool or a list of them)")


def _libraries(extra: dict | None) -> dict:
    found = {"python": sys.version.split()[0], "numpy": np.__version__,
             "memplace": memplace.__version__}
    for name in _LIBRARIES:
        module = sys.modules.get(name)
        if module is not None:
            found[name] = str(getattr(module, "__version__", "unknown"))
    for name, version in (extra or {}).items():
        found[str(name)] = str(version)
    return found


class _Budget:
    """What the budgeted envs share: every completed mapping goes to the run's recorder (scored
    in C++ under the table's scoring); a step or reset once the budget is spent raises."""

    def _setup(self, run, kind: str):
        self._run = run
        self._kind = kind

    def reset(self, *, seed=None, options=None):
        self._run.require_budget_left()
        return self.env.reset(seed=seed, options=options)

    def step(self, action):
        self._run.require_budget_left()
        result = self.env.step(action)
        if self._kind == "single-step":
            self._run.evaluate(action)
        elif result[2]:  # terminated: the episode's mapping is complete
            self._run.evaluate(self._mapping())
        return result

    @property
    def evaluations(self) -> int:
        """Evaluations spent so far in this run."""
        return self._run.evaluations

    @property
    def budget(self) -> int:
        return self._run.budget


class _BudgetedEnv(_Budget):
    """A memplace.Env whose evaluations count against the run's budget (everything else is the
    env's own: spaces, action_masks(), simulator, mapping, ...)."""

    def __init__(self, env, run, kind):
        self.env = env
        self._setup(run, kind)

    def _mapping(self):
        return self.env.mapping

    def __getattr__(self, name):  # the env's own attributes
        return getattr(self.env, name)


def _gymnasium_budgeted(gymnasium):
    class BudgetedGymnasiumEnv(_Budget, gymnasium.Wrapper):
        """The Gymnasium env of the run's instance whose evaluations count against the budget."""

        def __init__(self, env, run, kind):
            gymnasium.Wrapper.__init__(self, env)
            self._setup(run, kind)

        def _mapping(self):
            return self.env.unwrapped.mapping

        def action_masks(self):
            return self.env.unwrapped.action_masks()

    return BudgetedGymnasiumEnv


def _budgeted_env(env_id: str, kind: str, observation: str, options: dict, gymnasium: bool, run):
    """One env of the run's instance (a memplace.Env, or a Gymnasium env made by gymnasium.make)
    whose evaluations go to ``run``."""
    if gymnasium:
        import gymnasium as gym
        return _gymnasium_budgeted(gym)(gym.make(env_id, observation=observation, **options), run,
                                        kind)
    return _BudgetedEnv(memplace.make(env_id, observation, **options), run, kind)


def _env_options(kind: str, table_options: dict) -> dict:
    """The options the agent's env is made with: the table's model options, and for the
    single-step env its scoring too (the reward it sees is the one recorded)."""
    model = {k: table_options[k] for k in ("memory_time", "dynamics", "lookahead")
             if k in table_options}
    if kind == "single-step":
        return {**model, **{k: table_options[k] for k in ("reward", "invalid")
                            if k in table_options}}
    return {**model, "masked_action": "fallback"}


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


def run(agent, name: str, *, out, description: str, code: str, config: str = "quick",
        env: str = "single-step", observation: str = "flat", gymnasium: bool = False,
        hyperparameters: dict | None = None, libraries: dict | None = None,
        instances: list | None = None, seeds: int | None = None, budget: int | None = None,
        num_envs: int = 1, progress: bool = True) -> SuiteReport:
    """Runs ``agent(env, budget, seed)`` on every cell (instance x seed) of a suite table, as the
    table's row ``name``, into the table folder ``out``, and writes the table's report.

    config: a table config (a shipped name — "quick", the default — or a YAML file; docs/table.md);
        ``instances``, ``seeds`` and ``budget`` override its fields. If ``out`` holds a table
        already (of memplace's agents, say), the row is added to it: its config must agree.
    name, description, code: the row's name (not one of memplace's agents), what the agent is, and
        where its code is with its version — recorded in the table's config, and what a
        submission packed from the folder shows (docs/leaderboard.md).
    env: "single-step" (one evaluation per step) or "sequential" (one per episode).
    observation: "flat" or "graph" (memplace.make's). gymnasium: give a Gymnasium env (made by
        gymnasium.make, with its checker wrappers) instead of a memplace.Env.
    hyperparameters: the agent's, recorded in the config (numbers, strings, bools, lists).
    libraries: versions to record besides Python, numpy, memplace and, when imported, torch,
        Gymnasium, Stable-Baselines3 and sb3-contrib.
    num_envs: 1 (the default) gives the agent one env; n > 1 a list of n envs sharing the budget.

    Resumable: finished runs are kept, an unfinished one is run again. Returns a SuiteReport;
    raises ValueError (memplace.InputError) for a bad config or folder.
    """
    if env not in ENV_KINDS:
        raise ValueError(f"env: {env!r} (a suite run plays one of {', '.join(ENV_KINDS)})")
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs: {num_envs!r} (give a whole number, at least 1)")
    if not callable(agent):
        raise TypeError("agent must be callable as agent(env, budget, seed)")
    for field, value in (("name", name), ("description", description), ("code", code)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{field}: give a non-empty string")
    hp = {k: _option_text(k, v) for k, v in (hyperparameters or {}).items()}
    if gymnasium:
        import gymnasium as gym  # noqa: F401  (ImportError names what is missing)
        importlib.import_module("memplace.gymnasium")  # registers the ids
    path = table_config(config)
    table = _memplace._open_table(Path(path).read_text(), path, os.fspath(out), name,
                                  {"description": description, "code": code, "env": env}, hp,
                                  instances, seeds, budget)
    cells = [c for c in table["cells"] if c[0] == name]
    todo = [c for c in cells if not c[4]]
    log = sys.stderr if progress else None
    if log:
        done = len(cells) - len(todo)
        print(f"suite run: {name} on {len(table['workloads'])} instances x {table['seeds']} "
              f"seeds of {table['budget']} evaluations into {os.fspath(out)}"
              + (f" ({done} finished runs kept)" if done else ""), file=log)
    options = _env_options(env, table["env_options"])
    started = time.monotonic()
    for k, (row, instance, seed, _folder, _finished) in enumerate(todo):
        workload, hardware = instance.split("@")
        env_id = memplace.env_id(env, table["cost_model"], workload, hardware)
        recorder = _memplace._ExternalRun(os.fspath(out), row, instance, seed)
        played = [_budgeted_env(env_id, env, observation, options, gymnasium, recorder)
                  for _ in range(num_envs)]
        try:
            agent(played if num_envs > 1 else played[0], recorder.budget, int(seed))
            status = f"returned after {recorder.evaluations} evaluations"
        except BudgetExhausted:
            status = f"stopped at the budget of {recorder.budget} evaluations"
        finally:
            for each in played:
                each.close()
        facts = {"env": env_id, "observation": observation,
                 "api": "gymnasium" if gymnasium else "memplace",
                 **({"num_envs": str(num_envs)} if num_envs > 1 else {}),
                 **{f"library.{k}": v for k, v in _libraries(libraries).items()}}
        result = recorder.finish(status, facts)
        if log:
            elapsed = time.monotonic() - started
            left = elapsed / (k + 1) * (len(todo) - k - 1)
            speedup = (f"{result['best_speedup']:.4f}x" if result["found_valid"]
                       else "no valid mapping")
            print(f"[{len(cells) - len(todo) + k + 1}/{len(cells)}] {row} on {instance}, seed "
                  f"{seed}: {speedup}, {status} ({_duration(elapsed)} elapsed"
                  + (f", about {_duration(left)} left" if left > 0 else "") + ")", file=log)
    markdown, files, missing = _memplace._table_report(os.fspath(out))
    return SuiteReport(os.fspath(out), markdown, files, len(todo), missing)
