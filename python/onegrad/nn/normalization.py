"""torch.nn.BatchNorm1d/2d, LayerNorm, GroupNorm and RMSNorm (src/nn/norm_layers.h is the C++
twin; the running-statistics update and rms_norm are its functions, through _C.nn)."""

from .. import _C
from ..dtype import dtypes
from ..errors import ShapeError
from ..tensor import Tensor
from . import functional as F
from .module import Module, Parameter


def _affine(module, shape, with_bias, dtype, device):
    module.weight = Parameter(Tensor.ones(*shape, dtype=dtype, device=device))
    if with_bias:
        module.bias = Parameter(Tensor.zeros(*shape, dtype=dtype, device=device))


def _shape(s):
    return (s,) if isinstance(s, int) else tuple(s)


class _BatchNorm(Module):
    """Training: batch statistics (biased variance) for the output, and the running statistics
    moved by momentum (unbiased variance), or averaged over all batches when momentum is None.
    Eval: the running statistics. Buffers as torch: running_mean, running_var, num_batches_tracked."""

    _ranks = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            _affine(self, (num_features,), True, dtype, device)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor.zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", Tensor.ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", Tensor.zeros(dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def forward(self, input):
        if input.ndim not in self._ranks:
            want = " or ".join(f"{r}D" for r in self._ranks)
            raise ShapeError(f"{type(self).__name__}: expected {want} input (got {input.ndim}D input)")
        tracking = self.training and self.running_mean is not None
        if tracking:
            # computed once for the statistics and the output (it keeps its gradient history)
            input = input.realize()
            _C.nn.update_running_stats(input._t, self.running_mean._t, self.running_var._t,
                                       self.num_batches_tracked._t, self.momentum)
        batch_stats = self.training or self.running_mean is None
        return input.batch_norm(None if batch_stats else self.running_mean, None if batch_stats else self.running_var,
                                self.weight, self.bias, batch_stats, self.momentum or 0.0, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    _ranks = (4,)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape, self.eps, self.elementwise_affine = _shape(normalized_shape), eps, elementwise_affine
        if elementwise_affine:
            _affine(self, self.normalized_shape, True, dtype, device)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return input.layer_norm(self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_groups <= 0 or num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            _affine(self, (num_channels,), True, dtype, device)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return input.group_norm(self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class RMSNorm(Module):
    """torch 2.4's RMSNorm (torch 1.13 has none): x / sqrt(mean(x^2) + eps) * weight."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape, self.eps, self.elementwise_affine = _shape(normalized_shape), eps, elementwise_affine
        if elementwise_affine:
            _affine(self, self.normalized_shape, False, dtype, device)
        else:
            self.register_parameter("weight", None)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
