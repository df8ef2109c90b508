#!/usr/bin/env bash
# Install what is missing (Debian packages, as root), then configure and build onegrad.
# Idempotent: packages already present are not fetched again, and an unchanged tree rebuilds nothing.
# Arguments name the build targets to build (default: all of them, the ~400 test targets included);
# main.sh names only what the main job runs, so a bare machine reaches its first training line
# without compiling the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev libz3-dev
  # the Python package and its tests (numpy and PyTorch are the oracles)
  python3-dev python3-pybind11 python3-numpy python3-pytest python3-torch python3-setuptools
  # the test venv of PyPI oracles (scripts/test_venv.sh)
  python3-venv
  # data: safetensors headers are JSON, IDX files come gzipped, and the main job's data set
  nlohmann-json3-dev zlib1g-dev dataset-fashion-mnist
  # numpy's and PyTorch's BLAS: the sgemm that bench/ compares our kernels against (the reference BLAS is ~30x slower)
  libopenblas0-pthread
  # BEAM search caches its results in SQLite
  libsqlite3-dev
  # TIR's calling convention: DLTensor from dlpack.h (Debian has 0.6: no kDLBool)
  libdlpack-dev
  # ONNX import: protobuf parses ModelProto with C++ protoc generates from onnx.proto (python3-onnx
  # ships the schema); the backend node tests (docs/onnx.md) come from libonnx-testdata
  libprotobuf-dev protobuf-compiler python3-onnx libonnx-testdata
  # the CL device: the OpenCL ICD loader and headers, PoCL (OpenCL on the CPU) and clinfo
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  # scripts/tir_conformance.sh reads TVM's tests from a git dir (and its test builds one)
  git
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${ONEGRAD_BUILD_DIR:-build}
BUILD_TYPE=${ONEGRAD_BUILD_TYPE:-RelWithDebInfo}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  cmake -S . -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j "$(nproc)" "${targets[@]}"
