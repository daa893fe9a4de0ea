#!/usr/bin/env bash
# memplace pack (docs/allocation.md): a generated zero-slack problem is packed at its capacity and
# the packing passes --check; a tampered packing fails --check (exit 1, naming the buffers); an
# infeasible problem is proven so (exit 1); --json says the same as JSON; malformed CSV files and
# bad options exit 2 naming the line and field.
#
# Usage: pack.sh path/to/memplace   (run from the repository root)
set -u
memplace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect CODE TEXT COMMAND...: the command exits CODE and says TEXT.
source "$(dirname "$0")/expect.sh"

expect 0 "wrote $work/z.csv: 60 buffers" "$memplace" pack --generate 60 --seed 3 --capacity 4096 -o "$work/z.csv"
expect 0 "packed by exact search" "$memplace" pack "$work/z.csv" -o "$work/packed.csv"
expect 0 "a valid packing" "$memplace" pack --check "$work/packed.csv" --capacity 4096
head -1 "$work/packed.csv" | grep -qx "id,lower,upper,size,offset" || fail "packed.csv has no offset column"
# The generator's own packing checks too, and the same seed gives the same file.
expect 0 "wrote" "$memplace" pack --generate 60 --seed 3 --capacity 4096 --with-offsets -o "$work/hidden.csv"
expect 0 "a valid packing" "$memplace" pack --check "$work/hidden.csv" --capacity 4096
cut -d, -f1-4 "$work/hidden.csv" | cmp -s - "$work/z.csv" || fail "--with-offsets changed the problem"

# A tampered packing: the first buffer moved onto the bytes of a buffer live with it.
python3 - "$work/packed.csv" "$work/bad.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
a = rows[0]
for b in rows[1:]:
    if int(a["lower"]) < int(b["upper"]) and int(b["lower"]) < int(a["upper"]):
        a["offset"] = b["offset"]
        break
