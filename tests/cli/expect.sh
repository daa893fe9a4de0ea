# Sourced by the CLI scripts: `expect CODE TEXT COMMAND...` runs the command and fails the script
# (through its `fail`) unless it exits CODE and its output says TEXT; the output is left in
# $work/out.log. Needs $work (a scratch folder) and fail().
expect() {
  local code=$1 text=$2
  shift 2
  "$@" > "$work/out.log" 2>&1
  local got=$?
  [ "$got" = "$code" ] || fail "$* exited $got, expected $code: $(cat "$work/out.log")"
  grep -qF -- "$text" "$work/out.log" || fail "$*: does not say '$text': $(cat "$work/out.log")"
}
