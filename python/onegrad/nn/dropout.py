"""torch.nn.Dropout: the identity in eval mode."""

from .module import Module


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        if inplace:
            raise NotImplementedError("Dropout: inplace=True is not supported (onegrad tensors are immutable)")
        self.p = p

    def forward(self, input):
        return input.dropout(self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"
