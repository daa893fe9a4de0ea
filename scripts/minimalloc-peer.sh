#!/usr/bin/env bash
# MiniMalloc (Moffitt, ASPLOS 2023) beside `memplace pack`, measured in one run on one core
# (docs/allocation.md, "Against MiniMalloc"). Builds MiniMalloc from its public source with
# Debian's Abseil, then runs both solvers on the same problems, alternated, RUNS times each, and
# prints a markdown table: per problem each solver's median wall time (the whole process: reading,
# solving, writing) and their ratio. Every packing, MiniMalloc's too, is checked with
# `memplace pack --check`; a run that fails the check, or ends without a packing, counts as the
# time limit. A peer for measurement only: nothing of MiniMalloc is linked into memplace.
#
# Usage: scripts/minimalloc-peer.sh MEMPLACE RUNS TIME_LIMIT_SECONDS FILE.csv:CAPACITY ...
# Environment:
#   MINIMALLOC_SOURCE  a git checkout or URL of MiniMalloc (default https://github.com/google/minimalloc)
#   MINIMALLOC_COMMIT  the commit built (default e9eaf54, 2024-08-11: the last that builds with
#                      bookworm's Abseil 20220623; later commits add absl/log, a capacity
#                      minimisation and Python bindings, and change no search rule)
#   PEER_DIR           where it is built (default build/peers/minimalloc)
#   CORE               the core both solvers run on (default 1)
# Run it alone on a quiet machine. Installs what it needs: scripts/install-deps.sh peers.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 MEMPLACE RUNS TIME_LIMIT_SECONDS FILE.csv:CAPACITY ..." >&2
  exit 2
fi
memplace=$1
runs=$2
limit=$3
shift 3
source_repo=${MINIMALLOC_SOURCE:-https://github.com/google/minimalloc}
commit=${MINIMALLOC_COMMIT:-e9eaf54094025e1c246f9ec231b905f8ef42a29d}
peer=${PEER_DIR:-build/peers/minimalloc}
core=${CORE:-1}
here=$(cd "$(dirname "$0")" && pwd)
"$here/install-deps.sh" peers >&2

# Build, once per commit.
binary="$peer/minimalloc-$commit"
if [ ! -x "$binary" ]; then
  rm -rf "$peer/src"
  mkdir -p "$peer"
  git clone --quiet "$source_repo" "$peer/src"
  git -C "$peer/src" checkout --quiet "$commit"
  # Debian builds Abseil with its own string_view (absl::string_view is not std::string_view
  # there), and MiniMalloc's CSV reader names std::string_view in one loop: the one edit made,
  # outside the search code.
  sed -i 's/const std::string_view& record/const absl::string_view\& record/' \
    "$peer/src/src/converter.cc"
  absl=(absl_flags absl_flags_parse absl_statusor absl_status absl_strings absl_time
        absl_raw_hash_set absl_hash absl_btree)
  # shellcheck disable=SC2046  # pkg-config's flags are meant to split
  g++ -std=c++20 -O3 -DNDEBUG -I"$peer/src/src" -o "$binary.tmp" \
    "$peer/src/src/"{converter,minimalloc,solver,sweeper,validator,main}.cc \
    $(pkg-config --cflags --libs "${absl[@]}")
  mv "$binary.tmp" "$binary"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
# timed OUT CAPACITY COMMAND...: COMMAND's wall seconds on the core when OUT then holds a packing
# that passes `memplace pack --check`, else the time limit.
timed() {
  local out=$1 capacity=$2 start end=
  shift 2
  rm -f "$out"
  start=$(now)
  taskset -c "$core" "$@" > /dev/null 2>&1 && end=$(now)
  if [ -n "$end" ] && "$memplace" pack --check "$out" --capacity "$capacity" > /dev/null 2>&1; then
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
  else
    echo "$limit"
  fi
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "| problem | buffers | memplace pack (s) | MiniMalloc (s) | memplace / MiniMalloc |"
echo "|---|---:|---:|---:|---:|"
for spec in "$@"; do
  file=${spec%:*}
  capacity=${spec##*:}
  : > "$work/ours"
  : > "$work/theirs"
  for _ in $(seq "$runs"); do
    timed "$work/ours.csv" "$capacity" "$memplace" pack "$file" --capacity "$capacity" \
      --time-limit "$limit" -o "$work/ours.csv" >> "$work/ours"
    timed "$work/theirs.csv" "$capacity" "$binary" --capacity="$capacity" --input="$file" \
      --output="$work/theirs.csv" --timeout="${limit}s" >> "$work/theirs"
  done
  ours=$(median < "$work/ours")
  theirs=$(median < "$work/theirs")
  buffers=$(($(grep -cv '^\s*$' "$file") - 1))
  awk -v name="$(basename "$file")" -v n="$buffers" -v a="$ours" -v b="$theirs" \
    'BEGIN {printf "| %s | %d | %.2f | %.2f | %.2f |\n", name, n, a, b, a / b}'
done
