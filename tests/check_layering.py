"""The floors' arrows point one way (docs/architecture.md), and this test holds the code to it:

- every #include "folder/..." goes to the same floor or one below it. CMake's libraries link only
  downwards, but every target sees the whole repository as its include root, so a header of a
  higher floor could still be included from a lower one;
- inside a floor (model/ with model/dynamics/, a folder where no floor is named), no two files (a
  header and its source count as one) include each other: a cycle inside a floor is a floor that
  has not been cut where it should be;
- a name in a `namespace detail` is used only in the folder that declares it: another folder that
  needs it needs a public function instead. (tests/ and bench/ may test and time a detail.)

The exceptions that remain are listed below with why, and docs/architecture.md argues each; an
exception that no longer occurs fails the test too, so the list only shrinks.

Usage: check_layering.py [REPO]   (default: the current folder); exit 1 naming each problem.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
DETAIL_USE = re.compile(r"\bdetail::(\w+)")
DETAIL_BLOCK = re.compile(r"namespace (?:[\w:]+::)?detail \{(.*?)\}  // namespace "
                          r"(?:[\w:]+::)?detail", re.S)
DECLARED = re.compile(r"(?<![\w:.>])([A-Za-z_]\w*)\b")  # not std::array, not a.member

# Mutual includes inside a floor that remain, each argued in docs/architecture.md ("What the
# checks still allow"): the procedural graphs are a workload source the workload loader names.
ALLOWED_MUTUAL = {
    ("model/inputs/procedural", "model/inputs/workload"),
}
# detail:: names used from another folder that remain (docs/architecture.md): the optimum's
# streaming MIP is a formulation of the streaming dynamics' own plan, read as it is.
ALLOWED_DETAIL = {
    ("optimum", "StreamRead"),
    ("optimum", "StreamingPlan"),
}

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
    ("experiments/table/", "table"),
    ("experiments/charts/", "charts"),
    ("experiments/suite/", "suite table"),
    ("experiments/leaderboard/", "leaderboard"),
    ("experiments/generalization/", "generalization"),
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
    # The experiments' floors: the table, its figures, the suite table's report on both, and the
    # leaderboard and the generalization track above them.
    "table": {"training", "agent interface", "algorithms", "nn", "optimum", "env", "model",
              "allocation", "model inputs", "base"},
}
BELOW["charts"] = BELOW["table"] | {"table"}
BELOW["suite table"] = BELOW["charts"] | {"charts"}
BELOW["leaderboard"] = BELOW["suite table"] | {"suite table"}
BELOW["generalization"] = BELOW["suite table"] | {"suite table"}
EXPERIMENTS = {"table", "charts", "suite table", "leaderboard", "generalization"}
# The Python package also reads ONNX models (memplace.place, as `memplace place` does).
BELOW |= {
    "python": {"python", *EXPERIMENTS, "training", "agent interface", "algorithms", "nn",
               "importer", "optimum", "env", "model", "allocation", "model inputs", "base"},
}
BELOW["apps shared"] = set(BELOW) - {"python"}
BELOW["apps"] = BELOW["apps shared"] | {"apps shared"}


def floor_of(path):
    for prefix, floor in FLOORS:
        if path.startswith(prefix):
            return floor
    return None  # tests, bench, examples: above every floor


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as f:
        return f.read()


def module(path):
    """A header and its source are one module: "model/simulator" for either."""
    return os.path.splitext(path)[0]


def same_room(a, b):
    """Modules on one floor (model/ and model/dynamics/ are one), else in one folder."""
    floor_a, floor_b = floor_of(a + "/"), floor_of(b + "/")
    if floor_a is not None and floor_b is not None:
        return floor_a == floor_b
    return os.path.dirname(a) == os.path.dirname(b)


def mutual_includes(code):
    """Pairs of modules on one floor (or in one folder) that include each other's headers."""
    includes = {}
    for name in code:
        for line in read(name).splitlines():
            match = INCLUDE.match(line)
            if match and module(match.group(1)) != module(name):
                includes.setdefault(module(name), set()).add(module(match.group(1)))
    pairs = set()
    for a, targets in includes.items():
        for b in targets:
            if same_room(a, b) and a in includes.get(b, ()):
                pairs.add(tuple(sorted((a, b))))
    return pairs


def detail_names(code):
    """Each name a detail namespace declares, with the folders whose detail namespaces do."""
    declared = {}  # name -> folders whose detail namespaces mention it
    for name in code:
        if name.endswith(".hpp"):
            for block in DETAIL_BLOCK.findall(read(name)):
                for identifier in DECLARED.findall(block):
                    declared.setdefault(identifier, set()).add(os.path.dirname(name))
    return declared


def cross_folder_details(code, declared):
    """(folder, name, file) for each detail:: name used outside the folder that declares it."""
    uses = set()
    for name in code:
        if name.startswith(("tests/", "bench/")):  # white-box tests and kernel benchmarks
            continue
        folder = os.path.dirname(name)
        for used in DETAIL_USE.findall(read(name)):
            homes = declared.get(used, set())
            if homes and folder not in homes:
                uses.add((folder, used, name))
    return uses


def main():
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in files if os.path.exists(os.path.join(ROOT, f))]
    code = [f for f in files if f.endswith((".cpp", ".hpp"))]
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
    upward = len(problems)
    pairs = mutual_includes(code)
    for a, b in sorted(pairs - ALLOWED_MUTUAL):
        problems.append(f"{a} and {b} include each other (docs/architecture.md: cut the cycle)")
    modules = {module(name) for name in code}
    for a, b in sorted(ALLOWED_MUTUAL - pairs):
        if a in modules and b in modules:
            problems.append(f"{a} and {b} no longer include each other: take them off "
                            "ALLOWED_MUTUAL")
    declared = detail_names(code)
    details = cross_folder_details(code, declared)
    for folder, used, name in sorted(details):
        if (folder, used) not in ALLOWED_DETAIL:
            problems.append(f"{name}: uses detail::{used} of another folder (give it a public "
                            "function instead)")
    folders = {os.path.dirname(name) for name in code}
    for folder, used in sorted(ALLOWED_DETAIL - {(f, u) for f, u, _ in details}):
        if folder in folders and used in declared:
            problems.append(f"{folder}/ no longer uses detail::{used}: take it off ALLOWED_DETAIL")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} problem(s), {upward} of them upward includes" if problems
          else f"layering: every include points down; {len(ALLOWED_MUTUAL)} mutual includes and "
               f"{len(ALLOWED_DETAIL)} cross-folder detail uses remain, as argued")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
