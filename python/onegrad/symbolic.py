"""Symbolic shape dims: onegrad.Variable and its bound values (docs/python.md "Symbolic shapes").

A Variable("n", 1, 64) is a dim that can take any value in [1, 64]. ``n.bind(5)`` is that dim with
the value 5 for one graph: a ``BoundDim``, an ``int`` (5) that remembers its variable. A tensor
reshaped to it, ``x.reshape(n.bind(5), 16)``, has the shape ``(n=5, 16)``; its kernels loop to n
and take its value at launch, so running the same program with another value compiles nothing.
"""
from . import _C
from .errors import ShapeError


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
    reshape, pad, slices, zeros/ones/full/empty, rand or arange keeps the dim symbolic. ``+``, ``-``,
    ``*`` with ints or BoundDims, and ``//`` by an int above 0, give BoundDims of the expression
    (``m - n``); other arithmetic gives plain ints."""

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

    def _expr(self, other, op, swap=False):
        divides = op == "floordiv" and (isinstance(other, BoundDim) or int(other) <= 0)  # dims divide by numbers > 0
        if isinstance(other, bool) or not isinstance(other, int) or divides:
            return getattr(int(self), f"__{'r' if swap else ''}{op}__")(other)
        a, b = self._dim, _dim(other)
        return BoundDim._make(getattr(b, op)(a) if swap else getattr(a, op)(b))

    def __add__(self, o): return self._expr(o, "add")
    def __radd__(self, o): return self._expr(o, "add", True)
    def __sub__(self, o): return self._expr(o, "sub")
    def __rsub__(self, o): return self._expr(o, "sub", True)
    def __mul__(self, o): return self._expr(o, "mul")
    def __rmul__(self, o): return self._expr(o, "mul", True)
    def __floordiv__(self, o): return self._expr(o, "floordiv")
    __hash__ = int.__hash__


def _dim(d):
    """A BoundDim's dim, or an int as a constant dim."""
    return d._dim if isinstance(d, BoundDim) else _C.Dim.const(int(d))


def dims_of(shape) -> list:
    """A shape (ints and BoundDims) as dims."""
    return [_dim(d) for d in shape]


def is_bound(d) -> bool:
    return isinstance(d, BoundDim)


def has_bound_pair(pairs) -> bool:
    """True when (before, after) / (begin, end) pairs hold a BoundDim."""
    return any(is_bound(v) for p in pairs if isinstance(p, (tuple, list)) for v in p)


def pairs(items, none):
    """Pairs as tuples (None as `none`); ShapeError naming a malformed one."""
    out = []
    for p in items:
        if p is None and none is not None:
            p = none
        if not isinstance(p, (tuple, list)) or len(p) != 2 or not all(isinstance(v, int) for v in p):
            raise ShapeError(f"pad/shrink: each axis takes a pair of ints or bound dims, got {p!r}")
        out.append(tuple(p))
    return out


def pad(t, pairs, value):
    """pad by (before, after) pairs of ints and BoundDims."""
    return _C.pad_symbolic(t, [(_dim(a), _dim(b)) for a, b in pairs], value)


def shrink(t, bounds):
    """shrink to [begin, end) pairs of ints and BoundDims."""
    return _C.shrink_symbolic(t, [(_dim(a), _dim(b)) for a, b in bounds])


def has_bound_slice(key) -> bool:
    """True when a __getitem__ key holds a slice with a BoundDim start or stop."""
    items = key if isinstance(key, tuple) else (key,)
    return any(isinstance(it, slice) and (is_bound(it.start) or is_bound(it.stop)) for it in items)


def getitem_bounds(shape, key):
    """The [begin, end) pairs of a key of slices with step 1 (ints, BoundDims or None; a negative
    int counts from the end, which may be a symbolic dim)."""
    items = key if isinstance(key, tuple) else (key,)
    if len(items) > len(shape):
        raise IndexError(f"getitem: too many indices ({len(items)}) for a tensor of dimension {len(shape)}")
    bounds = []
    for k, it in enumerate(items):
        if not isinstance(it, slice) or it.step not in (None, 1):
            raise IndexError(f"getitem: a slice by a Variable's value takes only slices of step 1, got {it!r} "
                             f"at axis {k}")
        dim = shape[k]
        ends = []
        for v, default in ((it.start, 0), (it.stop, dim)):
            v = default if v is None else v
            if not is_bound(v) and int(v) < 0:
                v = dim + int(v)
            ends.append(v)
        bounds.append(tuple(ends))
    return bounds


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


def bound_shape(args):
    """The dims of a creation call's shape (zeros(a, b) or zeros((a, b))) when one is a BoundDim."""
    dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    return list(dims) if any(is_bound(d) for d in dims) else None


def full(dims, value, dtype_name, device):
    return _C.full_symbolic(dims_of(dims), value, dtype_name, device)


def rand(dims, dtype_name, device):
    return _C.rand_symbolic(dims_of(dims), dtype_name, device)


def arange(start, stop, step, dtype_name, device):
    """0..count-1 by a BoundDim count, times step plus start (ints, step > 0); None when the count
    can be negative for some value of its variables (the caller then takes the values as numbers)."""
    if is_bound(start) or is_bound(step) or int(step) <= 0:
        return None
    count = (stop - int(start) + (int(step) - 1)) // int(step)
    if not is_bound(count) or count._dim.min < 0:
        return None
    return _C.arange_symbolic(count._dim, dtype_name, device)
