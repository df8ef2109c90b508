"""ONNX models (docs/onnx.md): onegrad.onnx.load(path) returns a Model, a callable that takes the
graph's inputs (numpy arrays or onegrad Tensors) by position or by name and returns its outputs as a
dict {name: Tensor}. The model's nodes are built from Tensor ops, so it compiles through the same
pipeline as any onegrad program, and it runs under the JIT: per input signature (shapes, dtypes)
the first call builds the graph and runs it, the second captures its kernels, later calls replay
them (no graph, schedule or cache look-up). Dims the file names (dim_param: "batch") are
Variables, so a new batch size compiles nothing where the ops allow it (docs/onnx.md).

    m = onegrad.onnx.load("model.onnx")
    out = m(x)                    # or m(input=x), or m({"input": x})
    y = out["output"].numpy()

Errors: a truncated or corrupted file is FormatError, a missing file FileError, an input of the wrong
dtype DTypeError and of the wrong shape ShapeError (naming the input), an op onegrad does not run
UnsupportedError naming the op, the node and the opset.
"""
from __future__ import annotations

import numpy as np

from . import _C
from .errors import ArgumentError, UnsupportedError
from .tensor import Tensor

# numpy dtypes C++ copies byte for byte into a tensor of the same name (numpy has no bfloat16).
_SAME_BYTES = {np.dtype(n): n for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                        "uint32", "uint64", "float16", "float32", "float64")}


def _module():
    mod = getattr(_C, "onnx", None)
    if mod is None:
        raise UnsupportedError("onegrad.onnx: this build has no ONNX import (it needs libprotobuf-dev, "
                               "protobuf-compiler and python3-onnx's onnx.proto at build time)")
    return mod


def _as_tensor(name, value):
    if isinstance(value, Tensor):
        return value._t
    if type(value) is np.ndarray and value.flags.c_contiguous:
        # The common case straight to C++ (what Tensor(value) ends in, without its checks): on a
        # model that runs in ~0.1 ms, Tensor()'s Python steps were a tenth of the call.
        same = _SAME_BYTES.get(value.dtype)  # a non-native byte order is another dtype: not found
        if same is not None:
            return _C.Tensor.from_buffer(value, value.shape, same, _C.default_device())
    if isinstance(value, np.ndarray) or np.isscalar(value):
        return Tensor(np.asarray(value))._t  # Tensor copies any layout; keeps 0-d arrays 0-d
    raise TypeError(f"onegrad.onnx: input '{name}' must be a numpy array or an onegrad Tensor, "
                    f"got {type(value).__name__}")


class Model:
    """An ONNX model loaded for running; see the module docstring."""

    def __init__(self, model, device: str = "CPU", jit: bool = True):
        self._m = model
        self.device = device
        model.set_jit(jit)
        # Read once: each read of _m.inputs/_m.outputs builds its Python lists anew.
        self._input_names = tuple(name for name, _, _ in model.inputs)
        self._output_names = tuple(name for name, _, _ in model.outputs)

    @property
    def inputs(self):
        """[(name, type text such as 'FLOAT[batch, 3]', dims or None)] of the inputs to give."""
        return list(self._m.inputs)

    @property
    def outputs(self):
        return list(self._m.outputs)

    @property
    def input_names(self):
        return list(self._input_names)

    @property
    def output_names(self):
        return list(self._output_names)

    @property
    def opsets(self):
        return dict(self._m.opsets)

    @property
    def op_types(self):
        return list(self._m.op_types)

    def __call__(self, *args, **kwargs):
        names = self._input_names
        if len(args) == 1 and isinstance(args[0], dict) and not kwargs:
            named = dict(args[0])
        else:
            if len(args) > len(names):
                raise ArgumentError(f"onnx model: takes {len(names)} inputs ({', '.join(names)}), given {len(args)}")
            named = dict(zip(names, args))
            for k, v in kwargs.items():
                if k in named:
                    raise ArgumentError(f"onnx model: input '{k}' given twice")
                named[k] = v
        outs = self._m.call({k: _as_tensor(k, v) for k, v in named.items()}, self.device)
        return {name: Tensor._wrap(outs[name]) for name in self._output_names}

    def run_lazy(self, inputs: dict):
        """The outputs as lazy Tensors, without the JIT: {name: Tensor}, realized when read."""
        outs = self._m.run({k: _as_tensor(k, v) for k, v in inputs.items()}, self.device)
        return {name: Tensor._wrap(outs[name]) for name in self._output_names}

    @property
    def jit_stats(self):
        """{signatures, plain_calls, captures, replays, value_inputs, not_jitted, not_symbolic}."""
        return dict(self._m.jit_stats)

    @property
    def symbolic_dims(self):
        """Named dims (dim_param) run as Variables (default True)."""
        return self._m.symbolic_dims

    @symbolic_dims.setter
    def symbolic_dims(self, on):
        self._m.symbolic_dims = bool(on)

    def __repr__(self):
        ins = ", ".join(f"{n}: {t}" for n, t, _ in self._m.inputs)
        outs = ", ".join(f"{n}: {t}" for n, t, _ in self._m.outputs)
        return f"onegrad.onnx.Model({ins} -> {outs})"


def load(path, device: str = "CPU", jit: bool = True) -> Model:
    """The ONNX model in the file at `path` (external data files are read from its folder).
    jit=False: every call builds and runs the graph."""
    return Model(_module().Model.load(str(path)), device, jit)


def load_bytes(data: bytes, base_dir: str = ".", device: str = "CPU", jit: bool = True) -> Model:
    """The ONNX model serialized in `data`; external data is read relative to base_dir."""
    return Model(_module().Model.parse(bytes(data), base_dir), device, jit)
