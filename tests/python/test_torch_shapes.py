"""Shape ops against torch 1.13 (src/tensor/shape_ops.cpp, pad_modes.cpp): T, mT, swapaxes, unflatten,
squeeze of several axes, unsqueeze, movedim, split, chunk, unbind, repeat, tile, repeat_interleave,
roll and pad with its four modes (torch.nn.functional.pad). Shapes and data are drawn with the `rng`
fixture; values are compared exactly (movement only: no arithmetic touches them), and dtypes and
shapes must be torch's. What torch rejects, onegrad rejects with a message naming the op."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import onegrad.nn.functional as F
from onegrad import Tensor, dtypes
from onegrad.errors import ShapeError

DTYPES = [dtypes.float32, dtypes.int32, dtypes.bool, dtypes.float16, dtypes.int64, dtypes.uint8]


def draw(rng, shape, dt=dtypes.float32):
    """An onegrad tensor and a torch tensor of the same random data."""
    if dt.is_bool:
        a = rng.integers(0, 2, size=shape).astype(np.bool_)
    elif dt.is_int:
        a = rng.integers(0 if dt.is_unsigned else -100, 100, size=shape).astype(dt.np)
    else:
        a = rng.standard_normal(size=shape).astype(dt.np)
    return Tensor(a, dtype=dt), torch.from_numpy(np.array(a))


def rand_shape(rng, ndim, lo=1, hi=5):
    return tuple(int(d) for d in rng.integers(lo, hi + 1, size=ndim))


def same(got, want):
    """got (onegrad) equals want (torch tensor or numpy array): shape, dtype and every value."""
    want = want.numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert isinstance(got, Tensor)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    assert got.dtype == dtypes.from_numpy(want.dtype), f"dtype {got.dtype} != {want.dtype}"
    np.testing.assert_array_equal(got.numpy(), want)


def same_list(got, want):
    assert isinstance(got, tuple)
    assert len(got) == len(want), f"{len(got)} pieces != {len(want)}"
    for g, w in zip(got, want):
        same(g, w)


def both_raise(og_fn, torch_fn, match):
    """torch rejects the call and onegrad raises ShapeError (a ValueError) whose text matches."""
    with pytest.raises(Exception):
        torch_fn()
    with pytest.raises(ShapeError, match=match):
        og_fn()


# ---- transposes


@pytest.mark.filterwarnings("ignore::UserWarning")  # torch deprecates .T for ndim != 2
@pytest.mark.parametrize("ndim", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("dt", DTYPES[:3], ids=str)
def test_T(rng, ndim, dt):
    t, x = draw(rng, rand_shape(rng, ndim), dt)
    same(t.T, x.T)


@pytest.mark.parametrize("ndim", [2, 3, 4])
def test_mT(rng, ndim):
    t, x = draw(rng, rand_shape(rng, ndim))
    same(t.mT, x.mT)


def test_mT_rejects_vectors():
    both_raise(lambda: Tensor.ones(3).mT, lambda: torch.ones(3).mT, r"mT: needs a matrix .* got shape \(3,\)")


@pytest.mark.parametrize("dims", [(0, 1), (-1, 0), (1, 2), (2, 2), (-3, -1)])
def test_swapaxes(rng, dims):
    t, x = draw(rng, rand_shape(rng, 3))
    same(t.swapaxes(*dims), x.swapaxes(*dims))
    same(t.swapdims(*dims), torch.swapdims(x, *dims))


# ---- squeeze, unsqueeze, unflatten, movedim


@pytest.mark.parametrize("shape,dims", [((1, 3, 1), (0, 2)), ((1, 3, 1), (0, 1)), ((1, 1, 1), (0, -1)),
                                        ((2, 1, 4, 1), (1, 3)), ((2, 1, 4, 1), (-3,)), ((2, 3), ()),
                                        ((1, 1), (1, 0)), ((), (0,)), ((), (-1, 0))], ids=str)
def test_squeeze_dims(rng, shape, dims):
    # torch 1.13 takes one dim at a time; squeezing them one by one from the last gives torch 2's answer
    t, x = draw(rng, shape)
    want = x
    for d in sorted({d % max(x.ndim, 1) for d in dims}, reverse=True):
        want = want.squeeze(d)
    same(t.squeeze(dims), want)
    same(t.squeeze(list(dims)), want)


@pytest.mark.parametrize("dim", [None, 0, 1, -1, 2])
def test_squeeze_one(rng, dim):
    t, x = draw(rng, (1, 3, 1))
    same(t.squeeze(dim), x.squeeze() if dim is None else x.squeeze(dim))


def test_squeeze_errors():
    both_raise(lambda: Tensor.ones(1, 3).squeeze((0, 2)), lambda: torch.ones(1, 3).squeeze(2),
               r"squeeze: axis 2 is out of range for shape \(1, 3\)")
    with pytest.raises(ShapeError, match=r"squeeze: axis -2 repeated in dims \(0, -2\)"):
        Tensor.ones(1, 3).squeeze((0, -2))


@pytest.mark.parametrize("ndim", [0, 1, 3])
@pytest.mark.parametrize("where", [0, -1, "mid"])
def test_unsqueeze(rng, ndim, where):
    t, x = draw(rng, rand_shape(rng, ndim))
    d = ndim // 2 if where == "mid" else where
    same(t.unsqueeze(d), x.unsqueeze(d))


@pytest.mark.parametrize("shape,dim,sizes", [((2, 12), 1, (3, 4)), ((2, 12), -1, (2, -1, 3)), ((12,), 0, (12,)),
                                             ((6, 5), 0, (-1, 1, 3)), ((4, 0), 1, (0, 5)), ((4, 6), 0, (2, 2))],
                         ids=str)
def test_unflatten(rng, shape, dim, sizes):
    t, x = draw(rng, shape)
    same(t.unflatten(dim, sizes), x.unflatten(dim, sizes))


@pytest.mark.parametrize("sizes,match", [((5, 2), "do not multiply up to the size 12"), ((-1, -1), "only one size can be -1"),
                                         ((), "sizes must be non-empty"), ((5, -1), "the -1 cannot be inferred")],
                         ids=str)
def test_unflatten_errors(sizes, match):
    both_raise(lambda: Tensor.ones(2, 12).unflatten(1, sizes), lambda: torch.ones(2, 12).unflatten(1, sizes),
               "unflatten: .*" + match)


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), (1, 1), ((0, 1), (-1, 0)), ((3, 0), (0, 1)), ((0, 1, 2), (2, 3, 0)),
                                     ((), ())], ids=str)
def test_movedim(rng, src, dst):
    t, x = draw(rng, rand_shape(rng, 4))
    same(t.movedim(src, dst), x.movedim(src, dst))
    same(t.moveaxis(src, dst), torch.moveaxis(x, src, dst))


@pytest.mark.parametrize("src,dst,match", [((0, 0), (1, 2), r"axis 0 repeated in source \(0, 0\)"),
                                           ((0, 1), (2, -1), r"axis -1 repeated in destination"),
                                           ((0, 1), (1,), r"source \(0, 1\) and destination \(1,\) must have the same number of axes"),
                                           (4, 0, "axis 4 is out of range")], ids=str)
def test_movedim_errors(src, dst, match):
    both_raise(lambda: Tensor.ones(2, 3, 4).movedim(src, dst), lambda: torch.ones(2, 3, 4).movedim(src, dst),
               "movedim: " + match)


# ---- split, chunk, unbind


@pytest.mark.parametrize("n,size", [(7, 3), (6, 3), (6, 1), (5, 5), (5, 9), (0, 3), (0, 0), (1, 1)], ids=str)
@pytest.mark.parametrize("dim", [0, -1])
def test_split_size(rng, n, size, dim):
    shape = (n, 2) if dim == 0 else (2, n)
    t, x = draw(rng, shape)
    same_list(t.split(size, dim), x.split(size, dim))


@pytest.mark.parametrize("sections", [[1, 6], [7], [0, 3, 4], [2, 2, 2, 1], [0, 7, 0]], ids=str)
@pytest.mark.parametrize("dt", DTYPES[:3], ids=str)
def test_split_sections(rng, sections, dt):
    t, x = draw(rng, (3, 7), dt)
    same_list(t.split(sections, 1), x.split(sections, 1))
    same_list(t.split(tuple(sections), dim=1), torch.split(x, sections, dim=1))
    same_list(t.split(sections, axis=-1), x.split(sections, -1))


@pytest.mark.parametrize("size,match", [(0, "split_size can only be 0 if the axis is empty"),
                                        (-1, "split_size must be non-negative"),
                                        ([2, 2], r"split sizes \(2, 2\) must sum to the size 5"),
                                        ([6, -1], "negative size")], ids=str)
def test_split_errors(size, match):
    both_raise(lambda: Tensor.ones(5).split(size), lambda: torch.ones(5).split(size), "split: " + match)


@pytest.mark.parametrize("n", [0, 1, 5, 6, 7, 10, 13])
@pytest.mark.parametrize("chunks", [1, 2, 3, 4, 6, 20])
def test_chunk(rng, n, chunks):
    # torch's rule: pieces of ceil(n / chunks), so 6 in 4 chunks is 3 pieces of 2
    t, x = draw(rng, (2, n))
    same_list(t.chunk(chunks, 1), x.chunk(chunks, 1))


def test_chunk_errors():
    both_raise(lambda: Tensor.ones(5).chunk(0), lambda: torch.ones(5).chunk(0), "chunk: chunks must be greater than 0")


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dt", DTYPES[:3], ids=str)
def test_unbind(rng, dim, dt):
    t, x = draw(rng, rand_shape(rng, 3), dt)
    same_list(t.unbind(dim), x.unbind(dim))


def test_unbind_empty_and_errors():
    same_list(Tensor.ones(0, 3).unbind(0), torch.ones(0, 3).unbind(0))
    both_raise(lambda: Tensor.ones(2).unbind(1), lambda: torch.ones(2).unbind(1), r"unbind: axis 1 is out of range")


# ---- repeat, tile, repeat_interleave


@pytest.mark.parametrize("shape,reps", [((3,), (2,)), ((3,), (2, 3)), ((2, 3), (1, 1)), ((2, 3), (2, 1, 3)),
                                        ((2, 3), (0, 2)), ((), (4,)), ((), ()), ((2, 1, 3), (1, 4, 1)),
                                        ((0, 2), (3, 1))], ids=str)
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_repeat(rng, shape, reps, dt):
    t, x = draw(rng, shape, dt)
    same(t.repeat(reps), x.repeat(reps))
    if reps:
        same(t.repeat(*reps), x.repeat(*reps))


@pytest.mark.parametrize("shape,reps", [((3,), (2,)), ((2, 3), (2,)), ((2, 3), (3, 1, 2)), ((2, 3), ()),
                                        ((2, 3, 2), (2, 1)), ((), (3,))], ids=str)
def test_tile(rng, shape, reps):
    t, x = draw(rng, shape)
    same(t.tile(reps), x.tile(reps))


def test_repeat_errors():
    both_raise(lambda: Tensor.ones(2, 3).repeat(2), lambda: torch.ones(2, 3).repeat(2),
               r"repeat: 1 repeats \(2,\) for shape \(2, 3\)")
    both_raise(lambda: Tensor.ones(3).repeat(-1), lambda: torch.ones(3).repeat(-1), "repeat: negative repeat count")


@pytest.mark.parametrize("repeats", [0, 1, 2, 3])
@pytest.mark.parametrize("dim", [None, 0, 1, -1])
@pytest.mark.parametrize("dt", DTYPES[:3], ids=str)
def test_repeat_interleave(rng, repeats, dim, dt):
    t, x = draw(rng, rand_shape(rng, 2), dt)
    same(t.repeat_interleave(repeats, dim), x.repeat_interleave(repeats, dim))


def test_repeat_interleave_forms(rng):
    t, x = draw(rng, (2, 3))
    same(t.repeat_interleave(2, axis=1), x.repeat_interleave(2, dim=1))
    same(t.repeat_interleave(Tensor(3), dim=0), x.repeat_interleave(torch.tensor(3), dim=0))
    same(Tensor(5).repeat_interleave(3), torch.tensor(5, dtype=torch.int32).repeat_interleave(3))
    both_raise(lambda: t.repeat_interleave(-1), lambda: x.repeat_interleave(-1),
               "repeat_interleave: repeats must be non-negative")
    both_raise(lambda: Tensor(5).repeat_interleave(2, 0), lambda: torch.tensor(5).repeat_interleave(2, dim=0),
               r"repeat_interleave: axis 0 is out of range for shape \(\)")


# ---- roll


@pytest.mark.parametrize("shifts,dims", [(1, 0), (-1, 1), (7, -1), (0, 0), (3, None), (-5, None), ((1, 2), (0, 1)),
                                         ((2, -3), (2, 0)), ((1, 1), (1, 1)), ((100,), (2,))], ids=str)
@pytest.mark.parametrize("dt", DTYPES[:3], ids=str)
def test_roll(rng, shifts, dims, dt):
    t, x = draw(rng, rand_shape(rng, 3, lo=1, hi=6), dt)
    same(t.roll(shifts, dims), x.roll(shifts, dims))


def test_roll_empty_axis():
    same(Tensor.ones(0, 3).roll(2, 0), torch.ones(0, 3).roll(2, 0))
    same(Tensor.ones(0, 3).roll(2), torch.ones(0, 3).roll(2))


@pytest.mark.parametrize("shifts,dims,match", [((1, 2), (0,), "shifts and dims must align: 2 shifts for 1 dims"),
                                               ((1, 2), None, "shifts and dims must align: 2 shifts without dims"),
                                               ((), None, "shifts must not be empty"), (1, 5, "axis 5 is out of range")],
                         ids=str)
def test_roll_errors(shifts, dims, match):
    both_raise(lambda: Tensor.ones(3, 4).roll(shifts, dims), lambda: torch.ones(3, 4).roll(shifts, dims), "roll: " + match)


# ---- pad (torch.nn.functional.pad)

# (input rank, flat pad) that torch 1.13 takes in every non-constant mode
TORCH_PADS = [(3, (1, 1)), (3, (2, 0)), (3, (0, 2)), (3, (-1, 2)), (3, (2, -1)), (3, (-1, -1)), (3, (0, 0)),
              (4, (1, 1, 1, 1)), (4, (2, 0, 0, 1)), (4, (-1, 1, 1, -1)), (4, (0, 0, 1, 2)), (5, (1, 0, 1, 1, 0, 2))]


@pytest.mark.parametrize("rank,pad", TORCH_PADS, ids=str)
@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_modes(rng, rank, pad, mode):
    # every padded axis at least 3 long, so reflect (pad < size) and circular (pad <= size) fit
    t, x = draw(rng, rand_shape(rng, rank, lo=3, hi=5))
    same(F.pad(t, pad, mode=mode), TF.pad(x, pad, mode=mode))
    same(t.pad(pad, mode=mode), TF.pad(x, pad, mode=mode))


@pytest.mark.parametrize("pad", [(1, 2), (-1, 0), (0, 2, 1, 0), (1, 1, 1, 1, 1, 1), (-1, -1, 2, 0)], ids=str)
@pytest.mark.parametrize("value", [0, 2.5, -1])
def test_pad_constant(rng, pad, value):
    # every axis at least 3 long: torch rejects a crop to size 0 ((-1, -1) of 2)
    t, x = draw(rng, rand_shape(rng, 3, lo=3, hi=5))
    same(F.pad(t, pad, value=value), TF.pad(x, pad, value=value))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_dtypes(rng, dt, mode):
    t, x = draw(rng, (2, 3, 4), dt)
    try:
        want = TF.pad(x, (2, 1), mode=mode)
    except RuntimeError as e:
        # torch 1.13 has no reflect/replicate kernels for ints, bool or half on the CPU: the same
        # pad of the float64 copy, cast back, is the answer
        assert "not implemented for" in str(e)
        want = TF.pad(x.double(), (2, 1), mode=mode).to(x.dtype)
    same(F.pad(t, (2, 1), mode=mode), want)


NP_MODES = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@pytest.mark.parametrize("shape,pairs", [((5,), [(2, 3)]), ((4, 5), [(1, 2), (3, 0)]), ((3, 4, 5), [(0, 0), (2, 2), (1, 1)]),
                                         ((2, 3, 3, 4, 2), [(1, 0), (0, 0), (2, 2), (0, 1), (1, 1)])], ids=str)
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_any_rank(rng, shape, pairs, mode):
    # beyond torch 1.13 (1-D, 2-D, 6-D inputs, padding the leading axes): numpy.pad is the oracle
    t, x = draw(rng, shape)
    a = x.numpy()
    same(t.pad(pairs, mode=mode), np.pad(a, pairs, mode=NP_MODES[mode]))


def test_cat_and_stack_of_computed_tensors_along_the_outer_axis_of_rank_5(rng):
    # on a target with 3 launch dims the outer axes of a rank-5 output stay loops around them: the
    # concat runs as one loop nest per input (codegen/split_padded_loops.h), each around the same
    # work item index
    (t, x), (u, y) = draw(rng, (8, 2, 3, 4, 5)), draw(rng, (9, 2, 3, 4, 5))
    same(t.relu().cat(u * 2, dim=0), torch.cat((x.relu(), y * 2), dim=0))
    (t, x), (u, y) = draw(rng, (2, 3, 3, 4, 5)), draw(rng, (2, 3, 3, 4, 5))
    same(Tensor.stack([t.relu(), u * 2]), torch.stack((x.relu(), y * 2)))


@pytest.mark.parametrize("mode,shape,pad,match", [
    ("reflect", (1, 2, 3), (3, 0), r"pad \(reflect\): padding \(3, 0\) must be less than the size 3 for axis 2"),
    ("reflect", (1, 2, 3), (0, 3), "must be less than the size 3"),
    ("circular", (1, 2, 3), (4, 0), r"pad \(circular\): padding \(4, 0\) wraps around more than once"),
    ("replicate", (1, 0, 3), (0, 0, 1, 0), r"pad \(replicate\): cannot pad \(1, 0\) from an empty axis"),
    ("constant", (1, 2, 3), (-2, -2), r"pad \(constant\): padding \(-2, -2\) crops more than the size 3"),
    ("constant", (1, 2, 3), (1,), "needs an even number of values"),
    ("constant", (1, 2, 3), (1,) * 8, "is too long for shape"),
    ("reflect", (1, 2, 3), (1,) * 8, "is too long for shape"),
], ids=str)
def test_pad_errors(mode, shape, pad, match):
    both_raise(lambda: F.pad(Tensor.ones(*shape), pad, mode=mode), lambda: TF.pad(torch.ones(shape), pad, mode=mode),
               match)


def test_pad_bad_mode_and_value():
    with pytest.raises(NotImplementedError):
        TF.pad(torch.ones(1, 2, 3), (1, 1), mode="mirror")
    with pytest.raises(NotImplementedError, match="unknown padding mode 'mirror'"):
        F.pad(Tensor.ones(1, 2, 3), (1, 1), mode="mirror")
    with pytest.raises(RuntimeError):
        TF.pad(torch.ones(1, 2, 3), (1, 1), mode="reflect", value=1.0)
    with pytest.raises(ShapeError, match="mode 'reflect' takes no value"):
        F.pad(Tensor.ones(1, 2, 3), (1, 1), mode="reflect", value=1.0)
