#!/usr/bin/env bash
# The generated table of docs/hardware.md: every shipped workload on every shipped hardware model,
# the output of
#
#   memplace references all --hardware all --summary
#
# between the page's "generated table" markers. Writes it there, or with --check fails (exit 1,
# with a diff) when the page and the command disagree, which the tests do (tests/cli/hardware_table.sh).
# Run from the repository root after `make build`:
#
#   scripts/hardware-table.sh [--check] [path/to/memplace]
set -euo pipefail
check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi
memplace=${1:-build/default/apps/memplace}
page=docs/hardware.md
begin='<!-- generated table: memplace references all --hardware all --summary -->'
end='<!-- end of generated table -->'
table=$(mktemp)
trap 'rm -f "$table" "$page.tmp"' EXIT
"$memplace" references all --hardware all --summary > "$table"
# The page with the block between the markers replaced by the table.
/usr/bin/python3 - "$page" "$table" "$begin" "$end" > "$page.tmp" <<'PY'
import sys
page, table, begin, end = sys.argv[1:]
text = open(page, encoding="utf-8").read()
if text.count(begin) != 1 or text.count(end) != 1:
    sys.exit(f"{page}: needs one line '{begin}' and one '{end}'")
head, rest = text.split(begin + "\n", 1)
_, tail = rest.split(end, 1)
sys.stdout.write(head + begin + "\n" + open(table, encoding="utf-8").read() + end + tail)
PY
if $check; then
  if ! diff -u "$page" "$page.tmp"; then
    echo "FAIL: $page's table is not what \`memplace references all --hardware all --summary\`" \
      "prints; run scripts/hardware-table.sh" >&2
    exit 1
  fi
  echo "ok: $page's table matches memplace references"
else
  mv "$page.tmp" "$page"
fi
