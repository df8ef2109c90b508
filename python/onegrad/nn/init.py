"""torch.nn.init's initialisers that the layers use: each writes a new value into the tensor in
place (Tensor.assign) and returns it. The distributions are torch's; the random values come from
onegrad's seeded generator (onegrad.manual_seed), in the same order as the C++ layers draw them
(src/nn/init.h), so a C++ and a Python layer built after the same seed hold the same values."""

import math

from ..autograd import no_grad
from ..tensor import Tensor


def _calculate_fan_in_and_fan_out(shape):
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _fill(tensor, value):
    with no_grad():
        tensor.assign(value)
    return tensor


def uniform_(tensor, a=0.0, b=1.0):
    return _fill(tensor, Tensor.uniform(*tensor.shape, low=a, high=b, dtype=tensor.dtype))


def normal_(tensor, mean=0.0, std=1.0):
    return _fill(tensor, Tensor.normal(*tensor.shape, mean=mean, std=std, dtype=tensor.dtype))


def constant_(tensor, val):
    return _fill(tensor, Tensor.full(tensor.shape, val, dtype=tensor.dtype))


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def calculate_gain(nonlinearity, param=None):
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    """U(-b, b), b = sqrt(3) * gain / sqrt(fan); torch's layers use a = sqrt(5): b = 1/sqrt(fan_in)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor.shape)
    fan = fan_in if mode == "fan_in" else fan_out
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return uniform_(tensor, -bound, bound)


def xavier_uniform_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor.shape)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)
