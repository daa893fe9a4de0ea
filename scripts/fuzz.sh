#!/usr/bin/env bash
# Fuzzes every target of fuzz/targets.cpp with libFuzzer (`make fuzz`; docs/reliability.md):
#   scripts/fuzz.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]
# BUILD_DIR holds a MEMPLACE_FUZZ=ON build (make fuzz configures build/fuzz with clang). Each
# target starts from its seed corpus (fuzz/seeds.txt) and its regression inputs, grows a working
# corpus in BUILD_DIR/corpus/<target>, and writes what it finds to BUILD_DIR/findings/<target>/
# (crash-*, leak-*, timeout-*); a summary line per target ends the run, exit 1 if any found.
# FUZZ_RSS_LIMIT_MB (default 4096): libFuzzer's memory limit. Its own tables and ASan's allocator
# grow over a long run (docs/reliability.md), so runs of half an hour or more need more.
set -uo pipefail
build=$1
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
fuzzer=$build/fuzz/memplace_fuzz
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$fuzzer" ] || { echo "no $fuzzer: run make fuzz (a MEMPLACE_FUZZ=ON build)" >&2; exit 2; }
# The targets' scratch files (loaders that read a path, checkpoints written and synced) go to a
# RAM-backed folder when there is one: on this project's VM disk the writes were most of a run
# (3-4x fewer inputs a second for onnx_model, 1.4x for checkpoint).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
mapfile -t lines < <(grep -E '^[a-z_]+:' fuzz/seeds.txt)
found=0
summary=()
for line in "${lines[@]}"; do
  target=${line%%:*}
  if [ $# -gt 0 ] && [[ " $* " != *" $target "* ]]; then continue; fi
  read -r -a seeds <<< "${line#*:}"
  [ -d "fuzz/regressions/$target" ] && seeds+=("fuzz/regressions/$target")
  corpus=$build/corpus/$target
  findings=$build/findings/$target
  mkdir -p "$corpus" "$findings"
  # libFuzzer reads seed files only from folders: copy the single files into a seed folder.
  seed_dir=$build/seeds/$target
  rm -rf "$seed_dir" && mkdir -p "$seed_dir"
  for s in "${seeds[@]}"; do
    if [ -d "$s" ]; then cp -r "$s"/. "$seed_dir"/; else cp "$s" "$seed_dir"/; fi
  done
  log=$build/findings/$target.log
  echo "fuzzing $target for ${seconds}s (log: $log)"
  # No allocation stacks in the reports (malloc_context_size=0): recording one per allocation was
  # a sixth of the time; replaying a finding's input prints them.
  MEMPLACE_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1:malloc_context_size=0 \
    "$fuzzer" "$corpus" "$seed_dir" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-4096}" -max_len=262144 \
    -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1
  code=$?
  runs=$(bash "$here/fuzz_executions.sh" "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  artifacts=$(find "$findings" -maxdepth 1 -type f | wc -l)
  summary+=("$target: ${runs:-0} executions, coverage ${cov:-0} edges, exit $code, $artifacts finding(s)")
  [ "$code" -eq 0 ] && [ "$artifacts" -eq 0 ] || found=1
done
printf '%s\n' "${summary[@]}"
exit $found
