"""torch.nn.Embedding: the C++ layer of src/nn/linear.h (cpp_layer.py)."""

from .cpp_layer import CppLayer
from .module import Parameter


class Embedding(CppLayer):
    """weight (num_embeddings, embedding_dim) ~ N(0, 1); the row padding_idx starts at zero and
    gets no gradient. max_norm, scale_grad_by_freq and sparse are not supported; _weight replaces
    the drawn weight (torch's from_pretrained path)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None):
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError("Embedding: max_norm, scale_grad_by_freq and sparse are not supported")
        super().__init__(num_embeddings, embedding_dim, padding_idx, device=device, dtype=dtype)
        if padding_idx is not None:
            padding_idx %= num_embeddings
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        if _weight is not None:
            self.weight = Parameter(_weight)  # shares _weight's tensor, as torch's does

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}" + (
            "" if self.padding_idx is None else f", padding_idx={self.padding_idx}")
