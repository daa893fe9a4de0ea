"""The floors' arrows point one way: every #include "folder/..." in the code goes to the same floor
or one below it (docs/architecture.md). CMake's libraries link only downwards, but every target
sees the whole repository as its include root, so a header of a higher floor could still be
included from a lower one; this test forbids it.

Usage: check_layering.py [REPO]   (default: the current folder); exit 1 naming each upward include.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# Floors by folder, most specific first; a file belongs to the first prefix it starts with.
FLOORS = [
    ("base/", "base"),
    ("allocation/", "allocation"),
    ("model/inputs/", "model inputs"),
    ("model/", "model"),
    ("optimum/", "optimum"),
    ("env/", "env"),
    ("agents/nn/", "nn"),
    ("agents/training/", "training"),
    ("agents/search/", "algorithms"),
    ("agents/planning/", "algorithms"),
    ("agents/evolution/", "algorithms"),
    ("agents/policy_gradient/", "algorithms"),
    ("agents/sac/", "algorithms"),
    ("agents/", "agent interface"),
    ("workloads/tools/", "importer"),
    ("experiments/", "experiments"),
    ("apps/shared/", "apps shared"),
    ("apps/", "apps"),
    ("python/", "python"),
]
# What each floor may include besides itself: the floors below it, and (for the algorithms) the
# shared learners beside them (egrl is ea's population with sac's learner).
BELOW = {
    "base": set(),
    "allocation": {"base"},
    "model inputs": {"base"},
    "model": {"allocation", "model inputs", "base"},
    "optimum": {"model", "allocation", "model inputs", "base"},
    "env": {"model", "allocation", "model inputs", "base"},
    "nn": {"env", "model", "allocation", "model inputs", "base"},
    "agent interface": {"nn", "env", "model", "allocation", "model inputs", "base"},
    "algorithms": {"agent interface", "nn", "env", "model", "allocation", "model inputs", "base"},
    "training": {"agent interface", "nn", "env", "model", "allocation", "model inputs", "base"},
    "importer": {"model inputs", "base"},
    "experiments": {"training", "agent interface", "algorithms", "nn", "optimum", "env", "model",
                    "allocation", "model inputs", "base"},
    "python": {"python", "experiments", "training", "agent interface", "algorithms", "nn",
               "optimum", "env", "model", "allocation", "model inputs", "base"},
}
BELOW["apps shared"] = set(BELOW) - {"python"}
BELOW["apps"] = BELOW["apps shared"] | {"apps shared"}


def floor_of(path):
    for prefix, floor in FLOORS:
        if path.startswith(prefix):
            return floor
    return None  # tests, bench, examples: above every floor


def main():
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    problems = []
    for name in files:
        if not name.endswith((".cpp", ".hpp")):
            continue
        floor = floor_of(name)
        if floor is None:
            continue
        with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = floor_of(match.group(1))
                if target is None:
                    # Above every floor: the tests, benchmarks and examples.
                    if match.group(1).startswith(("tests/", "bench/", "examples/")):
                        target = "tests, bench and examples"
                    else:
                        continue
                elif target == floor or target in BELOW[floor]:
                    continue
                problems.append(f"{name}:{number}: the {floor} floor includes {match.group(1)} "
                                f"of the {target} floor above it")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} upward include(s)" if problems
          else "layering: every include points down")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
