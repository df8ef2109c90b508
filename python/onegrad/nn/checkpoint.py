"""Checkpoints: a model's state dict and its optimizer's state in one safetensors file.

The layout is src/nn/checkpoint.h's (the C++ `onegrad train` writes the same files): the model's
tensors under their state-dict names, so the file is a plain state dict to any safetensors reader
(torch's `load_state_dict(safetensors.torch.load_file(path))` takes it as is), the optimizer's
tensors under "optimizer.state.<param>.<name>", and its step counts and group options in the
metadata.
"""
from collections import OrderedDict

from .. import _C


def _impl(optimizer):
    if optimizer is None:
        return None
    impl = getattr(optimizer, "_impl", None)
    if impl is None:
        raise TypeError(f"checkpoint: expected an onegrad.optim optimizer, got {type(optimizer).__name__}")
    return impl


def save_checkpoint(path, model, optimizer=None):
    """Writes `model`'s state dict (a Module or a state dict) and, when given, `optimizer`'s state."""
    state = model.state_dict() if hasattr(model, "state_dict") else model
    _C.nn.save_checkpoint(str(path), [(k, t._t) for k, t in state.items()], _impl(optimizer))


def load_checkpoint(path, model=None, optimizer=None):
    """Loads a checkpoint: the optimizer's state into `optimizer` (when given) and the model's
    entries into `model` (when given, strictly). Returns the model's entries as an OrderedDict."""
    from ..tensor import Tensor
    entries = OrderedDict((k, Tensor._wrap(t)) for k, t in _C.nn.read_checkpoint(str(path), _impl(optimizer)))
    if model is not None:
        model.load_state_dict(entries)
    return entries
