"""torch.nn.BatchNorm1d/2d, LayerNorm, GroupNorm and RMSNorm: the C++ layers of
src/nn/norm_layers.h (cpp_layer.py), which hold the running statistics and their update."""

from .cpp_layer import CppLayer


def _shape(s):
    return (s,) if isinstance(s, int) else tuple(s)


class _BatchNorm(CppLayer):
    """Training: batch statistics (biased variance) for the output, and the running statistics
    moved by momentum (unbiased variance), or averaged over all batches when momentum is None.
    Eval: the running statistics. Buffers as torch: running_mean, running_var, num_batches_tracked."""

    _absent, _absent_buffers = ("weight", "bias"), ("running_mean", "running_var", "num_batches_tracked")

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    pass


class BatchNorm2d(_BatchNorm):
    pass


class LayerNorm(CppLayer):
    _absent = ("weight", "bias")

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, device=None, dtype=None):
        super().__init__(_shape(normalized_shape), eps, elementwise_affine, device=device, dtype=dtype)
        self._describe()

    def _describe(self):
        a = self._cpp_arguments
        self.normalized_shape, self.eps = a["normalized_shape"], a["eps"]
        self.elementwise_affine = a["elementwise_affine"]

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(CppLayer):
    _absent = ("weight", "bias")

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__(num_groups, num_channels, eps, affine, device=device, dtype=dtype)
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class RMSNorm(CppLayer):
    """torch 2.4's RMSNorm (torch 1.13 has none): x / sqrt(mean(x^2) + eps) * weight."""

    _absent = ("weight",)

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__(_shape(normalized_shape), eps, elementwise_affine, device=device, dtype=dtype)
        self.normalized_shape, self.eps, self.elementwise_affine = _shape(normalized_shape), eps, elementwise_affine

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
