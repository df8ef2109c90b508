"""The safetensors format, read and written by onegrad's own code (src/nn/safetensors.h; docs/nn.md
"Data and files"). The functions follow the safetensors package's torch API:

    from onegrad.safetensors import save_file, load_file
    save_file({"w": w, "b": b}, "model.safetensors", metadata={"epoch": "3"})
    state = load_file("model.safetensors")      # {"w": Tensor, "b": Tensor}, in the file's order

A malformed file raises onegrad.errors.FormatError naming the file and the problem; a file that
cannot be opened raises onegrad.errors.FileError (an OSError).
"""
import os
from collections import OrderedDict

from . import _C
from .tensor import Tensor

__all__ = ["save_file", "load_file", "load_metadata"]


def save_file(tensors, filename, metadata=None):
    """Writes {name: Tensor} (realized and copied out; the tensors are not changed) and an optional
    {str: str} metadata dict to `filename`."""
    items = []
    for name, t in dict(tensors).items():
        if not isinstance(name, str):
            raise TypeError(f"save_file: tensor names must be str, got {type(name).__name__}")
        if not isinstance(t, Tensor):
            raise TypeError(f"save_file: {name!r} is a {type(t).__name__}, not an onegrad Tensor")
        items.append((name, t._t))
    meta = {}
    for k, v in (metadata or {}).items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError(f"save_file: metadata maps str to str, got {k!r}: {v!r}")
        meta[k] = v
    _C.data.save_safetensors(os.fspath(filename), items, meta)


def _load(filename):
    tensors, metadata = _C.data.load_safetensors(os.fspath(filename))
    return OrderedDict((name, Tensor._wrap(t)) for name, t in tensors), metadata


def load_file(filename):
    """{name: Tensor} (CPU tensors owning their data), in the order of the file's header."""
    return _load(filename)[0]


def load_metadata(filename):
    """The file's __metadata__ as a {str: str} dict (empty when it has none)."""
    return dict(_load(filename)[1])
