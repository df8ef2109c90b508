"""The neural-net ops as Tensor methods (bound in the Tensor class) and, under torch.nn.functional's
names, in onegrad.nn.functional. Each is argument normalization over one C++ method
(src/tensor/{conv,pool,norm,attention,interpolate}.cpp): ints or tuples for the spatial arguments
become lists, optional tensors become None or their C++ handle. Shape and dtype checks are in C++, so
the messages are the same from both languages.

This module does not import tensor.py (tensor.py imports it): results are wrapped with the input's
own class.
"""

import math
import numbers

from ._convert import int_list
from .errors import ShapeError


def _ints(v, what: str) -> list:
    """An int or a sequence of ints as a list (C++ broadcasts one value to every spatial axis)."""
    if isinstance(v, (tuple, list)):
        return int_list(v, what)
    return int_list((v,), what)


def _opt(t, what: str):
    if t is None:
        return None
    if not hasattr(t, "_t"):
        raise TypeError(f"{what}: expected a Tensor or None, got {type(t).__name__}")
    return t._t


def _tensor(t, what: str):
    if not hasattr(t, "_t"):
        raise TypeError(f"{what}: expected a Tensor, got {type(t).__name__}")
    return t._t


def _check_weight_rank(op: str, weight, nd: int) -> None:
    w = _tensor(weight, op)
    if len(w.shape) != nd + 2:
        raise ShapeError(f"{op}: weight must be {nd + 2}-D (out, in, kernel...), got shape {tuple(w.shape)}")


# ---- convolutions

def _conv(self, weight, bias, stride, padding, dilation, groups, nd):
    op = f"conv{nd}d"
    _check_weight_rank(op, weight, nd)
    w, b = weight._t, _opt(bias, op)
    s, d = _ints(stride, op), _ints(dilation, op)
    if isinstance(padding, str):
        return self._wrap(self._t.conv_mode(w, b, s, padding, d, int(groups)))
    return self._wrap(self._t.conv(w, b, s, _ints(padding, op), d, int(groups)))


