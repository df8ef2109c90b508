"""Graph templates (src/tensor/graph_template.h): index_select and the last write of x[idx] = v
build their graph once per shapes and dtypes and substitute the inputs on later calls. The answers
must be the fresh build's (GRAPH_TEMPLATES=0) and torch's, bit for bit, on the call that builds a
template and on the calls that reuse it, and the cache must keep no buffer of a call alive."""

import gc

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int32, np.int64, np.bool_]


def array(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def bits(a):
    """The bytes of an array, so -0.0 and NaN payloads compare too."""
    a = np.ascontiguousarray(a)
    return a.dtype, a.shape, a.tobytes()


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,dim", [((7,), 0), ((5, 3), 0), ((5, 3), 1), ((2, 4, 3), 1), ((2, 4, 3), -1)])
def test_index_select_cached_is_fresh_and_torch(rng, dtype, shape, dim):
    for idx_dtype in (np.int32, np.int64):
        k = shape[dim]
        x = array(rng, shape, dtype)
        idx = rng.integers(0, k, 2 * k + 1).astype(idx_dtype)
        want = torch.from_numpy(x).index_select(dim, torch.from_numpy(idx).long()).numpy()
        with onegrad.settings.override(GRAPH_TEMPLATES=0):
            fresh = Tensor(x).index_select(dim, Tensor(idx)).numpy()
        first = Tensor(x).index_select(dim, Tensor(idx)).numpy()
        # a new input of the same shape reuses the template with other buffers
        x2 = array(rng, shape, dtype)
        again = Tensor(x2).index_select(dim, Tensor(idx)).numpy()
        want2 = torch.from_numpy(x2).index_select(dim, torch.from_numpy(idx).long()).numpy()
        assert bits(fresh) == bits(want) and bits(first) == bits(want) and bits(again) == bits(want2)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(9,), (9, 4), (6, 2, 3)])
def test_setitem_cached_is_fresh_and_torch(rng, dtype, shape):
    for round in range(3):  # the first call may build the template, the others reuse it
        base = array(rng, shape, dtype)
        idx = rng.permutation(shape[0])[: shape[0] - 2]  # distinct: torch leaves duplicates' winner open
        v = array(rng, (len(idx),) + shape[1:], dtype)
        want = torch.from_numpy(base.copy())
        want[torch.from_numpy(idx)] = torch.from_numpy(v)
        results = []
        for templates in (0, 1):
            with onegrad.settings.override(GRAPH_TEMPLATES=templates):
                x = Tensor(base)
                x[Tensor(idx)] = Tensor(v)
                results.append(x.numpy())
        assert bits(results[0]) == bits(want.numpy()) and bits(results[1]) == bits(want.numpy())


def test_duplicate_indices_last_write_wins_with_templates(rng):
    # onegrad's documented rule (PyTorch's CPU loop): of duplicate positions the last one wins
    base = np.zeros((4, 2), np.float32)
    idx = np.array([1, 3, 1, 1, 0])
    v = np.arange(10, dtype=np.float32).reshape(5, 2)
    for _ in range(2):
        x = Tensor(base)
        x[Tensor(idx)] = Tensor(v)
        np.testing.assert_array_equal(x.numpy(), [[8, 9], [6, 7], [0, 0], [2, 3]])


def test_the_cache_keeps_no_buffer_of_a_call(rng):
    # shapes no other test uses: the first call builds the templates from its own inputs
    x_np = array(rng, (1019, 16), np.float32)
    i_np = rng.integers(0, 1019, 703)
    gc.collect()
    before = onegrad.device_memory_stats()["current_bytes"]
    for _ in range(3):
        x, i = Tensor(x_np), Tensor(i_np)
        y = x.index_select(0, i).numpy()
        x[i[:10]] = Tensor(x_np[:10] + 1)
        np.testing.assert_array_equal(y, x_np[i_np])
        del x, i
    gc.collect()
    assert onegrad.device_memory_stats()["current_bytes"] == before
