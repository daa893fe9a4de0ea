# Sourced by the scripts that test memplace's installed forms (install_prefix.sh, debian_package.sh,
# pip_install.sh), whose $1 is the program of the build under test: sets $build (its build
# folder), $work (a scratch folder, removed at exit) and fail(), and defines
# `check_installed PROGRAM PYTHON [PYTHONPATH]`, which runs an installed program and package from
# outside the repository: `memplace list` and `evaluate`, an episode through `import memplace`
# (which must come from the installed place, not the build tree), the shipped suite table that
# memplace.suite.run(config="quick") finds, and `python3 -m memplace`.
# The scripts run from the repository root (a mapping file to evaluate is taken from there).
build=$(readlink -f "$(dirname "$1")/..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

check_installed() {
  local program=$1 python=$2 pythonpath=${3:-}
  local where
  where=$(readlink -f "$(dirname "$program")/..")
  cp tests/data/good/chain.yaml tests/data/good/chain-mapping.yaml "$work/"
  (
    cd "$work" || exit 1
    "$program" list --ids > ids.txt 2> err.txt || fail "$program list: $(cat err.txt)"
    grep -qx "memplace/sequential-bert-base-on-nnpi-cm1-v0" ids.txt || fail "$program list misses an env"
    "$program" evaluate chain.yaml chain-mapping.yaml > eval.txt 2>&1 ||
      fail "$program evaluate: $(cat eval.txt)"
    grep -q "speedup" eval.txt || fail "$program evaluate printed no speedup: $(cat eval.txt)"
    PYTHONPATH=$pythonpath "$python" - "$where" > episode.txt 2>&1 <<'PY' || fail "import memplace: $(cat episode.txt)"
import os, sys
import memplace
where = sys.argv[1]
assert os.path.realpath(memplace.__file__).startswith(where + os.sep), (memplace.__file__, where)
env = memplace.make("memplace/sequential/resnet50-v1")
observation, info = env.reset(seed=3)
steps, done = 0, False
while not done:
    action = env.action_space.sample(mask=observation["action_mask"])
    observation, reward, terminated, truncated, info = env.step(action)
    steps, done = steps + 1, terminated or truncated
print("episode of", steps, "steps, speedup", info["speedup"])
import memplace.suite  # the shipped suite tables come with the package
assert os.path.isfile(memplace.suite.table_config("quick")), "no suite-quick.yaml installed"
PY
    grep -q "^episode of [1-9][0-9]* steps, speedup" episode.txt || fail "no episode: $(cat episode.txt)"
    PYTHONPATH=$pythonpath "$python" -m memplace list --ids > module-ids.txt 2>&1 ||
      fail "python3 -m memplace list: $(cat module-ids.txt)"
    cmp -s ids.txt module-ids.txt || fail "python3 -m memplace list differs from the program's list"
    PYTHONPATH=$pythonpath "$python" -m memplace evaluate chain.yaml missing.yaml > module-bad.txt 2>&1
    [ $? -eq 2 ] || fail "python3 -m memplace did not pass the program's exit code 2 through"
  ) || exit 1
}