def conv1d(self, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(self, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(self, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv2d: padding an int, a tuple, 'same' or 'valid'."""
    return _conv(self, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(self, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(self, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(self, weight, bias, stride, padding, output_padding, groups, dilation, nd):
    op = f"conv_transpose{nd}d"
    _check_weight_rank(op, weight, nd)
    return self._wrap(self._t.conv_transpose(weight._t, _opt(bias, op), _ints(stride, op), _ints(padding, op),
                                             _ints(output_padding, op), int(groups), _ints(dilation, op)))


def conv_transpose1d(self, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(self, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(self, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """torch.nn.functional.conv_transpose2d (its argument order: groups before dilation)."""
    return _conv_transpose(self, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def conv_transpose3d(self, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(self, weight, bias, stride, padding, output_padding, groups, dilation, 3)


# ---- pools

def _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd):
    op = f"max_pool{nd}d"
    args = (nd, _ints(kernel_size, op), [] if stride is None or stride == [] or stride == () else _ints(stride, op),
            _ints(padding, op), _ints(dilation, op), bool(ceil_mode))
    out = self._wrap(self._t.max_pool(*args))
    if return_indices:
        return out, self._wrap(self._t.max_pool_indices(*args))
    return out


def max_pool1d(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1)


def max_pool2d(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """torch.nn.functional.max_pool2d; with return_indices, also the int64 index of each max in
    its input plane (h * W + w)."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool3d(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


def _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd):
    op = f"avg_pool{nd}d"
    return self._wrap(self._t.avg_pool(nd, _ints(kernel_size, op),
                                       [] if stride is None or stride == [] or stride == () else _ints(stride, op),
                                       _ints(padding, op), bool(ceil_mode), bool(count_include_pad),
                                       None if divisor_override is None else int(divisor_override)))


def avg_pool1d(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


def avg_pool2d(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2)


def avg_pool3d(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


def _output_size(output_size, nd, op):
    """An int or a tuple whose None entries keep the input's size (-1 for C++)."""
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != nd:
            raise ShapeError(f"{op}: output_size must be one int or {nd} values, got {tuple(output_size)}")
        return [-1 if v is None else int_list((v,), op)[0] for v in output_size]
    return [int_list((output_size,), op)[0]] * nd


def _adaptive(self, output_size, nd, kind, return_indices=False):
    op = f"adaptive_{kind}{nd}d"
    size = _output_size(output_size, nd, op)
    fn = self._t.adaptive_max_pool if kind == "max_pool" else self._t.adaptive_avg_pool
    if return_indices:  # the values keep their gradient; the int64 indices have none
        return self._wrap(fn(size)), self._wrap(self._t.adaptive_max_pool_indices(size))
    return self._wrap(fn(size))


def adaptive_avg_pool1d(self, output_size): return _adaptive(self, output_size, 1, "avg_pool")
def adaptive_avg_pool2d(self, output_size): return _adaptive(self, output_size, 2, "avg_pool")
def adaptive_avg_pool3d(self, output_size): return _adaptive(self, output_size, 3, "avg_pool")
def adaptive_max_pool1d(self, output_size, return_indices=False): return _adaptive(self, output_size, 1, "max_pool", return_indices)
def adaptive_max_pool2d(self, output_size, return_indices=False): return _adaptive(self, output_size, 2, "max_pool", return_indices)
def adaptive_max_pool3d(self, output_size, return_indices=False): return _adaptive(self, output_size, 3, "max_pool", return_indices)


# ---- normalizations, attention, interpolate

def batch_norm(self, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """torch.nn.functional.batch_norm's forward. training=True normalizes with the batch statistics
    (biased variance); the running statistics are not updated (tensors are immutable here)."""
    op = "batch_norm"
    return self._wrap(self._t.batch_norm(_opt(running_mean, op), _opt(running_var, op), _opt(weight, op),
                                         _opt(bias, op), bool(training), float(eps)))


def layer_norm(self, normalized_shape, weight=None, bias=None, eps=1e-5):
    op = "layer_norm"
    return self._wrap(self._t.layer_norm(_ints(normalized_shape, op), _opt(weight, op), _opt(bias, op), float(eps)))


def group_norm(self, num_groups, weight=None, bias=None, eps=1e-5):
    op = "group_norm"
    return self._wrap(self._t.group_norm(int(num_groups), _opt(weight, op), _opt(bias, op), float(eps)))


def scaled_dot_product_attention(self, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    """softmax(q @ k^T * scale + mask) @ v (PyTorch 2's function; a bool mask keeps True entries)."""
    op = "scaled_dot_product_attention"
    if dropout_p != 0.0:
        raise NotImplementedError(f"{op}: dropout_p is not supported (use dropout on the weights)")
    return self._wrap(self._t.scaled_dot_product_attention(_tensor(key, op), _tensor(value, op), _opt(attn_mask, op),
                                                           bool(is_causal), None if scale is None else float(scale)))


def interpolate(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """torch.nn.functional.interpolate for nearest, linear, bilinear and trilinear (PyTorch 1.13's
    coordinates). recompute_scale_factor=True computes the coordinates from the output size."""
    op = "interpolate"
    if antialias:
        raise NotImplementedError(f"{op}: antialias is not supported")
    sizes = [] if size is None else _ints(size, op)
    if scale_factor is None:
        scales = []
    else:
        scales = [float(v) for v in scale_factor] if isinstance(scale_factor, (tuple, list)) else [float(scale_factor)]
        if not all(isinstance(v, numbers.Real) for v in scales):
            raise TypeError(f"{op}: scale_factor must be numbers")
    if recompute_scale_factor and scales and size is None:
        # The output size from the scales, then coordinates from the sizes alone (PyTorch).
        spatial = self.shape[2:]
        full = scales * len(spatial) if len(scales) == 1 else scales
        if len(full) != len(spatial):
            raise ShapeError(f"{op}: scale_factor must be one number or {len(spatial)} numbers for input {self.shape}")
        sizes, scales = [int(math.floor(i * f)) for i, f in zip(spatial, full)], []
    return self._wrap(self._t.interpolate(sizes, scales, str(mode), None if align_corners is None else bool(align_corners)))


# The methods the Tensor class binds, and the functions onegrad.nn.functional exports.
METHODS = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "batch_norm", "layer_norm", "group_norm", "scaled_dot_product_attention", "interpolate"]
