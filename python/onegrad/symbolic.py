"""Symbolic shape dims: onegrad.Variable and its bound values (docs/python.md "Symbolic shapes").

A Variable("n", 1, 64) is a dim that can take any value in [1, 64]. ``n.bind(5)`` is that dim with
the value 5 for one graph: a ``BoundDim``, an ``int`` (5) that remembers its variable. A tensor
reshaped to it, ``x.reshape(n.bind(5), 16)``, has the shape ``(n=5, 16)``; its kernels loop to n
and take its value at launch, so running the same program with another value compiles nothing.
"""
from . import _C


class Variable:
    """A symbolic dim with bounds [min, max] (like tinygrad's Variable)."""

    def __init__(self, name: str, min: int, max: int):
        self._dim = _C.Dim.make_variable(str(name), int(min), int(max))
        self.name, self.min, self.max = str(name), int(min), int(max)

    def bind(self, value) -> "BoundDim":
        """This variable standing for `value` (ArgumentError, a ValueError, outside [min, max])."""
        return BoundDim._make(self._dim.bind(int(value)))

    def __repr__(self) -> str:
        return f"Variable({self.name!r}, {self.min}, {self.max})"


class BoundDim(int):
    """A shape dim with its value: an int equal to the value, printed as ``n=5``. Passing it to
    reshape keeps the dim symbolic; arithmetic on it gives plain ints."""

    @staticmethod
    def _make(dim) -> "BoundDim":
        b = int.__new__(BoundDim, dim.value)
        b._dim = dim
        return b

    @property
    def variable(self):
        """The name of the variable this dim is, or None for an expression over variables (n*16)."""
        v = self._dim.variable
        return None if v is None else v.text

    def __repr__(self) -> str:
        return self._dim.text

    __str__ = __repr__


def has_bound(first, rest) -> bool:
    """True when a shape argument (reshape(a, b) or reshape((a, b))) holds a BoundDim."""
    dims = (first, *rest) if rest else (first if isinstance(first, (tuple, list)) else (first,))
    return any(isinstance(d, BoundDim) for d in dims)


def shape_of(t) -> tuple:
    """A C++ tensor's shape with its symbolic dims as BoundDims."""
    return tuple(int(d.value) if d.is_const else BoundDim._make(d) for d in _C.symbolic_dims(t))


def reshape(t, first, rest):
    """reshape with BoundDims among the dims (one -1 is inferred from the bound values)."""
    dims = list((first, *rest) if rest else (first if isinstance(first, (tuple, list)) else (first,)))
    total = 1
    for d in shape_of(t):
        total *= int(d)
    known = 1
    for d in dims:
        if int(d) != -1:
            known *= int(d)
    out = []
    for d in dims:
        if isinstance(d, BoundDim):
            out.append(d._dim)
        elif int(d) == -1:
            out.append(_C.Dim.const(total // known if known else 0))
        else:
            out.append(_C.Dim.const(int(d)))
    return _C.reshape_symbolic(t, out)
