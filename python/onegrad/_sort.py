"""Sorting and selection with torch's signatures (the C++ side is tensor/sort.h and mask_select.cpp:
a radix sort and bool-mask selection made of scans and scatters, linear per bit)."""
import collections

from . import _C

SortResult = collections.namedtuple("SortResult", ["values", "indices"])
TopkResult = collections.namedtuple("TopkResult", ["values", "indices"])


def sort(input, dim=-1, descending=False, stable=False):
    """(values, indices) sorted along dim; NaN above +inf; always stable (which stable=False allows)."""
    from .tensor import Tensor
    v, i = _C.sort(Tensor._coerce(input)._t, int(dim), bool(descending))
    return SortResult(Tensor._wrap(v), Tensor._wrap(i))


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest) along dim, sorted (sorted=False gives the same, sorted, order)."""
    from .tensor import Tensor
    v, i = _C.topk(Tensor._coerce(input)._t, int(k), int(dim), bool(largest))
    return TopkResult(Tensor._wrap(v), Tensor._wrap(i))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique: the distinct values of the flattened tensor ascending (sorted=False too), and
    optionally the inverse indices (input's shape) and the counts; with dim, the distinct slices
    along dim in lexicographic order, the inverse then of shape (input.shape[dim],)."""
    from .tensor import Tensor
    if dim is not None:
        v, inv, cnt = _C.unique_dim(Tensor._coerce(input)._t, int(dim), bool(return_inverse), bool(return_counts))
    else:
        v, inv, cnt = _C.unique(Tensor._coerce(input)._t, bool(return_inverse), bool(return_counts))
    out = [Tensor._wrap(v)]
    if return_inverse:
        out.append(Tensor._wrap(inv))
    if return_counts:
        out.append(Tensor._wrap(cnt))
    return out[0] if len(out) == 1 else tuple(out)


def masked_select(input, mask):
    from .tensor import Tensor
    return Tensor._coerce(input).masked_select(mask)


def nonzero(input, *, as_tuple=False):
    from .tensor import Tensor
    return Tensor._coerce(input).nonzero(as_tuple=as_tuple)


__all__ = ["sort", "argsort", "topk", "unique", "masked_select", "nonzero"]
