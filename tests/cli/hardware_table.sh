#!/usr/bin/env bash
# docs/hardware.md's table is what `memplace references all --hardware all --summary` prints on
# this commit (scripts/hardware-table.sh writes it).
set -euo pipefail
exec scripts/hardware-table.sh --check "$1"
