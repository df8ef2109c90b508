"""Autograd beyond Tensor's methods (docs/autograd.md): grad() for gradients as values, and the
grad mode (no_grad / enable_grad / set_grad_enabled) as in torch.autograd."""
import functools

from . import _C
from .tensor import Tensor


def grad(outputs, inputs, grad_outputs=None):
    """d(outputs)/d(inputs) as lazy Tensors, one per input (zeros where outputs does not depend on
    it); .grad is not touched. Gradients are graphs of the forward values, so grad() of a gradient
    gives second derivatives (what torch calls create_graph=True, always on here)."""
    single = isinstance(inputs, Tensor)
    xs = [inputs] if single else list(inputs)
    dy = None if grad_outputs is None else grad_outputs._t
    gs = [Tensor._wrap(g) for g in _C.gradients(outputs._t, [x._t for x in xs], dy)]
    return tuple(gs)


class _GradMode:
    """A context manager and decorator that sets the grad mode and restores the previous one."""
    enabled = True

    def __enter__(self):
        self._prev = _C.grad_enabled()
        _C.set_grad_enabled(self.enabled)
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)
        return wrapped


class no_grad(_GradMode):
    """Inside, values computed from a tensor that requires grad are detached: no gradient flows
    through them and they do not require grad (torch.no_grad)."""
    enabled = False


class enable_grad(_GradMode):
    enabled = True


def set_grad_enabled(mode: bool) -> None:
    _C.set_grad_enabled(bool(mode))


def is_grad_enabled() -> bool:
    return _C.grad_enabled()
