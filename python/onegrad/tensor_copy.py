"""copy.deepcopy and pickle of a Tensor, as torch's: the copy owns a new buffer holding the same
values, dtype and device, and keeps requires_grad; a Parameter comes back a Parameter. A deep copy
of a plain Tensor also copies .grad; a Parameter's deep copy and any pickle drop it (torch's
Parameter.__deepcopy__ and pickle do). Values travel through numpy, so a pickle holds plain arrays
(bfloat16 as its exact float32 values, cast back on load)."""


def _values(t):
    return t.detach().numpy(), t.dtype.name, t.device


def rebuild(cls, array, dtype, device, requires_grad):
    from .nn.module import Parameter
    from .tensor import Tensor
    t = Tensor(array, dtype=dtype, device=device).realize()
    if issubclass(cls, Parameter):
        return cls(t, requires_grad=requires_grad)
    out = cls._wrap(t._t)
    if requires_grad:
        out._t.requires_grad_(True)
    return out


def reduce(t):
    """For pickle: a call that rebuilds t from its values."""
    return rebuild, (type(t),) + _values(t) + (t.requires_grad,)


def deepcopy(t, memo):
    from .nn.module import Parameter
    out = rebuild(type(t), *_values(t), t.requires_grad)
    if t.grad is not None and not isinstance(t, Parameter):
        out.grad = rebuild(type(t.grad), *_values(t.grad), False)
    memo[id(t)] = out
    return out
