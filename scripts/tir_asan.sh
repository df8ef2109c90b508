#!/usr/bin/env bash
# The TIR tests and fuzzers with the host code under AddressSanitizer (ctest TirASan.HostCode):
# a build folder of its own holding only tir_tests (onegrad_uop + onegrad_tir: the parser, the
# checkers and the interpreter, with TirParserFuzz and TirSuiteFuzz), configured once and rebuilt
# through ccache like the main build. Compiled kernels are checked by the TirCompileASan ctest of
# the main build (tests/CMakeLists.txt).
#
#   scripts/tir_asan.sh SOURCE_DIR ASAN_BUILD_DIR [gtest filter]
set -euo pipefail
src=$1
dir=$2
filter=${3:-*}
if [[ ! -f "$dir/CMakeCache.txt" ]]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$src" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DONEGRAD_PYTHON=OFF -DONEGRAD_BENCH=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=address -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address >/dev/null
fi
cmake --build "$dir" --target tir_tests -j "${ONEGRAD_ASAN_JOBS:-$(nproc)}"
# halt at the first finding; the interpreter's deep-recursion guard needs the real stack
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_stack_use_after_return=0}
exec "$dir/bin/tir_tests" --gtest_brief=1 --gtest_filter="$filter"
