# Sourced by the tests that stop a table midway (tests/cli/table_kill_rerun.sh,
# tests/cli/mpi/mpi_table_kill_resume.sh).
fail() { echo "FAIL: $*"; exit 1; }
# How many runs of the table folder $1 have finished.
finished() { find "$1/runs" -name result.yaml 2> /dev/null | wc -l; }

# stop_midway SIGNAL FOLDER TOTAL COMMAND...: starts the table COMMAND writing to FOLDER, waits
# until one of its TOTAL runs has finished (the state a stop midway needs, however fast or slow the
# machine), then sends SIGNAL. If every run had finished by the time the signal took effect (a
# signal forwarded late by mpirun, on a fast machine), it tries again in a fresh folder, at most
# five times. Sets stop_code (the command's exit code) and done_before (the runs it finished).
stop_midway() {
  local signal=$1 out=$2 total=$3 attempt pid
  shift 3
  for attempt in 1 2 3 4 5; do
    rm -rf "$out"
    "$@" --out "$out" > /dev/null 2>&1 &
    pid=$!
    until [ "$(finished "$out")" -ge 1 ]; do
      kill -0 "$pid" 2> /dev/null || fail "SIG$signal: the table ended before its first run finished"
      sleep 0.05
    done
    kill "-$signal" "$pid"
    wait "$pid" 2> /dev/null
    stop_code=$?
    done_before=$(finished "$out")
    [ "$done_before" -lt "$total" ] && return 0
  done
  fail "SIG$signal: every run had finished before the signal took effect, five times"
}
