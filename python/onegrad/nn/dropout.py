"""torch.nn.Dropout: the C++ layer of src/nn/activation_layers.h (cpp_layer.py); the identity in
eval mode."""

from .cpp_layer import CppLayer


class Dropout(CppLayer):
    def __init__(self, p=0.5, inplace=False):
        if inplace:
            raise NotImplementedError("Dropout: inplace=True is not supported (onegrad tensors are immutable)")
        super().__init__(p)
        self._describe()

    def _describe(self):
        self.p = self._cpp_arguments["p"]

    def extra_repr(self):
        return f"p={self.p}"
