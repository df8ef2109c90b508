"""torch.nn.TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder and
TransformerDecoder (torch 1.13): the same submodules under the same names (self_attn,
multihead_attn, linear1, linear2, norm1..3, dropout, dropout1..3), so a torch state dict loads by
name, and the same post-norm / pre-norm (norm_first) wiring. Masks are MultiheadAttention's: bool
True (or -inf) where attention is not allowed."""

import copy
from collections import OrderedDict

from ..tensor import Tensor
from . import functional as F
from .activation import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module, Parameter
from .normalization import LayerNorm




def _activation(name_or_fn, kind):
    if isinstance(name_or_fn, str):
        if name_or_fn == "relu":
            return F.relu
        if name_or_fn == "gelu":
            return F.gelu
        raise ValueError(f"{kind}: activation should be relu/gelu, not {name_or_fn}")
    if not callable(name_or_fn):
        raise TypeError(f"{kind}: activation must be 'relu', 'gelu' or a callable, got {type(name_or_fn).__name__}")
    return name_or_fn


class _FeedForwardLayer(Module):
    """What both layers share: the feed-forward block and its dropouts, the activation, the
    residual wiring."""

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

    def _ff_block(self, x, dropout):
        return dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    @staticmethod
    def _attend(attn, dropout, q, kv, mask, key_padding_mask):
        return dropout(attn(q, kv, kv, attn_mask=mask, key_padding_mask=key_padding_mask, need_weights=False)[0])


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

    def _sa_block(self, x, mask, key_padding_mask):
        return self._attend(self.self_attn, self.dropout1, x, x, mask, key_padding_mask)

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x, self.dropout2))


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
        x = tgt
        if self.norm_first:
            h = self.norm1(x)
            x = x + self._attend(self.self_attn, self.dropout1, h, h, tgt_mask, tgt_key_padding_mask)
            x = x + self._attend(self.multihead_attn, self.dropout2, self.norm2(x), memory, memory_mask,
                                 memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._attend(self.self_attn, self.dropout1, x, x, tgt_mask,
                                        tgt_key_padding_mask))
        x = self.norm2(x + self._attend(self.multihead_attn, self.dropout2, x, memory, memory_mask,
                                        memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x, self.dropout3))


def _copy_tensor(t):
    # through the host: a new buffer with the same values (torch's deepcopy copies the storage)
    return Tensor(t.numpy(), dtype=t.dtype, device=t.device)


def _deepcopy_module(m):
    """A copy of a module tree with its own parameters and buffers (equal values), as torch's
    copy.deepcopy of a layer gives; the other attributes are copied shallowly."""
    new = copy.copy(m)
    params = OrderedDict()
    for k, p in m._parameters.items():
        params[k] = None if p is None else Parameter(_copy_tensor(p), requires_grad=p.requires_grad)
    object.__setattr__(new, "_parameters", params)
    object.__setattr__(new, "_buffers", OrderedDict((k, None if b is None else _copy_tensor(b).realize())
                                                    for k, b in m._buffers.items()))
    object.__setattr__(new, "_non_persistent_buffers", set(m._non_persistent_buffers))
    object.__setattr__(new, "_modules", OrderedDict((k, None if c is None else _deepcopy_module(c))
                                                    for k, c in m._modules.items()))
    return new


class _LayerStack(Module):
    """num_layers copies of a layer (each with its own parameters, equal at the start, as torch's
    deep copies), then norm if given."""

    def __init__(self, layer, num_layers, norm, kind):
        super().__init__()
        if not isinstance(layer, Module):
            raise TypeError(f"{kind}: the layer must be a Module, got {type(layer).__name__}")
        if not isinstance(num_layers, int) or num_layers < 1:
            raise ValueError(f"{kind}: num_layers must be a positive integer, got {num_layers!r}")
        self.layers = ModuleList([_deepcopy_module(layer) for _ in range(num_layers)])
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
