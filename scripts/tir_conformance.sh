#!/usr/bin/env bash
# Every @T.prim_func of a TVM tree's Python tests through `onegrad tir print/check/run`: counts per
# stage (parsed, checked, round trip identical, compiled == interpreted, crashes) and the failures
# grouped by cause. Reads a checkout or a bare git dir (--rev picks the revision of a bare one).
#
#   scripts/tir_conformance.sh TVM_GIT_DIR [--rev REV] [--jobs N] [--timeout S] [--run-timeout S] [--out DIR] [--limit N]
#
# The onegrad binary is $ONEGRAD_BIN, else build/bin/onegrad of this tree. Exit 0, or 1 when a stage
# crashed (died by a signal or ran over its time bound), 2 on usage errors.
set -euo pipefail
exec "${PYTHON:-python3}" "$(dirname "$0")/tir_conformance.py" "$@"
