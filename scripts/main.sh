#!/usr/bin/env bash
# The README's first command: set up (Debian packages, the Fashion-MNIST data set, the build), then
# the main job: train a small CNN on Fashion-MNIST on the CPU, evaluate it and save a checkpoint.
# Arguments go to examples/train_fashion_mnist.py (e.g. --epochs 1, --device CL for OpenCL).
set -euo pipefail
cd "$(dirname "$0")/.."
# Only the library, the Python module and the CLI: the test targets are test.sh's to build.
bash scripts/setup.sh onegrad_python onegrad
BUILD_DIR=${ONEGRAD_BUILD_DIR:-build}
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 examples/train_fashion_mnist.py "$@"
