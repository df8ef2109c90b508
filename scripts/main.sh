#!/usr/bin/env bash
# The README's first command: set up, build, and run the main job (for now, a tour of the CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/demo.sh
