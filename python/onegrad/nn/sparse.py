"""torch.nn.Embedding (src/nn/linear.h has the C++ twin)."""

from ..tensor import Tensor
from . import functional as F
from .module import Module, Parameter


class Embedding(Module):
    """weight (num_embeddings, embedding_dim) ~ N(0, 1); the row padding_idx starts at zero and
    gets no gradient. max_norm, scale_grad_by_freq and sparse are not supported."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None):
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError("Embedding: max_norm, scale_grad_by_freq and sparse are not supported")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"Embedding: padding_idx must be within num_embeddings = {num_embeddings}, "
                                 f"got {padding_idx}")
            padding_idx %= num_embeddings
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        if _weight is None:
            w = Tensor.normal(num_embeddings, embedding_dim, dtype=dtype, device=device)
            if padding_idx is not None:
                w = Tensor.arange(num_embeddings).reshape(-1, 1).eq(padding_idx).where(0.0, w)
        else:
            w = _weight
        self.weight = Parameter(w)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}" + (
            "" if self.padding_idx is None else f", padding_idx={self.padding_idx}")
