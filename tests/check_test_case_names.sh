#!/usr/bin/env bash
# CTest cuts a discovered test name at ';', and the cut name matches no case, so such a case
# would pass without running: no test case may have one in its name.
# Usage: tests/check_test_case_names.sh path/to/memplace_tests
set -u
if "$1" --list-test-cases | grep -n ';'; then
  echo "test case names above contain ';': ctest would run none of their assertions" >&2
  exit 1
fi
