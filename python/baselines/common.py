"""What the Python baselines share (docs/leaderboard.md, "Python baselines"): the command line
of a suite run — which table, which folder — and the call that enters the agent's row in it."""

from __future__ import annotations

import argparse

import memplace
import memplace.suite


def parse_args(name: str, about: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=about)
    parser.add_argument("--out", default=f"runs/{name}-quick",
                        help="the table folder (default: %(default)s); a rerun completes it, and "
                             "a folder of memplace's agents' table gets the row added")
    parser.add_argument("--config", default="quick",
                        help="a table config: a shipped name or a YAML file (default: quick)")
    parser.add_argument("--instances", help="override the config's instances (comma-separated)")
    parser.add_argument("--seeds", type=int, help="override the config's number of seeds")
    parser.add_argument("--budget", type=int, help="override the evaluations per run")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    return parser.parse_args()


def run_baseline(agent, name: str, description: str, file: str, hyperparameters: dict,
                 args: argparse.Namespace, **kwargs) -> None:
    """Runs the agent over the table's cells (one torch thread: the same result on any machine)
    and prints the report."""
    import torch

    torch.set_num_threads(1)
    # Stable-Baselines3 builds a Categorical per tensor at every step (its MultiDiscrete
    # distribution); checking their arguments each time doubles the run's wall time and changes
    # no result (tests/python/test_baselines.py runs with the checks on).
    torch.distributions.Distribution.set_default_validate_args(False)
    report = memplace.suite.run(
        agent, name, out=args.out, description=description,
        # The commit is the submission's (`memplace submission pack --memplace`): a row's code
        # field is part of what its runs mean, and must not change with every commit.
        code=f"memplace python/baselines/{file}", config=args.config,
        hyperparameters=hyperparameters,
        instances=args.instances.split(",") if args.instances else None, seeds=args.seeds,
        budget=args.budget, progress=not args.quiet, **kwargs)
    print(report.markdown)
    print(f"table folder: {report.folder} ({report.files})")
