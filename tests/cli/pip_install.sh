#!/usr/bin/env bash
# `pip install --no-build-isolation --no-index .` (pyproject.toml, setup.py) into a scratch venv
# that sees Debian's packages (numpy), offline. setup.py builds through CMake; here it is pointed at
# this build folder (MEMPLACE_CMAKE_BUILD_DIR), so the test costs an install, not a second build
# (README, "Install": without it, pip configures and builds build/pip). The install is from a copy
# of the sources, so that pip's working files stay out of the repository.
#
# Usage: pip_install.sh path/to/build/apps/memplace   (run from the repository root)
set -u
source tests/cli/installed_checks.sh

mkdir "$work/src"
tar --exclude=./build --exclude=./runs --exclude=./.git -cf - . | tar -xf - -C "$work/src"
/usr/bin/python3 -m venv --system-site-packages "$work/venv" > "$work/venv.log" 2>&1 ||
  fail "python3 -m venv: $(cat "$work/venv.log")"
(cd "$work/src" && MEMPLACE_CMAKE_BUILD_DIR=$build \
  "$work/venv/bin/pip" install --no-build-isolation --no-index . > "$work/pip.log" 2>&1) ||
  fail "pip install: $(tail -30 "$work/pip.log")"
[ -x "$work/venv/bin/memplace" ] || fail "pip did not install the program into the venv's bin/"
check_installed "$work/venv/bin/memplace" "$work/venv/bin/python3"
"$work/venv/bin/pip" uninstall -y memplace > "$work/uninstall.log" 2>&1 ||
  fail "pip uninstall: $(cat "$work/uninstall.log")"
[ -e "$work/venv/bin/memplace" ] && fail "pip uninstall left the program behind"
echo "pip_install: ok"
