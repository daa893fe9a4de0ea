#!/usr/bin/env bash
# The generated tables of the docs: a block between a line
#
#   <!-- generated table: memplace <arguments> -->
#
# and `<!-- end of generated table -->` is what that command prints (docs/hardware.md's summary of
# every workload on every chip, docs/suite.md's suite references). Writes every such block of
# docs/*.md, or with --check fails (exit 1, with a diff) when a page and its command disagree, which
# the tests do (tests/cli/generated_tables.sh). Run from the repository root after `make build`:
#
#   scripts/generated-tables.sh [--check] [path/to/memplace]
set -euo pipefail
check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi
memplace=${1:-build/default/apps/memplace}
status=0
# --check writes the regenerated page to a file of its own (two checks from one checkout, as two
# test runs, must not share one); writing a page goes through <page>.tmp and a rename.
scratch=$(mktemp)
trap 'rm -f "$scratch"' EXIT
for page in docs/*.md; do
  grep -q '^<!-- generated table: memplace ' "$page" || continue
  if $check; then regenerated=$scratch; else regenerated=$page.tmp; fi
  /usr/bin/python3 - "$page" "$memplace" > "$regenerated" <<'PY'
import re, shlex, subprocess, sys
page, memplace = sys.argv[1:]
begin = re.compile(r"^<!-- generated table: memplace (.*) -->$")
end = "<!-- end of generated table -->"
out, skipping = [], False
for line in open(page, encoding="utf-8").read().split("\n"):
    if skipping:
        if line == end:
            skipping = False
            out.append(line)
        continue
    out.append(line)
    match = begin.match(line)
    if match:
        table = subprocess.run([memplace] + shlex.split(match.group(1)), check=True,
                               capture_output=True, text=True).stdout
        out.append(table.rstrip("\n"))
        skipping = True
if skipping:
    sys.exit(f"{page}: a generated table without its '{end}' line")
sys.stdout.write("\n".join(out))
PY
  if $check; then
    if ! diff -u "$page" "$regenerated"; then
      echo "FAIL: $page's generated table is not what its command prints; run" \
        "scripts/generated-tables.sh" >&2
      status=1
    fi
  else
    mv "$regenerated" "$page"
  fi
done
if $check && [ $status -eq 0 ]; then echo "ok: every generated table matches its command"; fi
exit $status
