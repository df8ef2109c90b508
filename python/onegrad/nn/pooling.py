"""torch.nn's pools (MaxPool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d, AdaptiveMaxPool1d/2d/3d):
the C++ layers of src/nn/pool_layers.h (cpp_layer.py). The Python classes keep torch's attributes
and repr, and turn torch's None in an adaptive output_size into C++'s -1 (keep that axis)."""

from .. import _C
from ..tensor import Tensor
from .cpp_layer import CppLayer


class _Pool(CppLayer):
    """The layer's arguments are its attributes, as torch's; stride None shows the kernel size. A
    layer built with return_indices returns (values, int64 indices)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for k, v in {**dict(_C.nn.layer_defaults(self._cpp_name)), **self._cpp_arguments}.items():
            object.__setattr__(self, k, v)
        if getattr(self, "stride", 0) is None:
            object.__setattr__(self, "stride", self.kernel_size)

    def forward(self, input):
        if not getattr(self, "return_indices", False):
            return super().forward(input)
        values, indices = self._cpp.forward_outputs([input._t])
        return Tensor._wrap(values), Tensor._wrap(indices)


class _MaxPoolNd(_Pool):
    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    pass


class MaxPool2d(_MaxPoolNd):
    pass


class MaxPool3d(_MaxPoolNd):
    pass


class _AvgPoolNd(_Pool):
    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for k in ("kernel_size", "stride", "padding"):  # torch keeps AvgPool1d's as 1-tuples (_single)
            v = getattr(self, k)
            object.__setattr__(self, k, tuple(v) if isinstance(v, (tuple, list)) else (v,))


class AvgPool2d(_AvgPoolNd):
    pass


class AvgPool3d(_AvgPoolNd):
    pass


class _AdaptivePool(_Pool):
    """output_size: an int, or one value per spatial axis where None keeps the input's size."""

    def __init__(self, output_size, *args, **kwargs):
        size = tuple(-1 if v is None else v for v in output_size) if isinstance(output_size, (tuple, list)) \
            else output_size
        super().__init__(size, *args, **kwargs)
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    pass


class AdaptiveAvgPool2d(_AdaptivePool):
    pass


class AdaptiveAvgPool3d(_AdaptivePool):
    pass


class AdaptiveMaxPool1d(_AdaptivePool):
    pass


class AdaptiveMaxPool2d(_AdaptivePool):
    pass


class AdaptiveMaxPool3d(_AdaptivePool):
    pass
