"""onegrad: a tensor compiler with a lazy Tensor (tinygrad's design, in C++20).

    from onegrad import Tensor, dtypes
    x = Tensor([[1.0, 2.0], [3.0, 4.0]])
    print((x @ x.T).softmax().numpy())

docs/python.md has the dtype and exception mappings.
"""

from . import errors
from .dtype import DType, dtypes
from .errors import (CompileError, DeviceError, DTypeError, Error, IndexShapeError, InternalError, ParseError,
                     RewriteError, ShapeError, VerifyError)
from .errors import FunctionError  # function
from .tensor import Tensor
from .device import Device
from . import _inplace  # noqa: F401 -- in-place ops: installs add_, __iadd__, .data ... on Tensor
from . import autograd
from . import optim
from .autograd import enable_grad, no_grad, set_grad_enabled
from . import nn
# data: IDX files, Fashion-MNIST, DataLoader; the safetensors format
from . import data, safetensors
from .errors import FileError, FormatError
from .function import Function, function  # function: the @function decorator
from .jit import JitFunction, jit  # jit: capture and replay (docs/jit.md)
# random (THREEFRY): torch-named free functions
from ._random import (bernoulli, initial_seed, manual_seed, multinomial, normal, rand, rand_like, randint, randint_like,
                      randn, randn_like, randperm, uniform)
# compose: torch-style free functions
from ._compose import (dot, einsum, eye, gather, index_select, linspace, masked_fill, matmul, outer, scatter,
                       scatter_add, scatter_reduce, tril, triu, where)
from ._sort import argsort, masked_select, nonzero, sort, topk, unique  # sorting and mask selection

# kernel inspection: the kernels a program would run, and opts on them
from .kernel import Kernel, Opt, kernels
from .errors import OptError
from .errors import TargetError
# memory plan: the allocator's current/peak bytes
from .memory import device_memory_stats, reset_peak_memory
# TIR: TVMScript programs parsed, checked and run on numpy arrays
from . import tir
from . import onnx  # ONNX import: onegrad.onnx.load (docs/onnx.md)
from .errors import UnsupportedError
from .symbolic import BoundDim, Variable  # symbolic shape dims
# settings: environment variables with scoped overrides (onegrad.settings.override(CHECK_INDEX=0))
from . import settings

__version__ = "0.1.0"

__all__ = ["Tensor", "nn", "DType", "dtypes", "errors", "Error", "ShapeError", "IndexShapeError", "DTypeError",
           "DeviceError", "CompileError", "VerifyError", "RewriteError", "InternalError", "ParseError"]
__all__ += ["autograd", "no_grad", "enable_grad", "set_grad_enabled"]  # autograd
__all__ += ["function", "Function", "FunctionError"]  # function
__all__ += ["jit", "JitFunction"]  # jit
__all__ += ["manual_seed", "initial_seed", "rand", "randn", "randint", "randperm", "normal", "uniform", "multinomial",
            "bernoulli", "rand_like", "randn_like", "randint_like"]  # random
__all__ += ["data", "safetensors", "FormatError", "FileError"]  # data
__all__ += ["kernels", "Kernel", "Opt", "OptError", "TargetError"]  # kernel inspection
__all__ += ["device_memory_stats", "reset_peak_memory"]  # memory plan
__all__ += ["tir"]  # TIR
__all__ += ["Variable", "BoundDim"]  # symbolic shape dims
__all__ += ["settings"]  # settings (CHECK_INDEX, DEBUG, ...)
__all__ += ["Device"]  # devices: Device.DEFAULT
__all__ += ["sort", "argsort", "topk", "unique", "masked_select", "nonzero"]  # sorting and mask selection

# torch-style top-level functions (zeros, exp, sum, cat, tensor, from_numpy, ...) and dtypes (float32,
# long, ...): onegrad/_toplevel.py. Last: sum, max, all, int, ... shadow the builtins from here on.
from . import _toplevel  # noqa: E402
from ._toplevel import *  # noqa: E402,F401,F403
from .errors import ValueRangeError  # noqa: E402
__all__ += _toplevel.__all__ + ["ValueRangeError"]
globals().update({_n: getattr(_toplevel, _n) for _n in _toplevel._SHADOWS_BUILTINS})
