#!/usr/bin/env bash
# The README's first command: set up, build, and run the main job: a small tensor program from
# Python (DEBUG=1 shows its schedule), then a tour of the command-line tool.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${ONEGRAD_BUILD_DIR:-build}
echo "== a tensor program from Python: examples/tensor_program.py (DEBUG=1) =="
PYTHONPATH="$BUILD_DIR/python" DEBUG=1 /usr/bin/python3 examples/tensor_program.py
echo
bash scripts/demo.sh
