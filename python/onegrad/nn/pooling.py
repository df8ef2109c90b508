"""torch.nn.MaxPool1d/2d, AvgPool1d/2d and the adaptive pools over the Tensor pools."""

from .module import Module


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return input.max_pool1d(self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                                self.return_indices)


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):
        return input.max_pool2d(self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                                self.return_indices)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding, self.ceil_mode, self.count_include_pad = padding, ceil_mode, count_include_pad

    def forward(self, input):
        return input.avg_pool1d(self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding, self.ceil_mode, self.count_include_pad = padding, ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return input.avg_pool2d(self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                                self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptivePool(Module):
    """output_size: an int, or one value per spatial axis where None keeps the input's size."""
    _fn = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        if self.return_indices:
            return getattr(input, self._fn)(self.output_size, return_indices=True)
        return getattr(input, self._fn)(self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    _fn = "adaptive_avg_pool1d"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveAvgPool2d(AdaptiveAvgPool1d):
    _fn = "adaptive_avg_pool2d"


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    _fn = "adaptive_avg_pool3d"


class AdaptiveMaxPool1d(_AdaptivePool):
    _fn = "adaptive_max_pool1d"


class AdaptiveMaxPool2d(_AdaptivePool):
    _fn = "adaptive_max_pool2d"


class AdaptiveMaxPool3d(_AdaptivePool):
    _fn = "adaptive_max_pool3d"
