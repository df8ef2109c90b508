"""torch.nn.TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder and
TransformerDecoder (torch 1.13). The layers are the C++ layers of src/nn/transformer_layers.h
(cpp_layer.py): torch's submodules under torch's names (self_attn, multihead_attn, linear1, linear2,
norm1..3, dropout, dropout1..3) are the C++ layer's children, so a torch state dict loads by name, and
the post-norm / pre-norm (norm_first) wiring is C++'s. Masks are MultiheadAttention's: bool True (or
-inf) where attention is not allowed. The stacks deep-copy the layer they are given, as torch's."""

import copy

from .. import _C
from ..tensor import Tensor
from . import functional as F
from .container import ModuleList
from .cpp_layer import CppLayer
from .module import Module

_NAMED = {"relu": F.relu, "gelu": F.gelu}


def _activation(name_or_fn, kind):
    """(the name the C++ layer is built with, the callable torch's `activation` attribute shows):
    torch's names and onegrad's F.relu/F.gelu are C++'s own activations; any other callable is
    called from the C++ forward."""
    if isinstance(name_or_fn, str):
        return name_or_fn, _NAMED.get(name_or_fn)  # a bad name: the C++ layer's ArgumentError
    if not callable(name_or_fn):
        raise TypeError(f"{kind}: activation must be 'relu', 'gelu' or a callable, got {type(name_or_fn).__name__}")
    name = next((k for k, f in _NAMED.items() if name_or_fn is f), None)
    return name or "relu", name_or_fn


class _TransformerLayer(CppLayer):
    """The C++ layer (src/nn/transformer_layers.h) with torch's submodules as its children. A callable
    activation other than relu/gelu: the C++ layer is built with "relu" and its activation replaced
    by a function calling the callable (a Module activation is also a child, as in torch, so its
    parameters are in the state dict); copies and pickles set it again (_point)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        name, fn = _activation(activation, type(self).__name__)
        super().__init__(d_model, nhead, dim_feedforward, dropout, name, layer_norm_eps, batch_first, norm_first,
                         device=device, dtype=dtype)
        self.batch_first, self.norm_first = batch_first, norm_first
        self.activation = fn  # a Module activation becomes a child, as in torch

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name == "activation":  # at construction, or a user's later assignment: the C++ layer follows
            self._set_activation()

    def _set_activation(self):
        act = self.activation
        name = next((k for k, f in _NAMED.items() if act is f), None)
        self._cpp.set_activation(name if name else (lambda t: act(Tensor._wrap(t))._t))

    def _point(self, cpp):
        super()._point(cpp)
        self._set_activation()

    def extra_repr(self):
        return ""


def _opt(t):
    return None if t is None else t._t


class TransformerEncoderLayer(_TransformerLayer):
    """forward(src, src_mask=None, src_key_padding_mask=None): self-attention then feed-forward,
    each added back to its input; post-norm (norm after each residual) or, with norm_first,
    pre-norm."""

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        return Tensor._wrap(self._cpp.encoder_forward(src._t, _opt(src_mask), _opt(src_key_padding_mask)))


class TransformerDecoderLayer(_TransformerLayer):
    """forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None): self-attention over tgt, attention from tgt to memory, then
    feed-forward, each with its residual and norm (norm1..3)."""

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        return Tensor._wrap(self._cpp.decoder_forward(tgt._t, memory._t, _opt(tgt_mask), _opt(memory_mask),
                                                      _opt(tgt_key_padding_mask), _opt(memory_key_padding_mask)))


class _LayerStack(Module):
    """num_layers deep copies of a layer (each with its own parameters, equal at the start, as torch's),
    then norm if given. Forward runs C++'s TransformerEncoder/Decoder (transformer_layers.h) over the
    copies' C++ layers and the norm's, made at each call from the current children, so replacing a
    child is seen and there is no C++ state to copy or pickle. A layer or norm that is a user's
    Python module (no C++ layer) is run by the Python loop instead."""

    def __init__(self, layer, num_layers, norm, kind):
        super().__init__()
        if not isinstance(layer, Module):
            raise TypeError(f"{kind}: the layer must be a Module, got {type(layer).__name__}")
        if not isinstance(num_layers, int) or num_layers < 1:
            raise ValueError(f"{kind}: num_layers must be a positive integer, got {num_layers!r}")
        self.layers = ModuleList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def _cpp_stack(self, layer_type):
        """The C++ stack over the children, or None when one of them has no C++ layer of that kind
        (or a subclass's own forward)."""
        if not all(type(m).forward is layer_type.forward and isinstance(m, layer_type) for m in self.layers):
            return None
        norm = self.norm
        if norm is not None and not (isinstance(norm, CppLayer) and type(norm).forward is CppLayer.forward):
            return None
        return _C.nn.transformer_stack([m._cpp for m in self.layers], None if self.norm is None else self.norm._cpp)

    def _finish(self, x):
        return x if self.norm is None else self.norm(x)


class TransformerEncoder(_LayerStack):
    """forward(src, mask=None, src_key_padding_mask=None) through each copy of encoder_layer."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__(encoder_layer, num_layers, norm, "TransformerEncoder")

    def forward(self, src, mask=None, src_key_padding_mask=None):
        stack = self._cpp_stack(TransformerEncoderLayer)
        if stack is not None:
            return Tensor._wrap(stack.encoder_forward(src._t, _opt(mask), _opt(src_key_padding_mask)))
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
        stack = self._cpp_stack(TransformerDecoderLayer)
        if stack is not None:
            return Tensor._wrap(stack.decoder_forward(tgt._t, memory._t, _opt(tgt_mask), _opt(memory_mask),
                                                      _opt(tgt_key_padding_mask), _opt(memory_key_padding_mask)))
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                      tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        return self._finish(x)
