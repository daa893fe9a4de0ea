"""check_layering.py fails on what it exists to catch — an upward include, a mutual include inside
a folder, a detail:: name used from another folder, an exception that no longer occurs — and
passes a tree without them. Each case is a small git repository made here."""

import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layering.py")

CLEAN = {
    "base/text.hpp": "#pragma once\n",
    "model/kernel.hpp": '#include "base/text.hpp"\n',
    "model/plan.hpp": '#include "model/kernel.hpp"\n'
                      "namespace detail {\nstruct Plan {};\n}  // namespace detail\n",
    "model/plan.cpp": '#include "model/plan.hpp"\nvoid f(detail::Plan) {}\n',
    "env/env.hpp": '#include "model/kernel.hpp"\n#include <array>\nstd::array<int, 1> a;\n',
    "tests/model/test_plan.cpp": '#include "model/plan.hpp"\ndetail::Plan p;\n',
}


def check(files):
    with tempfile.TemporaryDirectory() as repo:
        for name, text in files.items():
            os.makedirs(os.path.join(repo, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
        subprocess.run(["git", "init", "-q", repo], check=True)
        run = subprocess.run([sys.executable, CHECKER, repo], capture_output=True, text=True)
        return run.returncode, run.stdout


class CheckLayeringTest(unittest.TestCase):
    def test_a_clean_tree_passes(self):
        code, out = check(CLEAN)
        self.assertEqual(code, 0, out)
        self.assertIn("every include points down", out)

    def test_an_upward_include_fails(self):
        code, out = check({**CLEAN, "base/text.hpp": '#include "env/env.hpp"\n'})
        self.assertEqual(code, 1)
        self.assertIn("base/text.hpp:1: the base floor includes env/env.hpp of the env floor "
                      "above it", out)

    def test_a_mutual_include_inside_a_folder_fails(self):
        code, out = check({**CLEAN, "env/registry.hpp": '#include "env/vector_env.hpp"\n',
                           "env/vector_env.cpp": '#include "env/registry.hpp"\n'})
        self.assertEqual(code, 1)
        self.assertIn("env/registry and env/vector_env include each other", out)

    def test_a_detail_name_used_from_another_folder_fails(self):
        code, out = check({**CLEAN, "env/env.cpp": '#include "model/plan.hpp"\n'
                                                   "detail::Plan plan;\n"})
        self.assertEqual(code, 1)
        self.assertIn("env/env.cpp: uses detail::Plan of another folder", out)

    def test_a_mutual_include_between_folders_of_one_floor_fails(self):
        # model/ and model/dynamics/ are one floor: a cycle through the subfolder is still one.
        code, out = check({**CLEAN, "model/simulator.hpp": '#include "model/dynamics/run.hpp"\n',
                           "model/dynamics/run.cpp": '#include "model/simulator.hpp"\n'})
        self.assertEqual(code, 1)
        self.assertIn("model/dynamics/run and model/simulator include each other", out)

    def test_an_exception_that_no_longer_occurs_fails(self):
        # model/inputs/procedural and model/inputs/workload are an allowed mutual include; both
        # exist here and do not include each other.
        code, out = check({**CLEAN, "model/inputs/workload.hpp": "#pragma once\n",
                           "model/inputs/procedural.hpp": '#include "model/inputs/workload.hpp"\n'})
        self.assertEqual(code, 1)
        self.assertIn("model/inputs/procedural and model/inputs/workload no longer include each "
                      "other", out)


if __name__ == "__main__":
    unittest.main()
