"""In-place ops on Tensor (docs/tensor.md "In-place ops"): `a += b`, `a.add_(b)`, `t.zero_()`, ...

Each computes the out-of-place result with the Tensor method of the same name, then the C++
Tensor.inplace_ checks it against PyTorch's rules for an in-place result (this shape, a dtype this
tensor can hold) and writes it into this tensor's buffer: the same Tensor object is returned, and
aliases and views see the new values. Autograd follows the write (docs/autograd.md "In-place
writes"); a leaf that requires grad refuses it while gradients are on."""

from .tensor import Tensor


def _checked(name, compute):
    """An op whose result dtype must cast to this tensor's (no float into int, no number into bool)."""
    def method(self, *args, **kwargs):
        result = compute(self, *args, **kwargs)
        if result is NotImplemented:
            raise TypeError(f"{name}: unsupported operand {type(args[0]).__name__ if args else ''}")
        self._t.inplace_(name, result._t, False)
        return self
    method.__name__ = name
    return method


def _cast(name, compute):
    """An op whose result is cast to this dtype whatever it is (fill_, copy_, masked_fill_, ...)."""
    def method(self, *args, **kwargs):
        self._t.inplace_(name, compute(self, *args, **kwargs)._t, True)
        return self
    method.__name__ = name
    return method


def _value(self, x):
    """x as a tensor on this device, in its own dtype: the write casts it (fill_(2.7) on an int
    tensor writes 2, as torch's; a number is never first squeezed into this dtype)."""
    return Tensor._coerce(x, device=self.device)


_BINARY = {"add_": "add", "sub_": "sub", "mul_": "mul", "div_": "div", "floor_divide_": "idiv",
           "remainder_": "mod", "pow_": "pow", "bitwise_and_": "bitwise_and", "bitwise_or_": "bitwise_or",
           "bitwise_xor_": "bitwise_xor", "bitwise_left_shift_": "lshift", "bitwise_right_shift_": "rshift",
           "logical_and_": "logical_and",
           "logical_or_": "logical_or", "logical_xor_": "logical_xor"}
_UNARY = ["neg", "abs", "exp", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tan", "relu", "sigmoid", "tanh",
          "floor", "ceil", "round", "trunc", "sign", "square", "reciprocal", "erf", "log1p", "expm1", "exp2",
          "logical_not", "bitwise_not", "silu", "hardswish", "hardsigmoid", "mish"]


def _binary_op(op):
    def compute(self, other, alpha=None):
        if alpha is not None:  # torch's add_(other, alpha=a) and sub_(other, alpha=a)
            other = Tensor._coerce(other, self.dtype, self.device) * alpha
        return getattr(self, op)(other)
    compute.__name__ = op
    return compute


def _unary_op(op):
    def compute(self):
        return getattr(self, op)()
    compute.__name__ = op
    return compute


def _install():
    for name, op in _BINARY.items():
        setattr(Tensor, name, _checked(name, _binary_op(op)))
    for op in _UNARY:
        setattr(Tensor, op + "_", _checked(op + "_", _unary_op(op)))
    Tensor.clamp_ = _checked("clamp_", lambda self, min=None, max=None: self.clamp(min, max))
    Tensor.clip_ = Tensor.clamp_
    Tensor.clamp_min_ = _checked("clamp_min_", lambda self, min: self.clamp(min=min))
    Tensor.clamp_max_ = _checked("clamp_max_", lambda self, max: self.clamp(max=max))
    Tensor.leaky_relu_ = _checked("leaky_relu_", lambda self, negative_slope=0.01: self.leaky_relu(negative_slope))
    Tensor.elu_ = _checked("elu_", lambda self, alpha=1.0: self.elu(alpha))
    Tensor.fill_ = _cast("fill_", lambda self, value: _value(self, value))
    Tensor.zero_ = _cast("zero_", lambda self: Tensor(0, device=self.device))
    Tensor.copy_ = _cast("copy_", lambda self, src: _value(self, src))
    Tensor.masked_fill_ = _cast("masked_fill_", lambda self, mask, value: self.masked_fill(mask, value))
    Tensor.uniform_ = _cast("uniform_", lambda self, a=0.0, b=1.0: Tensor.uniform(
        *self.shape, low=a, high=b, dtype=self.dtype, device=self.device))
    Tensor.normal_ = _cast("normal_", lambda self, mean=0.0, std=1.0: Tensor.normal(
        *self.shape, mean=mean, std=std, dtype=self.dtype, device=self.device))
    # the augmented operators: in place, as torch's (a @= b stays a rebinding: torch 1.13 has no __imatmul__)
    for dunder, name in (("__iadd__", "add_"), ("__isub__", "sub_"), ("__imul__", "mul_"), ("__itruediv__", "div_"),
                         ("__ifloordiv__", "floor_divide_"), ("__imod__", "remainder_"), ("__ipow__", "pow_"),
                         ("__iand__", "bitwise_and_"), ("__ior__", "bitwise_or_"), ("__ixor__", "bitwise_xor_"),
                         ("__ilshift__", "bitwise_left_shift_"), ("__irshift__", "bitwise_right_shift_")):
        setattr(Tensor, dunder, _inplace_operator(getattr(Tensor, name)))

    def detach_(self):
        """Stops this tensor from requiring grad, in place (a view of one that does: ArgumentError)."""
        self._t.detach_()
        return self
    Tensor.detach_ = detach_

    def _get_data(self):
        """The same buffer with no gradient history (writes through it are not seen by autograd)."""
        return Tensor._wrap(self._t.data())

    def _set_data(self, other):
        self._t.set_data(_value(self, other)._t)
    Tensor.data = property(_get_data, _set_data)


def _inplace_operator(method):
    def op(self, other):
        if not isinstance(other, Tensor) and self._other(other) is None:
            return NotImplemented
        return method(self, other)
    return op


_install()
