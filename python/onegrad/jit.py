"""@onegrad.jit: capture the kernels a function launches once, replay them on later calls
(docs/jit.md; C++: src/engine/jit.h, onegrad::Jit).

    @onegrad.jit
    def train_step(x, y):
        opt.zero_grad()
        loss = model(x).cross_entropy(y)
        loss.backward()
        opt.step()
        return loss

The first call runs the function as usual; the second runs it again while capturing every kernel
its realizes launch; later calls copy the new input tensors into the captured input buffers,
redo the host steps that feed kernels (random counters, optimizer scalars) and run the captured
kernels: no Python of the function runs, no graph is built, nothing is scheduled or compiled.

Arguments: Tensors (the inputs; a replay's must have the captured call's shapes, dtypes and
devices, else ShapeError / DTypeError / DeviceError), and other values, nested in tuples, lists
and dicts, which are fixed at capture: a replay with a different one raises ArgumentError. The
result (a Tensor, or tuples, lists and dicts of them and of other values) is realized, and every
call returns fresh tensors: what a caller keeps, no later call changes.
"""
import functools

from . import _C
from .errors import ArgumentError
from .tensor import Tensor


class _Slot:
    """Where a tensor sat in a flattened structure."""

    def __eq__(self, other):
        return isinstance(other, _Slot)

    def __repr__(self):
        return "<tensor>"


_SLOT = _Slot()


def _flatten(x, tensors):
    """x with each Tensor replaced by _SLOT (appended to tensors), containers rebuilt as tuples."""
    if isinstance(x, Tensor):
        tensors.append(x)
        return _SLOT
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_flatten(v, tensors) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, _flatten(v, tensors)) for k, v in x.items()))
    return ("value", x)


def _rebuild(s, tensors):
    """The inverse of _flatten: the structure s with its slots filled from the iterator tensors."""
    if isinstance(s, _Slot):
        return next(tensors)
    kind, v = s
    if kind == "value":
        return v
    if kind == "dict":
        return {k: _rebuild(x, tensors) for k, x in v}
    items = [_rebuild(x, tensors) for x in v]
    return items if kind == "list" else tuple(items)


def jit(fn=None):
    """Decorator: @jit. The wrapped function's .fn is the function itself (un-jitted)."""
    if not callable(fn):
        raise TypeError(f"jit: expects a callable, got {type(fn).__name__}")
    return JitFunction(fn)


class JitFunction:
    """A jitted function: call it like the function it wraps. .captured says later calls replay,
    .kernels counts the captured kernel launches, .copies the device copies, .reset() drops the capture."""

    warmup_calls = _C.Jit.warmup_calls

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)
        self._impl = _C.Jit(self._run)
        self._args = None  # the structure of the call in progress
        self._key = None  # the captured call's argument structure, other values included
        self._result = None  # the structure of the last run's result

    def _run(self, tensors):
        args, kwargs = _rebuild(self._args, iter(Tensor._wrap(t) for t in tensors))
        outs = []
        self._result = _flatten(self.fn(*args, **kwargs), outs)
        return [t._t for t in outs]

    def __call__(self, *args, **kwargs):
        tensors = []
        structure = _flatten((args, kwargs), tensors)
        if self._impl.captured and structure != self._key:
            raise ArgumentError(f"jit: {self.__name__} was captured with arguments {self._key!r}, this call gives "
                                f"{structure!r}; only tensor values may change between calls")
        self._args = structure
        was_captured = self._impl.captured
        outs = self._impl([t._t for t in tensors])
        if not was_captured and self._impl.captured:
            self._key = structure
        return _rebuild(self._result, iter(Tensor._wrap(t) for t in outs))

    @property
    def captured(self):
        return self._impl.captured

    @property
    def kernels(self):
        return self._impl.kernels

    @property
    def copies(self):
        """The copies between devices in the captured command buffer (a .to() in the function)."""
        return self._impl.copies

    @property
    def calls(self):
        return self._impl.calls

    def reset(self):
        self._impl.reset()
        self._key = None
