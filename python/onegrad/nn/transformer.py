"""torch.nn.TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder and
TransformerDecoder (torch 1.13): the same submodules under the same names (self_attn,
multihead_attn, linear1, linear2, norm1..3, dropout, dropout1..3), so a torch state dict loads by
name, and the same post-norm / pre-norm (norm_first) wiring. The layers keep the submodules; their
computation is src/nn/transformer.h's (through _C.nn), the one the C++ layers run. Masks are
MultiheadAttention's: bool True (or -inf) where attention is not allowed."""

import copy

from .. import _C
from ..tensor import Tensor
from . import functional as F
from .activation import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

_NAMED = {"relu": F.relu, "gelu": F.gelu}


def _activation(name_or_fn, kind):
    if isinstance(name_or_fn, str):
        _C.nn.check_activation(name_or_fn, kind)
        return _NAMED[name_or_fn]
    if not callable(name_or_fn):
        raise TypeError(f"{kind}: activation must be 'relu', 'gelu' or a callable, got {type(name_or_fn).__name__}")
    return name_or_fn


def _opt(t):
    return None if t is None else t._t


def _rate(dropout):
    """A Dropout child's probability while it trains, else 0."""
    return float(dropout.p) if dropout.training else 0.0


def _attention(m):
    return (m.in_proj_weight._t, _opt(m.in_proj_bias), m.out_proj.weight._t, _opt(m.out_proj.bias), m.num_heads,
            float(m.dropout) if m.training else 0.0, bool(m.batch_first))


def _linear(m):
    return m.weight._t, _opt(m.bias)


def _norm(m):
    return list(m.normalized_shape), _opt(m.weight), _opt(m.bias), float(m.eps)


class _FeedForwardLayer(Module):
    """What both layers share: the feed-forward block and its dropouts, the activation."""

    def _init_ff(self, d_model, dim_feedforward, dropout, device, dtype):
        self.linear1 = Linear(d_model, dim_feedforward, device=device, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, device=device, dtype=dtype)

    def _set_activation(self, activation):
        fn = _activation(activation, type(self).__name__)
        if isinstance(fn, Module):
            self.activation = fn  # a module activation is a child, as in torch
        else:
            object.__setattr__(self, "activation", fn)

    def _ff_args(self):
        """linear1, linear2, the inner dropout and the activation: a name C++ knows, or a function of _C
        tensors that calls the Python one."""
        act = self.activation
        name = next((k for k, f in _NAMED.items() if act is f), None)
        return (_linear(self.linear1), _linear(self.linear2), _rate(self.dropout),
                name or (lambda t: act(Tensor._wrap(t))._t))


class TransformerEncoderLayer(_FeedForwardLayer):
    """forward(src, src_mask=None, src_key_padding_mask=None): self-attention then feed-forward,
    each added back to its input; post-norm (norm after each residual) or, with norm_first,
    pre-norm."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, device=device,
                                            dtype=dtype)
        self._init_ff(d_model, dim_feedforward, dropout, device, dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self._set_activation(activation)

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        return Tensor._wrap(_C.nn.transformer_encoder_layer(
            _attention(self.self_attn), *self._ff_args(), _norm(self.norm1), _norm(self.norm2),
            _rate(self.dropout1), _rate(self.dropout2), bool(self.norm_first), src._t, _opt(src_mask),
            _opt(src_key_padding_mask), self.training))


class TransformerDecoderLayer(_FeedForwardLayer):
    """forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None): self-attention over tgt, attention from tgt to memory, then
    feed-forward, each with its residual and norm (norm1..3)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, device=device,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 device=device, dtype=dtype)
        self._init_ff(d_model, dim_feedforward, dropout, device, dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self._set_activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        return Tensor._wrap(_C.nn.transformer_decoder_layer(
            _attention(self.self_attn), _attention(self.multihead_attn), *self._ff_args(), _norm(self.norm1),
            _norm(self.norm2), _norm(self.norm3), _rate(self.dropout1), _rate(self.dropout2), _rate(self.dropout3),
            bool(self.norm_first), tgt._t, memory._t, _opt(tgt_mask), _opt(memory_mask), _opt(tgt_key_padding_mask),
            _opt(memory_key_padding_mask), self.training))


class _LayerStack(Module):
    """num_layers copies of a layer (each with its own parameters, equal at the start, as torch's
    deep copies), then norm if given."""

    def __init__(self, layer, num_layers, norm, kind):
        super().__init__()
        if not isinstance(layer, Module):
            raise TypeError(f"{kind}: the layer must be a Module, got {type(layer).__name__}")
        if not isinstance(num_layers, int) or num_layers < 1:
            raise ValueError(f"{kind}: num_layers must be a positive integer, got {num_layers!r}")
        self.layers = ModuleList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def _finish(self, x):
        return x if self.norm is None else self.norm(x)


class TransformerEncoder(_LayerStack):
    """forward(src, mask=None, src_key_padding_mask=None) through each copy of encoder_layer."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__(encoder_layer, num_layers, norm, "TransformerEncoder")

    def forward(self, src, mask=None, src_key_padding_mask=None):
        x = src
        for layer in self.layers:
            x = layer(x, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        return self._finish(x)


class TransformerDecoder(_LayerStack):
    """forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None) through each copy of decoder_layer."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__(decoder_layer, num_layers, norm, "TransformerDecoder")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                      tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        return self._finish(x)
