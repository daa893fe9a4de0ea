#!/usr/bin/env bash
# The README's two commands on a fresh Debian bookworm machine (docs/testing.md, "A fresh
# machine"): a clean bookworm root (debootstrap minbase plus build-essential, cmake, git and make,
# the tools a machine of the project's kind has), a clone of one commit in it, then `make run` and
# `make test` there, each timed, each with its log kept. A development machine cannot catch a
# package missing from scripts/install-deps.sh (it already has it); this can.
#
#   scripts/fresh-debian-check.sh [--commit REV] [--steps "run test"] [--out DIR] [--cache DIR]
#
#   --commit  the commit to clone (default HEAD; uncommitted changes are not in it, as on CI)
#   --steps   the make targets to run, in order (default "run test")
#   --out     where the logs and times go (default build/fresh-debian/<short commit>)
#   --cache   where the base root is kept between uses (default build/fresh-debian/base); delete
#             it to start from a new debootstrap
#
# Every run starts from a copy of the cached base root, so no package one run installs is seen by
# the next. Needs root, network access to the Debian mirror, and mounting (it runs in a mount and
# PID namespace of its own, so nothing stays mounted or running after it). Exit code: 0 when every
# step exited 0, 1 when one failed (its log says why), 2 on bad use.
set -euo pipefail

usage() {
  sed -n '8,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

repo=$(cd "$(dirname "$0")/.." && pwd)
commit=HEAD
steps="run test"
out=""
cache="$repo/build/fresh-debian/base"
while [ $# -gt 0 ]; do
  case "$1" in
    --commit) commit=${2:?--commit needs a revision}; shift 2 ;;
    --steps) steps=${2:?--steps needs make targets}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --cache) cache=${2:?--cache needs a folder}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "fresh-debian-check: unknown argument '$1'" >&2; usage ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian-check: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
sha=$(git -C "$repo" rev-parse --verify --quiet "$commit^{commit}") ||
  { echo "fresh-debian-check: --commit: '$commit' is not a commit of $repo" >&2; exit 2; }
for step in $steps; do
  [[ $step =~ ^[a-z][a-z-]*$ ]] || { echo "fresh-debian-check: --steps: '$step' is not a make target" >&2; exit 2; }
done
short=${sha:0:7}
out=${out:-$repo/build/fresh-debian/$short}
mkdir -p "$out"
out=$(cd "$out" && pwd)
summary="$out/times.txt"

# The mirror the host's apt uses (the same snapshot of bookworm), else Debian's own.
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null |
           head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}

# The base root, made once: what a bare machine of the project's kind has before the README.
if [ ! -f "$cache/.complete" ]; then
  command -v debootstrap > /dev/null || bash "$repo/scripts/install-deps.sh" fresh-check
  echo "fresh-debian-check: making the base root in $cache (debootstrap bookworm from $mirror)"
  rm -rf "$cache" "$cache.partial"
  mkdir -p "$(dirname "$cache")"
  debootstrap --variant=minbase --include=build-essential,cmake,git,make,ca-certificates \
    bookworm "$cache.partial" "$mirror" > "$out/debootstrap.log" 2>&1 ||
    { echo "fresh-debian-check: debootstrap failed; see $out/debootstrap.log" >&2; exit 1; }
  security=${mirror%/debian}/debian-security
  cat > "$cache.partial/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
  rm -rf "$cache.partial/var/lib/apt/lists/"*
  touch "$cache.partial/.complete"
  mv "$cache.partial" "$cache"
fi

# This run's root: a copy of the base, with a clone of the commit as /root/memplace.
root="$out/root"
rm -rf "$root"
cp -a "$cache" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q --no-hardlinks "$repo" "$root/root/memplace"
git -C "$root/root/memplace" checkout -q --detach "$sha"

echo "commit $sha, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" > "$summary"
status=0
for step in $steps; do
  log="$out/make-$step.log"
  echo "fresh-debian-check: make $step (log: $log)"
  start=$(date +%s)
  # A mount and PID namespace of the step's own: /proc, /dev and /dev/shm (MPI) inside the root,
  # gone with every process of the step when it ends.
  set +e
  unshare --mount --pid --fork bash -c '
    set -e
    root=$1; step=$2
    mount --make-rprivate /
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
    mount -t sysfs sys "$root/sys"
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      bash -c "cd /root/memplace && make $step"
  ' fresh-root "$root" "$step" > "$log" 2>&1
  code=$?
  set -e
  seconds=$(( $(date +%s) - start ))
  line=$(printf 'make %-6s exit %d  %dm%02ds' "$step" "$code" $((seconds / 60)) $((seconds % 60)))
  echo "$line" >> "$summary"
  echo "fresh-debian-check: $line"
  if [ "$code" -ne 0 ]; then
    status=1
    tail -n 20 "$log" | sed 's/^/  | /'
    break
  fi
done
echo "fresh-debian-check: times in $summary; the root stays in $root for a look (rm -rf it when done)"
exit "$status"
