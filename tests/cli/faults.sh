#!/usr/bin/env bash
# Faults beyond a kill, on a small tmpfs of the test's own: a table that fills the disk stops with
# a clear error (exit 1), leaves no half-written file and keeps its finished runs, and once there
# is room a rerun completes it to the table made in one go; a training run whose folder turns
# read-only mid-run stops likewise, and resumes to the uninterrupted run's result once it is
# writable again.
#
# Mounting needs root (as `make test` runs: README); without the permission the test says so and
# is skipped (exit 77).
#
# Usage: faults.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
disk=$work/disk
mkdir "$disk"
cleanup() {
  mountpoint -q "$disk" && umount "$disk"
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
mount -t tmpfs -o size=300k tmpfs "$disk" 2> "$work/mount.log" ||
  { echo "SKIP: cannot mount a tmpfs here: $(cat "$work/mount.log")"; exit 77; }
no_temporaries() {
  local left
  left=$(find "$disk" -name "*.tmp*")
  [ -z "$left" ] || fail "$1: half-written files left behind: $left"
}

# 1. A table fills the disk.
printf 'agents: [sa, random]\nworkloads: [resnet50, bert-base]\nseeds: 2\nbudget: 300\n' > "$work/t.yaml"
"$memplace" table "$work/t.yaml" --out "$disk/table" -q > /dev/null 2> "$work/err"
code=$?
[ "$code" -eq 1 ] || fail "a table on a full disk exited $code, expected 1: $(cat "$work/err")"
grep -q "No space left on device" "$work/err" || fail "the error does not say the disk is full: $(cat "$work/err")"
no_temporaries "full disk"
finished=$(find "$disk/table/runs" -name result.yaml | wc -l)
for result in $(find "$disk/table/runs" -name result.yaml); do
  grep -q "^best_speedup: " "$result" || fail "a finished run's result is damaged: $result"
done
mount -o remount,size=20m "$disk"
"$memplace" table "$work/t.yaml" --out "$disk/table" > "$work/rerun.log" 2>&1 ||
  fail "the rerun with room failed: $(cat "$work/rerun.log")"
[ "$finished" -gt 0 ] || fail "no run finished before the disk was full: the fault came too early to test"
"$memplace" table "$work/t.yaml" --out "$work/one-go" -q > /dev/null || fail "the table in one go failed"
cmp -s "$work/one-go/table.csv" "$disk/table/table.csv" ||
  fail "the table completed after the full disk differs from the table made in one go"

# 2. A training run's folder turns read-only mid-run.
run=(train --agent sa --workload bert-base --budget 120000 --seed 11 --checkpoint-every 4000 -q)
"$memplace" "${run[@]}" --out "$work/whole" > /dev/null || fail "the uninterrupted run failed"
"$memplace" "${run[@]}" --out "$disk/run" > /dev/null 2> "$work/err" &
pid=$!
until [ -f "$disk/run/checkpoint.bin" ]; do
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.02
done
mount -o remount,ro "$disk"
wait "$pid"
code=$?
mount -o remount,rw "$disk"
if [ "$code" -eq 0 ]; then
  echo "note: the run finished before its folder turned read-only; nothing to resume"
else
  [ "$code" -eq 1 ] || fail "a run whose folder turned read-only exited $code, expected 1: $(cat "$work/err")"
  grep -q "Read-only file system" "$work/err" || fail "the error does not say why: $(cat "$work/err")"
  no_temporaries "read-only folder"
  "$memplace" train --resume "$disk/run" -q > /dev/null 2> "$work/err" ||
    fail "resuming once writable failed: $(cat "$work/err")"
fi
[ "$(cut -d, -f1,3- "$work/whole/curve.csv")" == "$(cut -d, -f1,3- "$disk/run/curve.csv")" ] ||
  fail "the curve after the read-only fault differs from the uninterrupted run"
cmp -s "$work/whole/best_mapping.yaml" "$disk/run/best_mapping.yaml" ||
  fail "the best mapping after the read-only fault differs from the uninterrupted run"
echo "faults: ok"
