#!/usr/bin/env bash
# The docs' generated tables (docs/hardware.md, docs/suite.md) are what their commands print on
# this commit (scripts/generated-tables.sh writes them).
set -euo pipefail
exec scripts/generated-tables.sh --check "$1"
