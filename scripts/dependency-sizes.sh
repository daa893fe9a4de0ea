#!/usr/bin/env bash
# The download and installed sizes of the two dependency sets of scripts/install-deps.sh, as a
# fresh Debian bookworm machine would get them: apt's own resolver (`apt-get install --simulate
# --no-install-recommends`) run against a package database that holds only this machine's
# Priority: required packages (what a minimal bookworm image has), so nothing needs removing or
# installing here. The test set is counted beyond the run set.
set -euo pipefail
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A dpkg status file with only the installed Priority: required packages and what they depend on
# (92 packages here; a debian:bookworm container image has about as many).
required=$(dpkg-query -W -f='${Package} ${Priority} ${db:Status-Status}\n' |
  awk '$2 == "required" && $3 == "installed" {print $1}')
{
  echo "$required"
  apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances $required 2>/dev/null | grep -E '^[a-z0-9]'
} | sort -u > "$work/base"
awk -v base="$work/base" 'BEGIN {while ((getline name < base) > 0) keep[name] = 1; RS = ""; ORS = "\n\n"}
  {split($0, line, "\n"); sub(/^Package: /, "", line[1]); if (line[1] in keep) print}' \
  /var/lib/dpkg/status > "$work/status"

# The packages apt would install for "$@" on top of that database.
would_install() {
  apt-get install --simulate --no-install-recommends -o Dir::State::status="$work/status" "$@" \
    2>/dev/null | awk '/^Inst / {print $2}' | sort -u
}
sizes() {
  xargs -r apt-cache show --no-all-versions 2>/dev/null |
    awk '/^Package:/ {n++} /^Size:/ {s += $2} /^Installed-Size:/ {i += $2}
         END {printf "%d packages, %.0f MB download, %.0f MB installed\n", n, s / 1e6, i * 1024 / 1e6}'
}
mapfile -t run < <(bash "$here/install-deps.sh" --list-run)
mapfile -t test < <(bash "$here/install-deps.sh" --list-test)
run_set=$(would_install "${run[@]}")
both=$(would_install "${run[@]}" "${test[@]}")
echo "run  (make run):                $(echo "$run_set" | sizes)"
echo "test (make test, beyond run):   $(comm -13 <(echo "$run_set") <(echo "$both") | sizes)"
