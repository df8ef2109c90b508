#!/usr/bin/env bash
# A tour of the tensor compiler: a tensor program from Python with its schedule (DEBUG=1), then the
# onegrad command-line tool on the foundation layers. Run after scripts/setup.sh has built.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== a tensor program from Python: examples/tensor_program.py (DEBUG=1) =="
PYTHONPATH="${ONEGRAD_BUILD_DIR:-build}/python" DEBUG=1 /usr/bin/python3 examples/tensor_program.py
echo
BIN=${ONEGRAD_BUILD_DIR:-build}/bin/onegrad

show() {
  local line='$ onegrad'
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_:./=-]+$ ]]; then line+=" $a"; else line+=" \"$a\""; fi
  done
  echo "$line"
  "$BIN" "$@"
  echo
}

echo "== the symbolic simplifier on index math (Python syntax, floor // and %) =="
show simplify "(x*4+y)//4" --var x:0:100 --var y:0:3
show simplify "(x%4)*8 + (x//4)*32" --var x:0:1000
show simplify "x%4 + x//4%8*4 + x//32*32" --var x:-500:500
show simplify "(x*6+4)//2 - x*3" --var x:0:50
show simplify "x//4 < 3" --var x:0:100
show simplify "min(x + 8, 5) * 2" --var x:0:20
show simplify "-7 // 2 + -7 % 2"
echo "== a UOp graph in the text form: parsed, verified and printed back =="
show uop print examples/uop/sum_rows.uop
echo "== a malformed expression is reported at its column (exit code 2) =="
echo "\$ onegrad simplify '(x*4+' --var x:0:100"
"$BIN" simplify "(x*4+" --var x:0:100 2>&1 || echo "(exit code $?)"
