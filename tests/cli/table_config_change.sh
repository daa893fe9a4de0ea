#!/usr/bin/env bash
# `make run` reruns a table into the same folder after a default changed: with
# --if-config-differs move-aside the earlier table is moved to <out>.previous-1, the command says
# so and succeeds; without it, the folder is refused (exit 2) and left as it was. A config that
# only adds (or drops) agents and seeds extends the folder instead: only the new runs run, it says
# so, and the table is the one made in one go, byte for byte.
#
# Usage: table_config_change.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'agents: [random]\nworkloads: [resnet50]\nseeds: 1\nbudget: 200\n' > "$work/before.yaml"
printf 'agents: [random]\nworkloads: [resnet50]\nseeds: 1\nbudget: 300\n' > "$work/after.yaml"
"$memplace" table "$work/before.yaml" --out "$work/t" -q > /dev/null 2>&1 || fail "first table"
cp "$work/t/table.csv" "$work/first.csv"

"$memplace" table "$work/after.yaml" --out "$work/t" -q > /dev/null 2> "$work/err"
[ $? -eq 2 ] || fail "another config was not refused with exit code 2"
grep -q -- "--if-config-differs move-aside" "$work/err" || fail "the refusal names no way out"
cmp -s "$work/t/table.csv" "$work/first.csv" || fail "the refused rerun changed the table"

"$memplace" table "$work/after.yaml" --out "$work/t" --if-config-differs move-aside -q \
  > /dev/null 2> "$work/err" || { cat "$work/err"; fail "move-aside did not run the new table"; }
grep -q "moved it to $work/t.previous-1" "$work/err" || fail "it did not say what it did"
cmp -s "$work/t.previous-1/table.csv" "$work/first.csv" || fail "the earlier table was not kept"
grep -q "budget: 300" "$work/t/config.yaml" || fail "the new table is not the new config"
grep -q "^resnet50,random," "$work/t/table.csv" || fail "the new table has no row"
# Rerun with the same config: nothing moves, nothing to run.
"$memplace" table "$work/after.yaml" --out "$work/t" --if-config-differs move-aside -q \
  > /dev/null 2> "$work/err" || fail "the unchanged rerun failed"
grep -q "moved" "$work/err" && fail "an unchanged config moved the table"
[ ! -e "$work/t.previous-2" ] || fail "an unchanged config moved the table"
"$memplace" table "$work/after.yaml" --out "$work/t" --if-config-differs sideways > /dev/null 2>&1
[ $? -eq 2 ] || fail "a bad --if-config-differs value was not refused with exit code 2"

printf 'agents: [random, sa]\nworkloads: [resnet50]\nseeds: 2\nbudget: 200\n' > "$work/grown.yaml"
"$memplace" table "$work/before.yaml" --out "$work/g" -q > /dev/null 2>&1 || fail "the table to extend"
"$memplace" table "$work/grown.yaml" --out "$work/g" -q > /dev/null 2> "$work/err" ||
  { cat "$work/err"; fail "the extension did not run"; }
grep -qF "$work/g: extending the table: agents +sa, seeds 1 -> 2 (3 new runs; 1 finished run kept)" \
  "$work/err" || { cat "$work/err"; fail "it did not say what it added"; }
"$memplace" table "$work/grown.yaml" --out "$work/whole" -q > /dev/null 2>&1 || fail "the table in one go"
for csv in table.csv curves.csv; do
  cmp -s "$work/g/$csv" "$work/whole/$csv" || fail "the extended $csv is not the one made in one go"
done
# Back to the first config: the report leaves sa and seed 1 out, their runs stay.
"$memplace" table "$work/before.yaml" --out "$work/g" -q > /dev/null 2> "$work/err" ||
  { cat "$work/err"; fail "the narrowed table did not run"; }
grep -qF "3 dropped runs left out of the report, their folders stay in runs/" "$work/err" ||
  { cat "$work/err"; fail "it did not say what it dropped"; }
cmp -s "$work/g/table.csv" "$work/first.csv" || fail "the narrowed table is not the first one"
[ -e "$work/g/runs/sa-resnet50-s1/result.yaml" ] || fail "a dropped run was removed"
echo "ok"
