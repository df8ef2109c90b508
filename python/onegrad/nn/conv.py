"""torch.nn.Conv1d/2d/3d and ConvTranspose1d/2d over the Tensor convolutions (src/nn/conv_layers.h
is the C++ twin). padding_mode 'zeros' only."""

from ..tensor import Tensor
from .linear import _reset_weight_and_bias
from .module import Module, Parameter


def _tuple(v, nd):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * nd


class _ConvNd(Module):
    def __init__(self, nd, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                 padding_mode, transposed, output_padding, device, dtype):
        super().__init__()
        kind = f"{'ConvTranspose' if transposed else 'Conv'}{nd}d"
        if groups <= 0:
            raise ValueError(f"{kind}: groups must be a positive integer")
        if in_channels % groups:
            raise ValueError(f"{kind}: in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError(f"{kind}: out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError(f"{kind}: padding_mode {padding_mode!r} is not supported (only 'zeros')")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = _tuple(kernel_size, nd), _tuple(stride, nd)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, nd)
        self.dilation, self.output_padding = _tuple(dilation, nd), _tuple(output_padding, nd)
        self.transposed, self.padding_mode = transposed, padding_mode
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(Tensor.empty(*shape, *self.kernel_size, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(Tensor.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_weight_and_bias(self.weight, self.bias)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0,) * len(self.kernel_size), "valid"):
            s += f", padding={self.padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        return s + ("" if self.bias is not None else ", bias=False")


class Conv1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, False, 0, device, dtype)

    def forward(self, input):
        return input.conv1d(self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, False, 0, device, dtype)

    def forward(self, input):
        return input.conv2d(self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv3d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, False, 0, device, dtype)

    def forward(self, input):
        return input.conv3d(self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class ConvTranspose1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, True, output_padding, device, dtype)

    def forward(self, input):
        return input.conv_transpose1d(self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                      self.groups, self.dilation)


class ConvTranspose2d(_ConvNd):
    """Weight (in_channels, out_channels/groups, kh, kw), torch's argument order."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, True, output_padding, device, dtype)

    def forward(self, input):
        return input.conv_transpose2d(self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                      self.groups, self.dilation)
