"""@onegrad.function: the spec's @function decorator (docs/function.md; C++: src/tensor/function.h).

    @onegrad.function
    def layer(x, w, b):
        return (x @ w + b).relu()

    y = layer(x, w, b)   # lazy, like any Tensor op

A call traces the function once per signature -- the shapes, dtypes and devices of its Tensor
arguments, which of them are the same tensor, and the values of its other arguments -- on
placeholders, and keeps the body: later calls with the same signature run no Python and, since the
body and so the kernels are the same, compile nothing. The result is GETTUPLE(FUNCTION(TUPLE(body),
args...), i) per output; gradients flow through it.

Arguments are Tensors, numbers (bool, int, float), strings and None (these are part of the cache
key), and tuples or lists of them; anything else raises TypeError. The function returns a Tensor or
a tuple or list of Tensors. A tensor the body reads that is not an argument (a realized weight in a
closure) raises onegrad.errors.FunctionError naming the function, unless allow_implicit=True makes it
an extra argument, bound at the first trace of each signature.
"""
import functools

from . import _C
from .errors import FunctionError
from .tensor import Tensor

_KEYED = (bool, int, float, str, type(None))


def function(fn=None, *, allow_implicit=False, name=None):
    """Decorator: @function, or @function(allow_implicit=True, name="...")."""
    if fn is None:
        return lambda f: function(f, allow_implicit=allow_implicit, name=name)
    if not callable(fn):
        raise TypeError(f"function: expects a callable, got {type(fn).__name__}")
    return Function(fn, allow_implicit=allow_implicit, name=name)


class Function:
    """A traced function: call it like the function it wraps. .traces counts the bodies traced."""

    def __init__(self, fn, allow_implicit=False, name=None):
        self.fn = fn
        self.name = name or getattr(fn, "__qualname__", None) or type(fn).__name__
        self._traced = _C.TracedFunction(self.name, bool(allow_implicit))
        functools.update_wrapper(self, fn)

    @property
    def traces(self) -> int:
        return self._traced.traces

    def __call__(self, *args, **kwargs):
        tensors = []
        kw = sorted(kwargs.items())
        key = "".join(self._key(a, tensors, f"{i}") for i, a in enumerate(args))
        key += "".join(f"{k}=" + self._key(v, tensors, repr(k)) for k, v in kw)

        def trace(placeholders):
            ps = iter(Tensor._wrap(p) for p in placeholders)
            a = [_rebuild(x, ps) for x in args]
            k = {name: _rebuild(v, ps) for name, v in kw}
            try:
                out = self.fn(*a, **k)
            except FunctionError as e:  # a traced value realized in the body: name this function
                raise FunctionError(f"function '{self.name}': {e}") from None
            return self._flatten(out)

        outs, structure = self._traced.call([t._t for t in tensors], trace, key)
        outs = [Tensor._wrap(o) for o in outs]
        if structure == "tensor":
            return outs[0]
        return tuple(outs) if structure == "tuple" else outs

    def _key(self, x, tensors, where) -> str:
        """The signature text of one argument; its Tensors are appended to `tensors` in order."""
        if isinstance(x, Tensor):
            tensors.append(x)
            return "T;"
        if isinstance(x, (tuple, list)):
            inner = "".join(self._key(v, tensors, f"{where}[{i}]") for i, v in enumerate(x))
            return ("(" if isinstance(x, tuple) else "[") + inner + ");"
        if isinstance(x, _KEYED):
            return f"{type(x).__name__}:{x!r};"  # repr: exact for floats, 1 and True differ
        raise TypeError(f"function '{self.name}': argument {where} is a {type(x).__name__}; a traced function "
                        "takes Tensors, numbers (bool, int, float), strings and None (part of its cache key), "
                        "and tuples or lists of them")

    def _flatten(self, out):
        if isinstance(out, Tensor):
            return [out._t], "tensor"
        if isinstance(out, (tuple, list)) and all(isinstance(t, Tensor) for t in out):
            return [t._t for t in out], "tuple" if isinstance(out, tuple) else "list"
        what = type(out).__name__
        if isinstance(out, (tuple, list)):
            what = f"a {what} holding {', '.join(sorted({type(t).__name__ for t in out if not isinstance(t, Tensor)}))}"
        raise TypeError(f"function '{self.name}' must return a Tensor or a tuple or list of Tensors, got {what}")


def _rebuild(x, placeholders):
    """x with each Tensor replaced by the next placeholder (the order of Function._key)."""
    if isinstance(x, Tensor):
        return next(placeholders)
    if isinstance(x, (tuple, list)):
        return type(x)(_rebuild(v, placeholders) for v in x)
    return x
