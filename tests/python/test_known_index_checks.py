"""Index checks of buffer-data indices (docs/engine.md "Index faults", tensor/index_data.h): an index
that is host data or a realized tensor has known values, so an op leaves its check out when every value
fits (the realize runs no bad-count kernel) and keeps it when one does not (IndexError when realized,
naming op, value and size, as for a computed index). Oracle: torch 1.13 for values; the engine's
kernel counter for "no check kernel".

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python/test_known_index_checks.py -q
"""

import numpy as np
import pytest
import torch

from onegrad import Tensor, _C
from onegrad.errors import IndexError as OnegradIndexError
import onegrad.nn.functional as F

X = np.arange(20, dtype=np.float32).reshape(4, 5) / 3


def kernels_run(fn):
    """The result of fn() realized, and how many kernels that realize ran."""
    before = _C.engine_stats()["kernels_run"]
    out = fn().realize()
    return out, _C.engine_stats()["kernels_run"] - before


def host(values):
    return Tensor(np.array(values, dtype=np.int64))


def device(values):
    """The same values, realized (on the device, no host bytes left)."""
    return (Tensor(np.array(values, dtype=np.int64)) + 0).realize()


@pytest.mark.parametrize("where", [host, device])
def test_in_range_buffer_index_runs_no_check_kernel(where):
    x = Tensor(X).realize()
    i = where([3, 0, 2, 3])
    out, n = kernels_run(lambda: x.index_select(0, i))
    np.testing.assert_array_equal(out.numpy(), torch.tensor(X).index_select(0, torch.tensor([3, 0, 2, 3])).numpy())
    assert n == 1  # the gather alone
    # the same op over a computed index (not known) runs its bad-count kernel beside it
    _, n_computed = kernels_run(lambda: x.index_select(0, i + 0))
    assert n_computed == 2


@pytest.mark.parametrize("where", [host, device])
@pytest.mark.parametrize("op, fn, message", [
    ("index_select", lambda x, i: x.index_select(0, i), "index_select: index 4 is out of bounds for dimension 0 with size 4"),
    ("gather", lambda x, i: x.gather(1, i.reshape(1, 4)), "gather: index 5 is out of bounds for dimension 1 with size 5"),
    ("embedding", lambda x, i: F.embedding(i.reshape(2, 2), x), "embedding: index -1 is out of bounds"),
])
def test_out_of_range_buffer_index_raises_when_realized(where, op, fn, message):
    bad = {"index_select": [0, 4, 1, 2], "gather": [0, 5, 1, 2], "embedding": [0, 1, -1, 2]}[op]
    x = Tensor(X).realize()
    y = fn(x, where(bad))  # building does not raise
    with pytest.raises(OnegradIndexError, match=message):
        y.realize()
    with pytest.raises(OnegradIndexError, match=message):  # it stays lazy: raises again
        y.realize()


def test_lazy_value_keeps_the_index_it_was_checked_with():
    # A write into the index buffer after the op was built does not reach the built value (setitem
    # snapshots the buffer for lazy readers), so the check left out at build time stays right.
    x = Tensor(X).realize()
    i = device([1, 2, 3])
    y = x.index_select(0, i)
    i[1] = 7  # out of range for x's 4 rows
    np.testing.assert_array_equal(y.numpy(), X[[1, 2, 3]])
    with pytest.raises(OnegradIndexError, match="index_select: index 7 is out of bounds for dimension 0 with size 4"):
        x.index_select(0, i).realize()


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.uint64])
def test_index_dtypes(dtype):
    x = Tensor(X).realize()
    good = np.array([3, 0, 1], dtype=dtype)
    out, n = kernels_run(lambda: x.index_select(0, Tensor(good)))
    np.testing.assert_array_equal(out.numpy(), X[good.astype(np.int64)])
    assert n == 1
    bad = np.array([0, 4 if dtype != np.uint64 else 2**63 + 5], dtype=dtype)
    with pytest.raises(OnegradIndexError, match="index_select: index .* is out of bounds for dimension 0 with size 4"):
        x.index_select(0, Tensor(bad)).realize()
