"""Activations as modules (torch.nn.ReLU, GELU, ..., Softmax, LogSoftmax) and
torch.nn.MultiheadAttention: the C++ layers of src/nn (cpp_layer.py)."""

from ..tensor import Tensor
from . import functional as F
from .cpp_layer import CppLayer
from .linear import Linear  # noqa: F401 (MultiheadAttention's out_proj is wrapped as this class)


class _Pointwise(CppLayer):
    """An activation that is a C++ layer of src/nn/activation_layers.h (one Tensor op) with the
    module's settings: _params lists torch's arguments, in torch's order, with their defaults (as
    attributes for repr). `inplace` is accepted and ignored (docs/torch-differences.md)."""
    _params = ()

    def __init__(self, *args, **kwargs):
        names = [n for n, _ in self._params]
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}: takes at most {len(names)} arguments, got {len(args)}")
        values = dict(self._params)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in values or k in names[:len(args)]:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated argument {k!r}")
            values[k] = v
        values.pop("inplace", None)
        super().__init__(**values)
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def extra_repr(self):
        return ", ".join(f"{n}={getattr(self, n)}" for n, _ in self._params if n != "inplace")


class ReLU(_Pointwise):
    _params = (("inplace", False),)


class GELU(_Pointwise):
    _params = (("approximate", "none"),)


class Tanh(_Pointwise):
    pass


class Sigmoid(_Pointwise):
    pass


class SiLU(_Pointwise):
    _params = (("inplace", False),)


class LeakyReLU(_Pointwise):
    _params = (("negative_slope", 0.01), ("inplace", False))


class ELU(_Pointwise):
    _params = (("alpha", 1.0), ("inplace", False))


class Softplus(_Pointwise):
    """log(1 + exp(beta·x)) / beta, and x itself where beta·x > threshold."""
    _params = (("beta", 1), ("threshold", 20))  # torch 1.13's int defaults


class Softmax(CppLayer):
    """The C++ layer (src/nn/activation_layers.h); without dim, torch's implicit axis, with torch's
    deprecation warning (the warning is Python's)."""
    _op = "softmax"

    def __init__(self, dim=None):
        super().__init__(dim)
        self.dim = dim

    def forward(self, input):
        if self.dim is None:
            F._softmax_dim(self._op, input.ndim, None)  # the warning; C++ picks the same axis
        return super().forward(input)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    _op = "log_softmax"


class PReLU(CppLayer):
    """x where x > 0, a·x elsewhere, with learnt slopes a: one, or one per channel (axis 1)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__(num_parameters, init, device=device, dtype=dtype)
        self.num_parameters = num_parameters

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class MultiheadAttention(CppLayer):
    """torch 1.13's MultiheadAttention with kdim = vdim = embed_dim (no add_bias_kv, add_zero_attn):
    the C++ layer of src/nn/attention_layer.h, out_proj its child Linear.
    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True) -> (output, weights or None). Bool masks are True where attention is
    NOT allowed (torch's MHA convention); float masks are added to the scores."""

    _absent = ("in_proj_bias",)

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim != embed_dim "
                                      "are not supported")
        super().__init__(embed_dim, num_heads, dropout=dropout, bias=bias, batch_first=batch_first, device=device,
                         dtype=dtype)
        self._describe()

    def _describe(self):
        a = self._cpp_arguments
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = (a["embed_dim"], a["num_heads"], a["dropout"],
                                                                          a["batch_first"])
        self.head_dim = self.embed_dim // self.num_heads

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True):
        def opt(t):
            return None if t is None else t._t

        out, weights = self._cpp.attention_forward(query._t, key._t, value._t, opt(key_padding_mask),
                                                   bool(need_weights), opt(attn_mask), bool(average_attn_weights))
        return Tensor._wrap(out), None if weights is None else Tensor._wrap(weights)