with open(sys.argv[2], "w") as f:
    w = csv.DictWriter(f, fieldnames=["id", "lower", "upper", "size", "offset"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
expect 1 "NOT a valid packing" "$memplace" pack --check "$work/bad.csv" --capacity 4096
expect 1 "share the bytes" "$memplace" pack --check "$work/bad.csv"
expect 1 "ends above the capacity" "$memplace" pack --check "$work/packed.csv" --capacity 100

# Infeasible: a capacity below the peak, and one the search must refute: three 1-byte buffers live
# together need three offsets that are multiples of 2, and 4 bytes have two.
expect 1 "the peak live bytes exceed the capacity" "$memplace" pack "$work/z.csv" --capacity 4095
printf 'id,lower,upper,size\na,0,2,1\nb,0,3,1\nc,1,2,1\n' > "$work/refute.csv"
expect 1 "no packing exists: the exact search ended without one" "$memplace" pack "$work/refute.csv" --capacity 4 --alignment 2
expect 0 "packed" "$memplace" pack "$work/refute.csv" --capacity 5 --alignment 2

# A placement limit gives up the same way on any machine.
"$memplace" pack --generate 450 --seed 1 -o "$work/hard.csv" > /dev/null
expect 1 "no packing found within the limit of 3000 placements" "$memplace" pack "$work/hard.csv" --max-placements 3000

# --json: the same outcomes as one JSON object on stdout, with the same exit codes.
"$memplace" pack --generate 60 --seed 3 --capacity 4096 -o "$work/zj.csv" --json > "$work/generate.json" || fail "generate --json"
cmp -s "$work/zj.csv" "$work/z.csv" || fail "--json changed the generated problem"
"$memplace" pack "$work/z.csv" -o "$work/packed-json.csv" --json > "$work/packed.json" || fail "pack --json"
cmp -s "$work/packed-json.csv" "$work/packed.csv" || fail "--json changed the packing"
"$memplace" pack --check "$work/packed.csv" --capacity 4096 --json > "$work/check.json" || fail "check --json"
"$memplace" pack --check "$work/bad.csv" --json > "$work/bad-check.json"
[ $? -eq 1 ] || fail "check --json of a bad packing: exit code"
"$memplace" pack "$work/z.csv" --capacity 4095 --json > "$work/infeasible.json"
[ $? -eq 1 ] || fail "pack --json below the peak: exit code"
"$memplace" pack "$work/hard.csv" --max-placements 3000 --json > "$work/unknown.json"
[ $? -eq 1 ] || fail "pack --json at the placement limit: exit code"
python3 - "$work" <<'PY' || fail "pack --json contents"
import json, sys
w = sys.argv[1]
load = lambda name: json.load(open(f"{w}/{name}.json"))
g = load("generate")
assert (g["buffers"], g["seed"], g["capacity_bytes"], g["peak_bytes"]) == (60, 3, 4096, 4096), g
p = load("packed")
assert p["outcome"] == "packed" and p["height_bytes"] == 4096 == p["capacity_bytes"], p
assert p["method"].startswith("exact search") and p["placements"] > 0, p
assert p["out"].endswith("packed-json.csv") and p["greedy_height_bytes"] > 4096, p
c = load("check")
assert c["valid"] and c["faults"] == [] and c["height_bytes"] == 4096, c
b = load("bad-check")
assert not b["valid"] and any("share the bytes" in f for f in b["faults"]), b
assert b["capacity_bytes"] is None, b
i = load("infeasible")
assert i["outcome"] == "infeasible" and i["method"] == "peak live bytes", i
assert i["height_bytes"] is None and i["out"] is None, i
u = load("unknown")
assert u["outcome"] == "unknown" and u["stopped_by"] == "placement limit", u
assert u["placements"] == 3000, u
PY

# A mapping's tensors as allocation problems: memplace evaluate --allocation(-csv).
best=workloads/best-known/bert-base.nnpi.yaml
expect 0 "allocatable" "$memplace" evaluate bert-base "$best" --allocation-csv "$work/alloc"
[ -f "$work/alloc/SRAM.csv" ] && [ -f "$work/alloc/LLC.csv" ] || fail "no allocation CSV per on-chip memory"
[ -f "$work/alloc/DRAM.csv" ] && fail "the slowest memory got an allocation CSV"
expect 0 "packed" "$memplace" pack "$work/alloc/LLC.csv" --capacity 25165824
"$memplace" evaluate bert-base "$best" --allocation --json > "$work/alloc.json" || fail "evaluate --json"
python3 - "$work/alloc.json" <<'PY' || fail "evaluate --allocation --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert [a["memory"] for a in d["allocation"]] == ["SRAM", "LLC"], d["allocation"]
assert all(a["verdict"] == "allocatable" for a in d["allocation"])
assert all(a["greedy_height_bytes"] >= a["peak_bytes"] for a in d["allocation"])
PY

# Malformed files and bad options.
printf 'id,lower,upper\n0,0,1\n' > "$work/m1.csv"
expect 2 "m1.csv:1: missing column 'size'" "$memplace" pack "$work/m1.csv"
printf 'id,lower,upper,size\n0,0,1,-5\n' > "$work/m2.csv"
expect 2 "m2.csv:2: size: negative: -5" "$memplace" pack "$work/m2.csv"
printf 'id,lower,upper,size\n0,4,2,5\n' > "$work/m3.csv"
expect 2 "m3.csv:2: upper: 2 is not above lower (4)" "$memplace" pack "$work/m3.csv"
printf 'id,lower,upper,size\n0,0,two,5\n' > "$work/m4.csv"
expect 2 "m4.csv:2: upper: not an integer: 'two'" "$memplace" pack "$work/m4.csv"
printf 'id,lower,upper,size\n0,0,2,5\n0,1,2,5\n' > "$work/m5.csv"
expect 2 "m5.csv:3: id: '0' already on line 2" "$memplace" pack "$work/m5.csv"
expect 2 "--check needs an offset column" "$memplace" pack --check "$work/z.csv"
expect 2 "cannot read the file" "$memplace" pack "$work/missing.csv"
expect 2 "must be a positive number of seconds, got '-1'" "$memplace" pack "$work/z.csv" --time-limit -1
grep -q "179769" "$work/out.log" && fail "--time-limit -1: the message spells out the largest double"
expect 2 "must be a positive number of seconds, got 'nan'" "$memplace" pack "$work/z.csv" --time-limit nan
expect 2 "--alignment" "$memplace" pack "$work/z.csv" --alignment 0
expect 2 "cannot write" "$memplace" pack "$work/z.csv" -o "$work/no/such/folder/out.csv"
expect 2 "--generate: needs -o FILE.csv" "$memplace" pack --generate 10
# Spare bytes: 60 buffers remain of 63 cut, their hidden packing holds, the memory has room.
expect 0 "wrote $work/s.csv: 60 buffers, " "$memplace" pack --generate 60 --seed 3 --spare 5 \
  --capacity 4096 --with-offsets -o "$work/s.csv"
grep -q "% of bytes x steps spare at capacity 4096" "$work/out.log" || fail "--spare: no spare share"
[ "$(wc -l < "$work/s.csv")" -eq 61 ] || fail "--spare: 60 buffers and a header expected"
expect 0 "valid" "$memplace" pack --check "$work/s.csv" --capacity 4096
expect 2 "--spare: only with --generate" "$memplace" pack "$work/z.csv" --spare 5
expect 2 "--spare: '101' is not a whole number from 0 to 100" "$memplace" pack --generate 10 \
  --spare 101 -o "$work/x.csv"
expect 2 "--capacity: must be at least the number of buffers cut (63)" "$memplace" pack \
  --generate 60 --spare 5 --capacity 62 -o "$work/x.csv"

# The held-out runs' script (docs/allocation.md): every problem of a seed range made, packed and
# its packing checked; a time limit too short to pack leaves seeds missed (exit 1); bad arguments
# exit 2.
heldout=scripts/pack-heldout.sh
expect 0 "60 buffers, 5 % spare: packed 3 of 3 within 30 s; slowest" "$heldout" "$memplace" 30 60 1 3
grep -qx "2 packed [0-9.]* [0-9]* .*round 1)" "$work/out.log" || fail "held-out: no line for seed 2"
expect 1 "not packed (or errors): 1 2" "$heldout" "$memplace" 0.001 450 1 2
expect 2 "FIRST_SEED 3 is after LAST_SEED 2" "$heldout" "$memplace" 30 60 3 2
expect 2 "SPARE must be a percent" "$heldout" "$memplace" 30 60 1 2 101
expect 2 "usage" "$heldout" "$memplace" 30
echo "pack: ok"
