# Python layout: lines joined inside brackets and by backslashes, comments between lines,
# blank lines, a docstring, tabs for indentation and adjacent string literals.
from tvm.script import tir as T

WIDTH = 8  # a module-level constant


@T.prim_func
def layout(
    A: T.Buffer((WIDTH, 4), "float32"),  # the input
    B: T.Buffer(
        (WIDTH, 4),
        "float32",
    ),
):
    """A docstring, ignored."""

    for i, j in T.grid(WIDTH,
                       4):
        B[i, j] = A[i, j] * \
            T.float32(2) + (
                A[i, j]
            ) + 1
	# a comment indented with a tab
    with T.block("b" "c"):
	    T.evaluate(0)
