# Sourced by the best-known regenerate scripts (workloads/best-known/regenerate.sh,
# workloads/suite/regenerate.sh): keep_best FILE SCRIPT RUN... writes the fastest valid
# best_mapping.yaml of the run folders (the first listed on a tie) to FILE, atomically, with a
# header naming the agent (the run folder's name up to its first '-') and SCRIPT, and prints the
# latencies it chose from.
latency() { sed -n 's/^result: {latency_fs: \([0-9]*\), valid: true.*/\1/p' "$1"; }
keep_best() {
  local file=$1 script=$2
  shift 2
  local best="" best_fs="" summary="" run fs
  for run in "$@"; do
    fs=$(latency "$run/best_mapping.yaml")
    summary+="$(basename "$run" | cut -d- -f1) ${fs:-invalid} fs, "
    if [ -n "$fs" ] && { [ -z "$best_fs" ] || [ "$fs" -lt "$best_fs" ]; }; then
      best=$run
      best_fs=$fs
    fi
  done
  [ -n "$best" ] || { echo "$file: no valid mapping among $*" >&2; return 1; }
  local agent
  agent=$(basename "$best" | cut -d- -f1)
  {
    echo "# Best known under the streaming dynamics (v1), found by $agent: $script"
    cat "$best/best_mapping.yaml"
  } > "$file.tmp"
  mv "$file.tmp" "$file"
  echo "$(basename "$file" .yaml): ${summary%, } -> $agent"
}
