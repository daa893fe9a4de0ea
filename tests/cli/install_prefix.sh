#!/usr/bin/env bash
# `cmake --install --prefix` into a scratch folder: the installed program runs (`list`,
# `evaluate`), `import memplace` works from the installed place and `python3 -m memplace` reaches
# the installed program; the table configs are installed beside them.
#
# Usage: install_prefix.sh path/to/build/apps/memplace   (run from the repository root)
set -u
source tests/cli/installed_checks.sh

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
  fail "cmake --install: $(cat "$work/install.log")"
package=$(echo "$work"/prefix/lib/python3.*/dist-packages/memplace)
[ -f "$package/__main__.py" ] || fail "no Python package under $work/prefix/lib"
ls "$package"/_memplace.*.so > /dev/null 2>&1 || fail "no extension module in $package"
[ -f "$work/prefix/share/memplace/tables/suite-quick.yaml" ] || fail "no table configs installed"
check_installed "$work/prefix/bin/memplace" /usr/bin/python3 "$(dirname "$package")"
echo "install_prefix: ok"
