#!/usr/bin/env bash
# Prints how many inputs a libFuzzer log's run executed (scripts/fuzz.sh and fuzz_campaign.sh):
#   scripts/fuzz_executions.sh LOG
# from its final stats, or, for a run that ended in a finding (libFuzzer prints no stats then),
# from its last progress line ("#N ..."), a slight undercount; 0 for a log with neither.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 LOG" >&2; exit 2; }
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$' | tail -1)
[ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$1" | tail -1 | tr -d '#')
echo "${runs:-0}"
