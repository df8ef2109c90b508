"""onegrad.nn: neural-network building blocks. `functional` holds the stateless ops under PyTorch's
names (torch.nn.functional); layers and optimizers come with training (issue 5)."""

from . import functional

__all__ = ["functional"]
