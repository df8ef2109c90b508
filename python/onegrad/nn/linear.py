"""torch.nn.Linear and Identity (src/nn/linear.h is the C++ twin)."""

import math

from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module, Parameter


def _bias_bound(weight) -> float:
    fan_in, _ = init._calculate_fan_in_and_fan_out(weight.shape)
    return 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0


def _reset_weight_and_bias(weight, bias):
    """torch's default for Linear and convolutions: kaiming_uniform_(a=sqrt(5)), i.e.
    U(±1/sqrt(fan_in)), for both (the bias's bound from the weight's fan-in)."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        b = _bias_bound(weight)
        init.uniform_(bias, -b, b)


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x W^T + b with W (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(Tensor.empty(out_features, in_features, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(Tensor.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_weight_and_bias(self.weight, self.bias)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
