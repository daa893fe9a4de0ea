#!/usr/bin/env bash
# `make deb`'s package (cpack -G DEB, cmake/packaging.cmake): its control fields (Depends from
# dpkg-shlibdeps, Python's version, numpy), its file list under /usr, and its contents run when
# unpacked (dpkg-deb -x: nothing is installed on this machine).
#
# Usage: debian_package.sh path/to/build/apps/memplace   (run from the repository root)
set -u
source tests/cli/installed_checks.sh

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" > "$work/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$work/cpack.log")"
deb=$(echo "$work"/out/memplace_*_amd64.deb)
[ -f "$deb" ] || fail "no .deb: $(cat "$work/cpack.log")"

dpkg-deb --info "$deb" > "$work/info" || fail "dpkg-deb --info failed"
depends=$(sed -n 's/^ Depends: //p' "$work/info")
python_minor=$(/usr/bin/python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
for needed in "python3 (>= $python_minor)" "python3-numpy" "libyaml-cpp" "coinor-libcbc" \
              "libopenmpi" "libprotobuf" "libonnx" "libgomp1" "libstdc++6"; do
  [[ $depends == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done
grep -q "^ Package: memplace$" "$work/info" || fail "not package memplace: $(cat "$work/info")"

dpkg-deb --contents "$deb" | awk '{print $6}' > "$work/files"
for file in ./usr/bin/memplace "./usr/lib/python$python_minor/dist-packages/memplace/__init__.py" \
            "./usr/lib/python$python_minor/dist-packages/memplace/__main__.py" \
            ./usr/share/memplace/tables/suite-quick.yaml ./usr/share/doc/memplace/README.md; do
  grep -qx -- "$file" "$work/files" || fail "the package lacks $file"
done
grep -q "^./usr/lib/python$python_minor/dist-packages/memplace/_memplace\..*\.so$" "$work/files" ||
  fail "the package lacks the extension module"
grep -v "^./usr/" "$work/files" | grep -q . && fail "files outside /usr: $(grep -v "^./usr/" "$work/files")"

dpkg-deb -x "$deb" "$work/root"
check_installed "$work/root/usr/bin/memplace" /usr/bin/python3 \
  "$work/root/usr/lib/python$python_minor/dist-packages"
echo "debian_package: ok"
