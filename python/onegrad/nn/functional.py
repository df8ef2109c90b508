"""Stateless neural-network ops under torch.nn.functional's names and argument orders. Each is a
thin front over a Tensor method (the C++ composition in src/tensor/), so the graph and the error
messages are the same from C++ and Python."""


# ---- random: dropout (src/tensor/random.h)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeros each element with probability p (THREEFRY bits) and scales the survivors by 1/(1-p);
    the input itself when not training. `inplace` is not supported (tensors are immutable)."""
    if inplace:
        raise NotImplementedError("dropout: inplace=True is not supported (onegrad tensors are immutable)")
    return input.dropout(p, training)
# ---- reductions/losses: log_softmax, one_hot and the losses (Tensor methods, C++ loss.cpp)

from ..tensor import Tensor as _Tensor


def _reduction(size_average, reduce, reduction):
    """torch's legacy size_average/reduce arguments, mapped to a reduction name as torch does."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


def _as_tensor(x):
    return x if isinstance(x, _Tensor) else _Tensor(x)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = _as_tensor(input)
    x = x if dtype is None else x.cast(dtype)
    return x.log_softmax(dim=_softmax_dim("log_softmax", x.ndim, dim))


def one_hot(tensor, num_classes=-1):
    return _as_tensor(tensor).one_hot(num_classes)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    return _as_tensor(input).nll_loss(target, weight, ignore_index, _reduction(size_average, reduce, reduction))


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    return _as_tensor(input).cross_entropy(target, weight, ignore_index, _reduction(size_average, reduce, reduction),
                                           label_smoothing)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _as_tensor(input).mse_loss(target, _reduction(size_average, reduce, reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _as_tensor(input).l1_loss(target, _reduction(size_average, reduce, reduction))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    return _as_tensor(input).binary_cross_entropy(target, weight, _reduction(size_average, reduce, reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    return _as_tensor(input).binary_cross_entropy_with_logits(target, weight,
                                                              _reduction(size_average, reduce, reduction), pos_weight)

# ---- end reductions/losses
# ---- neural-net ops (nn ops area): convolutions, pools, normalizations, attention, interpolate. Each
# takes the input tensor first, as torch.nn.functional does (onegrad/_nn.py).
from .._nn import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool1d,  # noqa: E402
                   adaptive_max_pool2d, adaptive_max_pool3d, avg_pool1d, avg_pool2d, avg_pool3d, batch_norm,
                   conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, group_norm,
                   interpolate, layer_norm, max_pool1d, max_pool2d, max_pool3d, scaled_dot_product_attention)
# ---- end of neural-net ops
# ---- shape ops: pad (src/tensor/pad_modes.cpp)


def pad(input, pad, mode="constant", value=None):
    """torch.nn.functional.pad: `pad` is flat, from the last axis backwards ((left, right, top,
    bottom, ...)); negative amounts crop. Modes constant, reflect, replicate, circular on any rank
    (PyTorch 1.13 takes the non-constant modes on 2-D to 5-D inputs only)."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"pad: unknown padding mode {mode!r} (known: constant, reflect, replicate, circular)")
    if not isinstance(pad, (tuple, list)) or not all(isinstance(p, int) or hasattr(p, "__index__") for p in pad):
        raise TypeError(f"pad: expected a tuple of ints, got {pad!r}")
    return input._pad_mode(tuple(pad), mode, value)
# ---- end shape ops
# ---- modules: the functions the layers of onegrad.nn call (docs/nn.md "Modules")
from .. import _C  # noqa: E402
from ..errors import DTypeError as _DTypeError  # noqa: E402


def linear(input, weight, bias=None):
    """input @ weight.T + bias (torch.nn.functional.linear)."""
    y = input @ weight.T
    return y if bias is None else y + bias


def embedding(input, weight, padding_idx=None):
    """Rows of weight picked by integer indices: (...) -> (..., dim); the row padding_idx passes
    no gradient back (torch)."""
    if not input.dtype.is_int:
        raise _DTypeError(f"embedding: indices must be integers, got {input.dtype.name}")
    w = weight
    if padding_idx is not None:
        is_pad = _Tensor.arange(weight.shape[0]).reshape(-1, 1).eq(int(padding_idx))
        w = is_pad.where(weight.detach(), weight)
    return input._wrap(_C.nn.embedding(w._t, input._t))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input^2 over normalized_shape) + eps) * weight (torch 2.4; src/nn/norm_layers.h)."""
    shape = [int(normalized_shape)] if isinstance(normalized_shape, int) else [int(d) for d in normalized_shape]
    return input._wrap(_C.nn.rms_norm(input._t, shape, None if weight is None else weight._t,
                                      None if eps is None else float(eps)))


def relu(input, inplace=False):
    return input.relu()


def gelu(input, approximate="none"):
    return input.gelu(approximate)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    x = input if dtype is None else input.cast(dtype)
    return x.softmax(dim=_softmax_dim("softmax", x.ndim, dim))

# ---- end modules
# ---- everyday activations, normalize, im2col and the remaining losses (docs/nn.md "Functions")
import warnings as _warnings  # noqa: E402

from .im2col import fold, unfold  # noqa: E402,F401
from .loss_functions import cosine_embedding_loss, huber_loss, kl_div, smooth_l1_loss  # noqa: E402,F401


def _no_inplace(op, inplace):
    # onegrad's in-place writes are Tensor methods (assign); a functional inplace=True would leave
    # the input unchanged while the caller expects it written: refused rather than ignored
    if inplace:
        raise NotImplementedError(f"{op}: inplace=True is not supported; use the returned tensor")


def _softmax_dim(op, ndim, dim):
    """torch's implicit dim for softmax-like functions called without one (deprecated there, with
    a warning): 0 for 0-, 1- and 3-D inputs, else 1."""
    if dim is not None:
        return dim
    _warnings.warn(f"Implicit dimension choice for {op} has been deprecated. Change the call to include dim=X "
                   "as an argument.", stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def silu(input, inplace=False):
    _no_inplace("silu", inplace)
    return input.silu()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    _no_inplace("leaky_relu", inplace)
    return input.leaky_relu(negative_slope)


def elu(input, alpha=1.0, inplace=False):
    _no_inplace("elu", inplace)
    return input.elu(alpha)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta·x)) / beta, and x itself where beta·x > threshold (torch)."""
    return input.softplus(beta, threshold)


def prelu(input, weight):
    """x where x > 0, weight·x elsewhere; weight holds one slope or one per channel (axis 1, or
    axis 0 of a 1-D input), as torch.nn.functional.prelu (src/nn/prelu.h)."""
    return _Tensor._wrap(_C.nn.prelu(_as_tensor(input)._t, _as_tensor(weight)._t))


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(‖input‖_p, eps) along dim (torch.nn.functional.normalize). The norm of an
    all-zero slice has gradient 0, as torch's."""
    if out is not None:
        raise NotImplementedError("normalize: out= is not supported; use the returned tensor")
    p = float(p)
    if p == float("inf"):
        norm = _Tensor._wrap(input.abs()._t.max([int(dim)], True))
    elif p == 0 or p == float("-inf") or p < 0:
        raise NotImplementedError(f"normalize: p={p} is not supported (p must be positive)")
    else:
        powered = input.abs() if p == 1 else (input * input if p == 2 else input.abs() ** p)
        s = powered.sum(dim, keepdim=True)
        if p == 1:
            norm = s
        else:
            # where(s > 0, ...) keeps d(s^(1/p))/ds = inf at s = 0 out of the gradient
            nonzero = s > 0
            safe = nonzero.where(s, 1.0)
            norm = nonzero.where(safe.sqrt() if p == 2 else safe ** (1.0 / p), 0.0)
    return input / norm.maximum(eps)


# ---- end everyday activations
