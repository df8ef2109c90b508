"""Activations as modules (torch.nn.ReLU, GELU, ...) and torch.nn.MultiheadAttention, whose math
is src/nn/attention_layer.h's (through _C.nn)."""

from .. import _C
from ..tensor import Tensor
from . import functional as F
from . import init
from .linear import Linear
from .module import Module, Parameter


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()

    def forward(self, input):
        return input.relu()


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def forward(self, input):
        return input.gelu(self.approximate)


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        return input.sigmoid()


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()

    def forward(self, input):
        return input.silu()


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, input):
        return input.leaky_relu(self.negative_slope)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)  # dim None: torch's implicit choice, with its warning

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim)


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha

    def forward(self, input):
        return input.elu(self.alpha)

    def extra_repr(self):
        return f"alpha={self.alpha}"


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return input.softplus(self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class PReLU(Module):
    """x where x > 0, a·x elsewhere, with learnt slopes a: one, or one per channel (axis 1)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        if num_parameters < 1:
            raise ValueError(f"PReLU: num_parameters must be positive, got {num_parameters}")
        self.num_parameters = num_parameters
        self.weight = Parameter(Tensor.full((num_parameters,), float(init), dtype=dtype, device=device))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class MultiheadAttention(Module):
    """torch 1.13's MultiheadAttention with kdim = vdim = embed_dim (no add_bias_kv, add_zero_attn).
    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True) -> (output, weights or None). Bool masks are True where attention is
    NOT allowed (torch's MHA convention); float masks are added to the scores."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim != embed_dim "
                                      "are not supported")
        if num_heads <= 0 or embed_dim % num_heads:
            raise ValueError(f"MultiheadAttention: embed_dim ({embed_dim}) must be divisible by num_heads ({num_heads})")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = Parameter(Tensor.empty(3 * embed_dim, embed_dim, dtype=dtype, device=device))
        if bias:
            self.in_proj_bias = Parameter(Tensor.empty(3 * embed_dim, dtype=dtype, device=device))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        init.xavier_uniform_(self.in_proj_weight)
        if bias:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True):
        def opt(t):
            return None if t is None else t._t

        out, weights = _C.nn.multi_head_attention(
            query._t, key._t, value._t, self.num_heads, self.in_proj_weight._t, opt(self.in_proj_bias),
            self.out_proj.weight._t, opt(self.out_proj.bias), opt(key_padding_mask), bool(need_weights),
            opt(attn_mask), bool(average_attn_weights), float(self.dropout), self.training, self.batch_first)
        return Tensor._wrap(out), None if weights is None else Tensor._wrap(weights)
