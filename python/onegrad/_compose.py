"""torch-style free functions for the compose ops: each forwards to the Tensor
method of the same name (the C++ composition), so values and error messages are the same."""

from .tensor import Tensor


def einsum(equation, *operands):
    return Tensor.einsum(equation, *operands)


def matmul(a, b): return Tensor._coerce(a).matmul(b)
def dot(a, b): return Tensor._coerce(a).dot(b)
def outer(a, b): return Tensor._coerce(a).outer(b)
def gather(input, dim, index): return Tensor._coerce(input).gather(dim, index)
def scatter(input, dim, index, src=None, value=None): return Tensor._coerce(input).scatter(dim, index, src, value)
def scatter_add(input, dim, index, src): return Tensor._coerce(input).scatter_add(dim, index, src)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    return Tensor._coerce(input).scatter_reduce(dim, index, src, reduce, include_self=include_self)


def index_select(input, dim, index): return Tensor._coerce(input).index_select(dim, index)
def masked_fill(input, mask, value): return Tensor._coerce(input).masked_fill(mask, value)
def tril(input, diagonal=0): return Tensor._coerce(input).tril(diagonal)
def triu(input, diagonal=0): return Tensor._coerce(input).triu(diagonal)


def where(condition, x, y):
    """torch.where(condition, x, y): x where condition is true, else y; numbers are weakly typed."""
    return Tensor._coerce(condition).where(x, y)


def linspace(start, end, steps, dtype=None, device=None):
    return Tensor.linspace(start, end, steps, dtype=dtype, device=device)


def eye(n, m=None, dtype=None, device=None):
    return Tensor.eye(n, m, dtype=dtype, device=device)


__all__ = ["einsum", "matmul", "dot", "outer", "gather", "scatter", "scatter_add", "scatter_reduce", "index_select",
           "masked_fill", "tril", "triu", "where", "linspace", "eye"]
