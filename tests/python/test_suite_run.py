"""memplace.suite.run: a plain-Python agent's suite run (no Gymnasium needed). The budget is
enforced and counted as docs/agents.md counts it (a single-step step, a sequential episode); the
recorded best is the simulator's score of the best mapping played (hand-checked); a stopped call
keeps its finished runs and reruns the interrupted one; the report is `memplace table`'s for the
same runs; the folder packs into a submission that checks, and a hand-edited claim is caught."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import memplace
import memplace.suite

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("MEMPLACE_BUILD_DIR", os.path.join(ROOT, "build", "default"))
MEMPLACE = os.path.join(BUILD, "apps", "memplace")
INSTANCES = ["resnet18-b1@edge-tpu", "distilbert-b1-s128@nnpi"]
ABOUT = {"description": "test agent", "code": "tests/python/test_suite_run.py"}


def read_yaml_fields(path):
    """A flat YAML file's fields as strings (the run folder's files are flat)."""
    fields = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip().strip('"')
    return fields


def memplace_cli(*args):
    return subprocess.run([MEMPLACE, *args], capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))


def forever(env, budget, seed):
    """Plays uniformly random mappings (one-step episodes) until memplace stops it."""
    env.action_space.seed(seed)
    env.reset(seed=seed)
    while True:
        env.step(env.action_space.sample())
        env.reset()


class SuiteRunTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.work)

    def out(self, name="table"):
        return os.path.join(self.work, name)

    def run_suite(self, agent, name="py-agent", out=None, **kwargs):
        kwargs = {"instances": INSTANCES[:1], "seeds": 1, "budget": 20, "progress": False,
                  **ABOUT, **kwargs}
        return memplace.suite.run(agent, name, out=out or self.out(), **kwargs)

    def result(self, out, row, instance, seed):
        return read_yaml_fields(os.path.join(out, "runs", f"{row}-{instance}-s{seed}",
                                             "result.yaml"))

    def test_an_agent_that_steps_on_is_stopped_at_the_budget(self):
        seen = []

        def agent(env, budget, seed):
            seen.append(budget)
            forever(env, budget, seed)

        report = self.run_suite(agent, budget=25)
        self.assertEqual(seen, [25])
        r = self.result(self.out(), "py-agent", INSTANCES[0], 0)
        self.assertEqual(r["evaluations"], "25")
        self.assertEqual(r["agent_status"], "stopped at the budget of 25 evaluations")
        self.assertEqual(report.runs_made, 1)
        self.assertEqual(report.runs_missing, 0)
        curve = np.loadtxt(os.path.join(self.out(), "runs", f"py-agent-{INSTANCES[0]}-s0",
                                        "curve.csv"), delimiter=",", skiprows=1)
        self.assertEqual(curve[-1, 0], 25)

    def test_the_agent_never_sees_an_evaluation_past_the_budget(self):
        steps = []

        def agent(env, budget, seed):
            while True:
                try:
                    env.reset(seed=seed)
                    env.step(env.action_space.sample())
                except memplace.BudgetExhausted:
                    steps.append(env.evaluations)
                    env.reset()  # asking again changes nothing

        self.run_suite(agent, budget=7)
        self.assertEqual(steps, [7])
        self.assertEqual(self.result(self.out(), "py-agent", INSTANCES[0], 0)["evaluations"], "7")

    def test_the_best_is_the_simulators_score_of_the_best_mapping_played(self):
        played = {}

        def agent(env, budget, seed):
            sim = env.simulator
            compiler = np.asarray(sim.compiler_mapping())
            slowest = np.asarray(sim.all_slowest_mapping())
            for mapping in (slowest, compiler, slowest):
                env.reset(seed=seed)
                env.step(mapping)
            compiler_fs = sim.evaluate(compiler).latency_fs
            played["best"] = max(compiler_fs / sim.evaluate(m).latency_fs
                                 for m in (slowest, compiler))

        self.run_suite(agent, budget=10)
        r = self.result(self.out(), "py-agent", INSTANCES[0], 0)
        self.assertEqual(r["evaluations"], "3")
        self.assertEqual(r["agent_status"], "returned after 3 evaluations")
        self.assertEqual(r["found_valid"], "true")
        self.assertAlmostEqual(float(r["best_speedup"]), played["best"], places=12)
        self.assertAlmostEqual(played["best"], 1.0, places=12)  # the compiler's own mapping
        best = os.path.join(self.out(), "runs", f"py-agent-{INSTANCES[0]}-s0",
                            "best_mapping.yaml")
        check = memplace_cli("evaluate", "resnet18-b1", best)  # re-checks the recorded latency
        self.assertEqual(check.returncode, 0, check.stderr)

    def test_a_sequential_episode_is_one_evaluation(self):
        episodes = []

        def agent(env, budget, seed):
            obs, _ = env.reset(seed=seed)
            n = 0
            while True:
                mask = obs["action_mask"].astype(bool)
                obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[-1]))
                if terminated or truncated:
                    n += 1
                    episodes.append(env.evaluations)
                    if n == 4:
                        return
                    obs, _ = env.reset()

        self.run_suite(agent, env="sequential", budget=10)
        self.assertEqual(episodes, [1, 2, 3, 4])
        r = self.result(self.out(), "py-agent", INSTANCES[0], 0)
        self.assertEqual(r["evaluations"], "4")
        facts = read_yaml_fields(os.path.join(self.out(), "runs", f"py-agent-{INSTANCES[0]}-s0",
                                              "run.yaml"))
        self.assertEqual(facts["env"],
                         "memplace/sequential-resnet18-b1-on-edge-tpu-cm1-v0")
        self.assertEqual(facts["library.numpy"], np.__version__)

    def test_several_envs_share_one_budget(self):
        played = []  # (env index, evaluations after its step)

        def agent(envs, budget, seed):
            self.assertEqual(len(envs), 3)
            for i, env in enumerate(envs):
                env.action_space.seed(seed + i)
                env.reset(seed=seed + i)
            while True:  # the way a DummyVecEnv steps its copies: in turn
                for i, env in enumerate(envs):
                    env.step(env.action_space.sample())
                    played.append((i, env.evaluations))
                    env.reset()

        self.run_suite(agent, budget=8, num_envs=3)
        self.assertEqual(played, [(k % 3, k + 1) for k in range(8)])
        r = self.result(self.out(), "py-agent", INSTANCES[0], 0)
        self.assertEqual(r["evaluations"], "8")
        self.assertEqual(r["agent_status"], "stopped at the budget of 8 evaluations")
        facts = read_yaml_fields(os.path.join(self.out(), "runs", f"py-agent-{INSTANCES[0]}-s0",
                                              "run.yaml"))
        self.assertEqual(facts["num_envs"], "3")
        one = self.out("one")  # one env: no num_envs field, and a single env, not a list
        self.run_suite(lambda env, budget, seed: self.assertIsInstance(env.evaluations, int),
                       out=one)
        self.assertNotIn("num_envs", read_yaml_fields(
            os.path.join(one, "runs", f"py-agent-{INSTANCES[0]}-s0", "run.yaml")))

    def test_a_stopped_call_keeps_finished_runs_and_reruns_the_interrupted_one(self):
        calls = []

        def interrupted(env, budget, seed):
            calls.append(seed)
            if seed == 1:
                env.reset(seed=seed)
                env.step(env.action_space.sample())
                raise KeyboardInterrupt
            forever(env, budget, seed)

        with self.assertRaises(KeyboardInterrupt):
            self.run_suite(interrupted, seeds=3)
        first = self.result(self.out(), "py-agent", INSTANCES[0], 0)
        self.assertFalse(os.path.exists(os.path.join(
            self.out(), "runs", f"py-agent-{INSTANCES[0]}-s1", "result.yaml")))
        calls.clear()

        def agent(env, budget, seed):
            calls.append(seed)
            forever(env, budget, seed)

        report = self.run_suite(agent, seeds=3)
        self.assertEqual(calls, [1, 2])
        self.assertEqual(report.runs_made, 2)
        self.assertEqual(self.result(self.out(), "py-agent", INSTANCES[0], 0), first)

    def test_the_report_is_memplace_tables_for_the_same_runs(self):
        report = self.run_suite(forever, instances=INSTANCES, seeds=2, budget=30)
        self.assertIn("IQM", report.markdown)
        files = ["suite.md", "suite.csv", "table.csv", "table.md", "shares.csv", "profile.csv"]
        written = {}
        for name in files:
            with open(os.path.join(self.out(), name)) as f:
                written[name] = f.read()
        for name in files:
            os.remove(os.path.join(self.out(), name))
        cli = memplace_cli("table", os.path.join(self.out(), "config.yaml"), "--out",
                           self.out(), "-q")
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertIn("py-agent", cli.stdout)

        def comparable(name, text):
            if name == "suite.md":  # the equal-wall-time section differs between reruns
                return text.split("## At equal wall time")[0]
            if name == "table.md":
                return re.sub(r"\| [0-9.]+ s \|", "| s |", text)
            return text

        for name in files:
            with open(os.path.join(self.out(), name)) as f:
                self.assertEqual(comparable(name, f.read()), comparable(name, written[name]),
                                 name)

    def test_the_folder_packs_into_a_submission_that_checks_and_catches_edits(self):
        def compiler_then_random(env, budget, seed):
            env.reset(seed=seed)
            env.step(np.asarray(env.simulator.compiler_mapping()))  # valid: a best to claim
            forever(env, budget, seed)

        self.run_suite(compiler_then_random, instances=INSTANCES, seeds=2, budget=30,
                       hyperparameters={"net_arch": [64, 64], "lr": 3e-4, "masked": True})
        with open(os.path.join(self.out(), "config.yaml")) as f:
            config = f.read()
        self.assertIn("external:\n  py-agent:\n    description: \"test agent\"", config)
        self.assertIn('net_arch: "[64, 64]"', config)
        packed = self.out("packed")
        pack = memplace_cli("submission", "pack", self.out(), "--out", packed, "--name", "t",
                            "--authors", "me", "--code", "here", "--memplace", "abc")
        self.assertEqual(pack.returncode, 0, pack.stderr + pack.stdout)
        with open(os.path.join(packed, "submission.yaml")) as f:
            self.assertIn('py-agent: "test agent"', f.read())
        board = memplace_cli("submission", "leaderboard", packed)
        self.assertEqual(board.returncode, 0, board.stderr)
        self.assertIn("| py-agent (external) |", board.stdout)

        run = f"py-agent-{INSTANCES[1]}-s1"
        result = os.path.join(packed, "runs", run, "result.yaml")
        with open(result) as f:
            text = f.read()
        with open(result, "w") as f:
            f.write(re.sub(r"best_speedup: (\S+)", "best_speedup: 1.5", text))
        check = memplace_cli("submission", "check", packed)
        self.assertEqual(check.returncode, 1, check.stdout + check.stderr)
        self.assertIn(f"{run}: claims a best speedup of 1.5", check.stdout)
        with open(result, "w") as f:
            f.write(text)
        os.remove(os.path.join(packed, "runs", run, "run.yaml"))
        check = memplace_cli("submission", "check", packed)
        self.assertEqual(check.returncode, 2)
        self.assertIn("run.yaml: missing", check.stderr)

    def test_a_python_row_joins_a_table_of_memplaces_agents(self):
        cli = memplace_cli("table", "--suite", "v1", "--agents", "random", "--workloads",
                           INSTANCES[0], "--seeds", "1", "--budget", "20", "-q", "--out",
                           self.out())
        self.assertEqual(cli.returncode, 0, cli.stderr)
        report = self.run_suite(forever)
        self.assertEqual(report.runs_made, 1)
        self.assertEqual(report.runs_missing, 0)
        self.assertIn("random", report.markdown)
        self.assertIn("py-agent", report.markdown)
        # memplace table on the folder reads the external row's runs and runs nothing.
        cli = memplace_cli("table", os.path.join(self.out(), "config.yaml"), "--out", self.out())
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertNotIn("runs of external agents", cli.stderr)

    def test_memplace_table_leaves_an_external_rows_runs_to_its_code(self):
        os.makedirs(self.out())
        config = os.path.join(self.work, "config.yaml")
        with open(config, "w") as f:
            f.write("suite: v1\nworkloads: [resnet18-b1@edge-tpu]\nagents: [random, mine]\n"
                    "seeds: 1\nbudget: 20\nexternal:\n  mine: {description: d, code: c, "
                    "env: single-step}\n")
        cli = memplace_cli("table", config, "--out", self.out(), "-q")
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertIn("1 runs of external agents (mine) are not in", cli.stderr)
        self.assertTrue(os.path.exists(os.path.join(
            self.out(), "runs", "random-resnet18-b1@edge-tpu-s0", "result.yaml")))

    def test_bad_input_is_named(self):
        with self.assertRaisesRegex(ValueError, "'ppo' is an agent's own name"):
            self.run_suite(forever, name="ppo")
        with self.assertRaisesRegex(ValueError, "env: 'malloc'"):
            self.run_suite(forever, env="malloc")
        with self.assertRaisesRegex(ValueError, "description: give a non-empty string"):
            self.run_suite(forever, description="")
        with self.assertRaisesRegex(ValueError, "hyperparameters: 'a b' is not a name"):
            self.run_suite(forever, hyperparameters={"a b": 1})
        with self.assertRaisesRegex(ValueError, "neither a file nor a shipped table config"):
            self.run_suite(forever, config="nonesuch")
        with self.assertRaisesRegex(ValueError, "num_envs: 0 "):
            self.run_suite(forever, num_envs=0)
        with self.assertRaisesRegex(ValueError, "'nowhere@edge-tpu' is not an instance"):
            self.run_suite(forever, instances=["nowhere@edge-tpu"])
        # A different budget on a folder with finished runs would change their meaning.
        self.run_suite(forever)
        with self.assertRaisesRegex(ValueError, "budget: 20 -> 30"):
            self.run_suite(forever, budget=30)


if __name__ == "__main__":
    unittest.main()
