"""Indexing against torch 1.13: getitem with integer and bool tensor indices (lists, numpy arrays,
onegrad Tensors) mixed with ints, slices, None and ..., and setitem (basic and advanced), including
the ordering of a lazy value built before an assignment and the aliasing of views. Index
combinations are drawn at random per run (the `rng` fixture; the seed is printed)."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor, dtypes
from onegrad.errors import DTypeError, ShapeError

N_RANDOM = 60


# ---- random index keys, as (onegrad key, torch key)

def _pick(rng, options):
    return options[int(rng.integers(0, len(options)))]


def _basic_item(rng, d):
    """An int, a slice with a positive step (torch has no negative steps) or a full slice."""
    kind = int(rng.integers(0, 4))
    if kind == 0 and d > 0:
        return int(rng.integers(-d, d))
    if kind == 1:
        bound = [None] + list(range(-d - 1, d + 2))
        return slice(_pick(rng, bound), _pick(rng, bound), _pick(rng, [None, 1, 2, 3]))
    return slice(None)


def _sub_shape(rng, b):
    """A shape that broadcasts to b: some dims 1, some leading dims dropped."""
    s = [1 if rng.random() < 0.3 else d for d in b]
    drop = int(rng.integers(0, len(s) + 1)) if s else 0
    return tuple(s[drop:])


def _index_shape(rng, b):
    """The shape of one index tensor broadcasting to b, never 0-d (torch 1.13 treats a 0-d index
    tensor next to None or ints unlike numpy)."""
    return _sub_shape(rng, b) or (1,)


def _as_index(rng, arr, kind=None):
    """The onegrad form of an index array: a list, a numpy array or a Tensor (int32 or int64)."""
    kind = kind or _pick(rng, ["list", "numpy", "tensor32", "tensor64"])
    if arr.dtype == np.bool_:
        kind = _pick(rng, ["list", "numpy", "tensor"]) if arr.ndim else "numpy"
        return arr.tolist() if kind == "list" else Tensor(arr) if kind == "tensor" else arr
    if kind == "list" and arr.ndim > 0:
        return arr.tolist()
    if kind == "numpy":
        return arr
    return Tensor(arr.astype(np.int32 if kind == "tensor32" else np.int64))


def _torch_item(it):
    return torch.from_numpy(np.asarray(it)) if isinstance(it, np.ndarray) else it


def random_key(rng, shape, mode):
    """(onegrad key, torch key) for x of `shape`. mode: int (integer tensors on some axes, broadcast
    together), mask (one bool mask over one or two adjacent axes), mixed (a mask and a broadcastable
    integer tensor)."""
    n = len(shape)
    adv = {}
    if mode == "int":
        k = int(rng.integers(1, min(3, n) + 1))
        axes = sorted(rng.choice(n, size=k, replace=False).tolist())
        b = tuple(int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3))))
        for a in axes:
            adv[a] = ("int", rng.integers(-shape[a], shape[a], size=_index_shape(rng, b)))
    else:
        k = 1 if n == 1 or rng.random() < 0.5 else 2
        a = int(rng.integers(0, n - k + 1))
        adv[a] = ("mask", rng.random(size=shape[a:a + k]) < 0.5, k)
        if mode == "mixed":
            others = [i for i in range(n) if i < a or i >= a + k]
            if others:
                o = _pick(rng, others)
                adv[o] = ("int", rng.integers(-shape[o], shape[o], size=(1,)))
    og, th = [], []
    ax = 0
    while ax < n:
        if rng.random() < 0.15 and not adv:  # (torch 1.13 misplaces dims for None next to tensor indices)
            og.append(None)
            th.append(None)
        if ax in adv:
            entry = adv[ax]
            arr = entry[1]
            og.append(_as_index(rng, arr))
            if arr.dtype == np.bool_:
                # torch's own meaning of a mask, its nonzero() (torch 1.13 applies a later stepped
                # slice to the wrong axis when given a 2-d mask directly)
                th.extend(torch.from_numpy(arr).nonzero(as_tuple=True))
            else:
                th.append(torch.from_numpy(arr.astype(np.int64)))
            ax += entry[2] if entry[0] == "mask" else 1
            continue
        it = _basic_item(rng, shape[ax])
        og.append(it)
        th.append(it)
        ax += 1
    # Trailing full slices are sometimes an Ellipsis, sometimes left out.
    if og and isinstance(og[-1], slice) and og[-1] == slice(None) and rng.random() < 0.5:
        og[-1] = th[-1] = Ellipsis if rng.random() < 0.5 else None
        if og[-1] is None:
            og.pop()
            th.pop()
    return tuple(og), tuple(th)


def random_shape(rng, min_rank=1, max_rank=4):
    return tuple(int(rng.integers(1, 5)) for _ in range(int(rng.integers(min_rank, max_rank + 1))))


def compare(got, want):
    assert isinstance(got, Tensor)
    want = want.numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    assert got.dtype == dtypes.from_numpy(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def data(rng, shape, npdt=np.float32):
    if npdt == np.bool_:
        return rng.random(size=shape) < 0.5
    return (rng.integers(-50, 50, size=shape)).astype(npdt)


# ---- getitem

@pytest.mark.parametrize("case", range(N_RANDOM))
@pytest.mark.parametrize("mode", ["int", "mask", "mixed"])
def test_getitem_random(rng, mode, case):
    shape = random_shape(rng)
    key, tkey = random_key(rng, shape, mode)
    a = data(rng, shape)
    compare(Tensor(a)[key], torch.from_numpy(a)[tkey])


@pytest.mark.parametrize("npdt", [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.float16, np.float32,
                                  np.float64], ids=lambda d: np.dtype(d).name)
def test_getitem_dtypes(rng, npdt):
    a = data(rng, (4, 3), npdt)
    compare(Tensor(a)[[3, 0, -1]], torch.from_numpy(a)[[3, 0, -1]])
    m = rng.random(size=(4, 3)) < 0.5
    compare(Tensor(a)[m], torch.from_numpy(a)[torch.from_numpy(m)])


@pytest.mark.parametrize("key", [
    [0], [2, 0, 1], [-1, -3], [[0, 1], [2, 2]], ([0, 1], [1, 2]), ([[0], [1]], [0, 2]), (slice(None), [1, 0]),
    (Ellipsis, [0, 0]), (None, [1]), ([0, 2], slice(None), 1), (1, [0, 1]), ([1], Ellipsis, [2, 0]),
    ([], slice(None)), (slice(1, None), None, [0, -1]), ([[2]], [[0, 1, 2]]),
], ids=str)
def test_getitem_lists(key):
    a = np.arange(3 * 3 * 4, dtype=np.float32).reshape(3, 3, 4)
    tkey = tuple(torch.tensor(k, dtype=torch.int64) if isinstance(k, list) else k for k in key) \
        if isinstance(key, tuple) else torch.tensor(key, dtype=torch.int64)
    compare(Tensor(a)[key], torch.from_numpy(a)[tkey])


@pytest.mark.parametrize("fill", ["none", "all", "random"])
@pytest.mark.parametrize("shape,axes", [((6,), 1), ((3, 4), 1), ((3, 4), 2), ((2, 3, 4), 2), ((2, 3, 4), 3)])
def test_getitem_masks(rng, shape, axes, fill):
    a = data(rng, shape)
    m = {"none": np.zeros, "all": np.ones}.get(fill, lambda s, dtype: rng.random(size=s) < 0.5)(shape[:axes], dtype=bool)
    compare(Tensor(a)[m], torch.from_numpy(a)[torch.from_numpy(m)])
    if axes < len(shape):  # a mask after a slice
        m2 = rng.random(size=shape[1:1 + axes]) < 0.5
        compare(Tensor(a)[:, m2], torch.from_numpy(a)[:, torch.from_numpy(m2)])


@pytest.mark.parametrize("flag", [True, False])
def test_getitem_bool_scalar(rng, flag):
    a = data(rng, (2, 3))
    compare(Tensor(a)[flag], torch.from_numpy(a)[flag])
    compare(Tensor(a)[Tensor(flag)], torch.from_numpy(a)[torch.tensor(flag)])
    compare(Tensor(a)[1, flag], torch.from_numpy(a)[1, flag])


def test_getitem_result_is_lazy_composition():
    # An index tensor computed lazily (not host data) is not checked: it gathers like any other.
    a = np.arange(10, dtype=np.float32)
    idx = Tensor(np.array([1, 2, 3], dtype=np.int32)) * 2
    compare(Tensor(a)[idx], a[[2, 4, 6]])


def test_getitem_lazy_out_of_range_raises_when_realized():
    # Decision (docs/tensor.md): a computed index is checked when the result is realized (host data,
    # lists and arrays, at once, like torch); with CHECK_INDEX=0 a value out of range gives 0.
    a = np.arange(1, 5, dtype=np.float32)
    idx = Tensor(np.array([0, 3], dtype=np.int64)) + 2  # [2, 5]
    y = Tensor(a)[idx]
    with pytest.raises(IndexError, match="getitem: index 5 is out of bounds for dimension 0 with size 4"):
        y.numpy()
    with onegrad.settings.override(CHECK_INDEX=0):  # (the error read idx back: compute it anew)
        idx = Tensor(np.array([0, 3], dtype=np.int64)) + 2
        compare(Tensor(a)[idx], np.array([3, 0], dtype=np.float32))


def test_getitem_index_tensor_realized():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    idx = (Tensor(np.array([2, 0], dtype=np.int64)) + 0).realize()  # data on the device now
    compare(Tensor(a)[idx], a[[2, 0]])
    with pytest.raises(IndexError, match="getitem: index 4 is out of bounds for axis 0 with size 3"):
        Tensor(a)[(Tensor(np.array([4], dtype=np.int64)) + 0).realize()]


# ---- getitem errors: what torch rejects, onegrad rejects

def test_getitem_errors():
    a = np.zeros((3, 4, 5), dtype=np.float32)
    t, tt = Tensor(a), torch.from_numpy(a)
    cases = [
        ([5], IndexError, "getitem: index 5 is out of bounds for axis 0 with size 3"),
        ((slice(None), [-5]), IndexError, "getitem: index -5 is out of bounds for axis 1 with size 4"),
        (([0, 1], [0, 1, 2]), IndexError,
         r"getitem: shape mismatch: indexing tensors could not be broadcast together with shapes \(2,\), \(3,\)"),
        (np.ones(2, dtype=bool), IndexError,
         r"getitem: the shape of the mask \(2,\) at axis 0 does not match the shape \(3, 4, 5\) of the indexed tensor"),
        ((0, [0], [0], [0]), IndexError, r"getitem: too many indices for shape \(3, 4, 5\): 4 were given"),
    ]
    for key, err, msg in cases:
        tkey = tuple(torch.tensor(k) if isinstance(k, (list, np.ndarray)) else k for k in key) \
            if isinstance(key, tuple) else torch.tensor(key)
        with pytest.raises((IndexError, RuntimeError)):
            tt[tkey]
        with pytest.raises(err, match=msg):
            t[key]
    with pytest.raises(IndexError):
        tt[torch.tensor([1.0])]
    with pytest.raises(DTypeError, match="getitem: tensors used as indices must be integer or bool tensors, got float32"):
        t[Tensor(np.array([1.0], dtype=np.float32))]


# ---- setitem

def _random_basic_key(rng, shape):
    key = []
    for d in shape:
        if rng.random() < 0.15:
            key.append(None)
        key.append(_basic_item(rng, d))
    if rng.random() < 0.3 and len(key) > 1:
        key = key[:int(rng.integers(1, len(key)))] + [Ellipsis]
    return tuple(key)


@pytest.mark.parametrize("case", range(N_RANDOM))
def test_setitem_basic_random(rng, case):
    shape = random_shape(rng)
    a = data(rng, shape)
    key = _random_basic_key(rng, shape)
    ref = torch.from_numpy(a.copy())
    target_shape = tuple(ref[key].shape)
    # value: a scalar, or a tensor of a shape that broadcasts to the target
    if rng.random() < 0.3:
        v = float(rng.integers(-9, 9))
        vt = v
    else:
        v = np.asarray(data(rng, _sub_shape(rng, target_shape)) + 100, dtype=np.float32)
        vt = torch.from_numpy(v)
        v = Tensor(v)
    t = Tensor(a)
    t[key] = v
    ref[key] = vt
    compare(t, ref)


@pytest.mark.parametrize("case", range(N_RANDOM // 2))
@pytest.mark.parametrize("mode", ["int", "mask", "mixed"])
def test_setitem_advanced_random(rng, mode, case):
    shape = random_shape(rng)
    a = data(rng, shape)
    key, tkey = random_key(rng, shape, mode)
    ref = torch.from_numpy(a.copy())
    target_shape = tuple(ref[tkey].shape)
    # Distinct values per written element; duplicates in an index take one of their values in
    # both, so write one value per element only where positions are distinct.
    pos = torch.arange(ref.numel()).reshape(ref.shape)[tkey]
    if pos.numel() != pos.unique().numel():
        v = 7.0
        vt = v
    else:
        v = np.asarray(data(rng, target_shape) + 100, dtype=np.float32)
        vt = torch.from_numpy(v)
        v = Tensor(v)
    t = Tensor(a)
    t[key] = v
    ref[tkey] = vt
    compare(t, ref)


@pytest.mark.parametrize("case", range(N_RANDOM // 2))
@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
def test_setitem_through_permuted_view_random(rng, advanced, case):
    # Writing into a permuted (and sliced) view of a tensor holding data writes its buffer (torch).
    shape = random_shape(rng, min_rank=2)
    a = data(rng, shape)
    perm = tuple(rng.permutation(len(shape)).tolist())
    t, ref = Tensor(a), torch.from_numpy(a.copy())
    view, tview = t.permute(*perm)[1:], ref.permute(*perm)[1:]
    if advanced:
        key, tkey = random_key(rng, tuple(tview.shape), "int") if tview.numel() else ((), ())
    else:
        key = tkey = _random_basic_key(rng, tuple(tview.shape))
    view[key] = -7.0
    tview[tkey] = -7.0
    compare(t, ref)
    compare(view, tview)


def test_setitem_duplicates_take_one_of_the_values():
    t = Tensor(np.zeros(3, dtype=np.float32))
    t[[1, 1, 2]] = Tensor(np.array([5, 6, 7], dtype=np.float32))
    got = t.numpy()
    assert got[0] == 0 and got[1] in (5, 6) and got[2] == 7


@pytest.mark.parametrize("npdt", [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.float16, np.float32,
                                  np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("value", [3, -2.7, True, "tensor"])
def test_setitem_casts_to_dtype(rng, npdt, value):
    a = data(rng, (3, 4), npdt)
    t, ref = Tensor(a), torch.from_numpy(a.copy())
    if value == "tensor":
        v = rng.uniform(0 if npdt == np.uint8 else -5, 5, size=(4,)).astype(np.float32)
        t[1] = Tensor(v)
        ref[1] = torch.from_numpy(v)
    else:
        if npdt == np.uint8 and isinstance(value, float) and value < 0:
            value = 2.7  # float -> uint8 of a negative value is undefined in C and torch
        t[1:, ::2] = value
        ref[1:, ::2] = value
    compare(t, ref)


def test_setitem_lazy_value_before_keeps_old_values():
    # AFTER ordering: y was built from t before the assignment, so it has t's old values; z, built
    # after, sees the new ones; the view v (movement ops only) reads the buffer and sees them too.
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = Tensor(a)
    y = t * 2
    s = t.sum()
    v = t.reshape(6)
    col = t[:, 1]
    t[0] = 10
    z = t * 2
    f32 = lambda x: np.array(x, dtype=np.float32)
    compare(t, f32([[10, 10, 10], [3, 4, 5]]))
    compare(y, a * 2)
    compare(s, f32(15))
    compare(z, f32([[20, 20, 20], [6, 8, 10]]))
    compare(v, f32([10, 10, 10, 3, 4, 5]))
    compare(col, f32([10, 4]))


def test_setitem_twice_and_realized_reader():
    t = Tensor(np.zeros(4, dtype=np.int32))
    first = t + 1
    t[0] = 5
    second = t + 1
    t[1] = 6
    compare(first, np.array([1, 1, 1, 1], dtype=np.int32))
    compare(second, np.array([6, 1, 1, 1], dtype=np.int32))
    compare(t + 1, np.array([6, 7, 1, 1], dtype=np.int32))


def test_setitem_views_see_writes_like_torch():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t, ref = Tensor(a).realize(), torch.from_numpy(a.copy())
    views, tviews = [t.T, t[1], t[:, ::2], t.reshape(4, 3)], [ref.T, ref[1], ref[:, ::2], ref.reshape(4, 3)]
    t[1, 1:3] = -1
    ref[1, 1:3] = -1
    for v, tv in zip(views, tviews):
        compare(v, tv)


def test_setitem_writes_through_a_transposed_view():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t, ref = Tensor(a).realize(), torch.from_numpy(a.copy())
    t.T[0] = 100
    ref.T[0] = 100
    compare(t, ref)
    t[:, 1:].T[1] = Tensor(np.array([7, 8], dtype=np.float32))
    ref[:, 1:].T[1] = torch.tensor([7.0, 8.0])
    compare(t, ref)


def test_setitem_overlapping_value_reads_old_values():
    # numpy semantics: the value is computed before anything is written.
    a = np.arange(6, dtype=np.int32)
    t = Tensor(a)
    t[1:] = t[:-1]
    b = a.copy()
    b[1:] = b[:-1].copy()
    compare(t, b)


def test_setitem_lazy_and_constant_tensors():
    base = Tensor(np.arange(4, dtype=np.float32))
    t = base + 1  # a lazy value: realized into a buffer of its own, then written
    t[0] = 0
    compare(t, np.array([0, 2, 3, 4], dtype=np.float32))
    compare(base, np.array([0, 1, 2, 3], dtype=np.float32))
    z = Tensor.zeros(2, 2)
    z[1, 1] = 3
    compare(z, np.array([[0, 0], [0, 3]], dtype=np.float32))


def test_setitem_errors():
    t = Tensor(np.zeros((2, 3), dtype=np.float32))
    with pytest.raises(RuntimeError):
        torch.zeros(2, 3)[0] = torch.ones(2)
    with pytest.raises(ShapeError, match=r"setitem: cannot broadcast value of shape \(2,\) to the indexed shape \(3,\)"):
        t[0] = Tensor(np.ones(2, dtype=np.float32))
    with pytest.raises(IndexError, match="getitem: index 2 is out of bounds for axis 0 with size 2"):
        t[2] = 1.0
    e = Tensor(np.zeros((1, 3), dtype=np.float32)).realize().expand(4, 3)
    with pytest.raises(ShapeError, match=r"setitem: cannot write into the broadcast \(expanded\) view of shape \(4, 3\)"):
        e[0] = 1.0
    with pytest.raises(TypeError):
        t[0] = "x"


@pytest.mark.parametrize("npdt", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16],
                         ids=lambda d: np.dtype(d).name)
def test_index_tensor_dtypes(rng, npdt):
    # Any integer dtype indexes (torch 1.13 takes int64 only; uint8 is an index here, not a mask).
    a = data(rng, (5, 3))
    idx = rng.integers(0 if np.dtype(npdt).kind == "u" else -5, 5, size=(2, 2)).astype(npdt)
    compare(Tensor(a)[Tensor(idx)], torch.from_numpy(a)[torch.from_numpy(idx.astype(np.int64))])
    t, ref = Tensor(a), torch.from_numpy(a.copy())
    col = (idx[0, :1] % 3).astype(npdt)
    t[:, Tensor(col)] = -1
    ref[:, torch.from_numpy(col.astype(np.int64))] = -1
    compare(t, ref)


@pytest.mark.parametrize("npdt", [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32],
                         ids=lambda d: np.dtype(d).name)
def test_setitem_snapshot_keeps_every_value(rng, npdt):
    # A lazy value built before the assignment reads a snapshot of the buffer: bit-exact old values
    # (NaN and -0.0 included), while the tensor and its views see the write.
    a = data(rng, (3, 4), npdt)
    if np.dtype(npdt).kind == "f":
        a[0, :3] = [np.nan, -0.0, np.inf]
    t = Tensor(a)
    y = t.cast(dtypes.float64)
    row = t[0]
    t[0] = 1
    got = y.numpy()
    np.testing.assert_array_equal(got, a.astype(np.float64))
    if np.dtype(npdt).kind == "f":
        assert np.signbit(got[0, 1])
    b = a.copy()
    b[0] = 1
    compare(t, b)
    compare(row, b[0])


def test_setitem_with_index_and_value_computed_from_the_tensor(rng):
    # The mask and the value read t; both are computed from t's values before the write (torch).
    a = data(rng, (4, 5))
    t, ref = Tensor(a), torch.from_numpy(a.copy())
    t[t > 0] = 0
    ref[ref > 0] = 0
    compare(t, ref)
    t[t[:, 0] < 0, 1:] = t[0, 1:] * 2 + 1
    ref[ref[:, 0] < 0, 1:] = ref[0, 1:] * 2 + 1
    compare(t, ref)


def test_setitem_value_with_extra_leading_ones_and_whole_overlap():
    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    t, ref = Tensor(a), torch.from_numpy(a.copy())
    t[0] = Tensor(np.full((1, 1, 3), 5, dtype=np.float32))
    ref[0] = torch.full((1, 1, 3), 5.0)
    compare(t, ref)
    # the value is the whole buffer itself, read in another order: numpy's copy semantics
    b = t.numpy().copy()
    t[::-1] = t
    b[::-1] = b.copy()
    compare(t, b)
    t[...] = t.T
    b[...] = b.T.copy()
    compare(t, b)
