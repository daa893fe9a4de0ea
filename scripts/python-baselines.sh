#!/usr/bin/env bash
# The Python baselines of docs/leaderboard.md ("Python baselines"): the CleanRL-style PPO,
# Stable-Baselines3 PPO and sb3-contrib MaskablePPO (python/baselines/) on the quick suite table,
# one table folder with a row each, packed and checked as a submission.
#
#   scripts/python-baselines.sh [--out DIR] [--submission DIR]
#
#   --out         the table folder (default runs/python-baselines-quick; a rerun completes it)
#   --submission  the submission folder to pack it into (default
#                 submissions/python-baselines-quick-v1; must not exist)
#
# Needs `make build`, Debian's python3-torch (scripts/install-deps.sh python-agents) and
# Gymnasium 1.0, Stable-Baselines3 2.4.1 and sb3-contrib 2.4.0 on PYTHONPATH (docs/python.md, "The
# library set"). Hours, not minutes: on one core of the 2-core Intel Xeon VM the CleanRL-style PPO
# takes 6 minutes, Stable-Baselines3's PPO about 2 hours 20 minutes (its MultiDiscrete
# distribution is a Categorical per tensor), MaskablePPO about 4 hours 30 minutes. A rerun resumes
# the finished runs, and the three can run side by side on a machine with the cores (start them a
# few seconds apart).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=runs/python-baselines-quick
submission=submissions/python-baselines-quick-v1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --submission) submission=${2:?--submission needs a folder}; shift 2 ;;
    *) echo "python-baselines: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
memplace=$repo/build/default/apps/memplace
export PYTHONPATH=$repo/build/default/python${PYTHONPATH:+:$PYTHONPATH}
for baseline in cleanrl_ppo sb3_ppo sb3_maskable_ppo; do
  echo "python-baselines: $baseline" >&2
  OMP_NUM_THREADS=1 /usr/bin/python3 "$repo/python/baselines/$baseline.py" --out "$out" > /dev/null
done
"$memplace" submission pack "$out" --out "$submission" \
  --name "Python baselines, quick suite table" --authors "memplace" \
  --code "memplace python/baselines/" --memplace "$(git -C "$repo" rev-parse --short HEAD)"
