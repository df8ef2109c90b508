"""torch.nn.Conv1d/2d/3d and ConvTranspose1d/2d: the C++ layers of src/nn/conv_layers.h
(cpp_layer.py). padding_mode 'zeros' only."""

from .cpp_layer import CppLayer


def _tuple(v, nd):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * nd


class _ConvNd(CppLayer):
    _absent = ("bias",)
    _nd, _transposed = 0, False

    def __init__(self, in_channels, out_channels, kernel_size, padding_mode, device, dtype, **arguments):
        kind = type(self).__name__
        if padding_mode != "zeros":
            raise NotImplementedError(f"{kind}: padding_mode {padding_mode!r} is not supported (only 'zeros')")
        super().__init__(in_channels, out_channels, kernel_size, device=device, dtype=dtype, **arguments)
        nd = self._nd
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, arguments["groups"]
        self.kernel_size, self.stride = _tuple(kernel_size, nd), _tuple(arguments["stride"], nd)
        padding = arguments["padding"]
        self.padding = padding if isinstance(padding, str) else _tuple(padding, nd)
        self.dilation = _tuple(arguments["dilation"], nd)
        self.output_padding = _tuple(arguments.get("output_padding", 0), nd)
        self.transposed, self.padding_mode = self._transposed, padding_mode

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0,) * len(self.kernel_size), "valid"):
            s += f", padding={self.padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        return s + ("" if self.bias is not None else ", bias=False")


class _Conv(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, padding_mode, device, dtype, stride=stride,
                         padding=padding, dilation=dilation, groups=groups, bias=bias)


class _ConvTranspose(_ConvNd):
    """Weight (in_channels, out_channels/groups, k...), torch's argument order."""

    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, padding_mode, device, dtype, stride=stride,
                         padding=padding, output_padding=output_padding, groups=groups, bias=bias,
                         dilation=dilation)


class Conv1d(_Conv):
    _nd = 1


class Conv2d(_Conv):
    _nd = 2


class Conv3d(_Conv):
    _nd = 3


class ConvTranspose1d(_ConvTranspose):
    _nd = 1


class ConvTranspose2d(_ConvTranspose):
    _nd = 2
