#!/bin/sh
# ctest's launcher for the test files marked "# ctest: test venv": the test venv's python when
# scripts/test_venv.sh has made it ($ONEGRAD_TEST_VENV), else the first argument (the system python),
# where those files skip and say which package is missing.
python=$1
shift
if [ -n "$ONEGRAD_TEST_VENV" ] && [ -x "$ONEGRAD_TEST_VENV/bin/python" ]; then
  python="$ONEGRAD_TEST_VENV/bin/python"
fi
exec "$python" "$@"
