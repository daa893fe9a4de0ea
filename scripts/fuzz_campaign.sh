#!/usr/bin/env bash
# Fuzzes one target until it has run a number of inputs (docs/reliability.md, "Long runs"):
#   scripts/fuzz_campaign.sh BUILD_DIR TARGET EXECUTIONS [SEGMENT_SECONDS]
# in segments of SEGMENT_SECONDS (default 300) of scripts/fuzz.sh, each resuming from the working
# corpus the earlier ones grew. Why segments: within one libFuzzer process the engine's tables and
# the sanitizers' allocator grow, and the rate falls to a fifth within half an hour; a new process
# on the same corpus starts at full speed again. Stops at the first finding (exit 1). Each
# segment's log is kept as BUILD_DIR/findings/TARGET.<n>.log, and a campaign started again
# counts the segments it finds there (stop it by killing it, not with SIGSTOP: libFuzzer counts
# a paused input's time towards its 20 s timeout). A line per segment and a total end the output.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR TARGET EXECUTIONS [SEGMENT_SECONDS]" >&2; exit 2; }
build=$1 target=$2 wanted=$3 segment=${4:-300}
[[ $wanted =~ ^[0-9]+$ && $segment =~ ^[0-9]+$ && $segment -gt 0 ]] ||
  { echo "EXECUTIONS and SEGMENT_SECONDS must be positive whole numbers" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$build/fuzz/memplace_fuzz" ] ||
  { echo "no $build/fuzz/memplace_fuzz: run make fuzz (a MEMPLACE_FUZZ=ON build)" >&2; exit 2; }
grep -q "^$target:" "$here/../fuzz/seeds.txt" || {
  echo "unknown target '$target'; the targets: $(grep -oE '^[a-z_]+' "$here/../fuzz/seeds.txt" |
    tr '\n' ' ')" >&2
  exit 2
}
# Resumes a campaign that was stopped: the finished segments' logs count.
total=0 n=0 start=$(date +%s)
for log in "$build/findings/$target".[0-9]*.log; do
  [ -f "$log" ] || continue
  runs=$(bash "$here/fuzz_executions.sh" "$log")
  total=$((total + ${runs:-0})) n=$((n + 1))
done
[ "$n" -eq 0 ] || echo "$target: resuming after $n segments, $total executions"
while [ "$total" -lt "$wanted" ]; do
  n=$((n + 1))
  bash "$here/fuzz.sh" "$build" "$segment" "$target" > /dev/null
  code=$?
  log=$build/findings/$target.log
  cp "$log" "$build/findings/$target.$n.log"
  runs=$(bash "$here/fuzz_executions.sh" "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  total=$((total + ${runs:-0}))
  echo "$target segment $n: ${runs:-0} executions, coverage ${cov:-0} edges, total $total," \
       "$(( $(date +%s) - start )) s"
  [ "$code" -eq 0 ] || { echo "$target: a finding in segment $n (see $log)"; exit 1; }
done
echo "$target: $total executions in $n segments, $(( $(date +%s) - start )) s, nothing found"
