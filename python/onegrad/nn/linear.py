"""torch.nn.Linear and Identity. Linear is the C++ layer of src/nn/linear.h (cpp_layer.py)."""

from .cpp_layer import CppLayer


class Identity(CppLayer):
    """Takes and ignores any arguments, as torch's."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input  # what the C++ layer computes, without the call

    def extra_repr(self):
        return ""


class Linear(CppLayer):
    """y = x W^T + b with W (out_features, in_features), both U(±1/sqrt(in_features))."""

    _absent = ("bias",)

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device=device, dtype=dtype)
        self._describe()

    def _describe(self):
        self.in_features, self.out_features = self._cpp_arguments["in_features"], self._cpp_arguments["out_features"]

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
