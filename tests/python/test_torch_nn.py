"""The neural-net ops (src/tensor/{conv,pool,norm,attention,interpolate}.cpp) against torch 1.13's
torch.nn.functional: values, dtypes and shapes over shapes, strides, paddings, dilations and groups
drawn at random per run (the `rng` fixture; the seed is printed), and the errors for what PyTorch
rejects too. Sizes stay small: each case compiles its kernels."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from onegrad import Tensor, dtypes
from onegrad.errors import DTypeError, ShapeError
import onegrad.nn.functional as F

CASES = range(16)  # random draws per parametrized test
CONV_TOL = dict(rtol=1e-4, atol=1e-5)
NORM_TOL = dict(rtol=1e-4, atol=1e-5)


def rand(rng, shape, dt=np.float32, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(dt)


def compare(got, want, rtol=1e-5, atol=1e-6):
    """onegrad Tensor `got` against torch tensor `want`: shape, dtype and values."""
    want = want.detach().numpy()
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    assert got.dtype == dtypes.from_numpy(want.dtype), f"dtype {got.dtype} != {want.dtype}"
    g = got.numpy()
    if want.dtype.kind == "f":
        np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


def both(*arrays):
    """(onegrad tensors, torch tensors) of the same numpy arrays (None stays None)."""
    return ([None if a is None else Tensor(a) for a in arrays],
            [None if a is None else torch.from_numpy(a) for a in arrays])


def conv_case(rng, nd):
    """A random valid convolution: shapes, stride, padding, dilation, groups, bias."""
    groups = int(rng.choice([1, 1, 2, 3]))
    cin, cout = groups * int(rng.integers(1, 3)), groups * int(rng.integers(1, 3))
    k = [int(rng.integers(1, 4)) for _ in range(nd)]
    d = [int(rng.integers(1, 3)) for _ in range(nd)]
    s = [int(rng.integers(1, 4)) for _ in range(nd)]
    p = [int(rng.integers(0, 3)) for _ in range(nd)]
    size = [max(int(rng.integers(3, 9 if nd < 3 else 6)), d[i] * (k[i] - 1) + 1 - 2 * p[i]) for i in range(nd)]
    n = int(rng.integers(1, 3))
    x = rand(rng, (n, cin, *size))
    w = rand(rng, (cout, cin // groups, *k))
    b = rand(rng, (cout,)) if rng.random() < 0.6 else None
    return x, w, b, s, p, d, groups


# ---- convolutions

@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("case", CASES)
def test_conv_random(rng, nd, case):
    if nd == 3 and case >= 6:
        pytest.skip("conv3d: fewer draws (bigger kernels)")
    x, w, b, s, p, d, g = conv_case(rng, nd)
    # mix the argument forms: ints when all axes agree, tuples otherwise
    arg = lambda v: v[0] if len(set(v)) == 1 and rng.random() < 0.5 else tuple(v)
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    fn, tfn = getattr(F, f"conv{nd}d"), getattr(TF, f"conv{nd}d")
    got = fn(ox, ow, ob, stride=arg(s), padding=arg(p), dilation=arg(d), groups=g)
    compare(got, tfn(tx, tw, tb, stride=tuple(s), padding=tuple(p), dilation=tuple(d), groups=g), **CONV_TOL)


@pytest.mark.parametrize("padding", ["same", "valid"])
@pytest.mark.parametrize("k,d", [(3, 1), (4, 1), (2, 3), (5, 2)])
def test_conv2d_padding_modes(rng, padding, k, d):
    x, w, b = rand(rng, (2, 2, 9, 8)), rand(rng, (3, 2, k, k - 1)), rand(rng, (3,))
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    compare(F.conv2d(ox, ow, ob, padding=padding, dilation=d), TF.conv2d(tx, tw, tb, padding=padding, dilation=d),
            **CONV_TOL)


def test_conv2d_unbatched_and_method(rng):
    x, w = rand(rng, (3, 6, 7)), rand(rng, (4, 3, 3, 3))
    (ox, ow), (tx, tw) = both(x, w)
    compare(ox.conv2d(ow, padding=1), TF.conv2d(tx, tw, padding=1), **CONV_TOL)


def test_conv2d_float64(rng):
    x, w, b = rand(rng, (2, 4, 6, 6), np.float64), rand(rng, (4, 2, 3, 3), np.float64), rand(rng, (4,), np.float64)
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    compare(F.conv2d(ox, ow, ob, stride=2, padding=1, groups=2), TF.conv2d(tx, tw, tb, stride=2, padding=1, groups=2),
            rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("nd", [1, 2])
@pytest.mark.parametrize("case", CASES)
def test_conv_transpose_random(rng, nd, case):
    if nd == 1 and case >= 8:
        pytest.skip("conv_transpose1d: fewer draws")
    groups = int(rng.choice([1, 1, 2]))
    cin, rcout = groups * int(rng.integers(1, 3)), int(rng.integers(1, 3))
    k = [int(rng.integers(1, 4)) for _ in range(nd)]
    s = [int(rng.integers(1, 4)) for _ in range(nd)]
    d = [int(rng.integers(1, 3)) for _ in range(nd)]
    p = [int(rng.integers(0, d[i] * (k[i] - 1) + 2)) for i in range(nd)]
    op = [int(rng.integers(0, max(s[i], d[i]))) for i in range(nd)]
    size = [int(rng.integers(2, 6)) for _ in range(nd)]
    # output (i-1)s - 2p + d(k-1) + op + 1 must be positive
    for i in range(nd):
        while (size[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op[i] + 1 <= 0:
            size[i] += 1
    x = rand(rng, (int(rng.integers(1, 3)), cin, *size))
    w = rand(rng, (cin, rcout, *k))
    b = rand(rng, (rcout * groups,)) if rng.random() < 0.5 else None
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    fn, tfn = getattr(F, f"conv_transpose{nd}d"), getattr(TF, f"conv_transpose{nd}d")
    got = fn(ox, ow, ob, stride=tuple(s), padding=tuple(p), output_padding=tuple(op), groups=groups,
             dilation=tuple(d))
    compare(got, tfn(tx, tw, tb, stride=tuple(s), padding=tuple(p), output_padding=tuple(op), groups=groups,
                     dilation=tuple(d)), **CONV_TOL)


# ---- pools

def pool_case(rng, dilation=True):
    k = [int(rng.integers(1, 4)) for _ in range(2)]
    s = [int(rng.integers(1, 4)) for _ in range(2)]
    p = [int(rng.integers(0, k[i] // 2 + 1)) for i in range(2)]
    d = [int(rng.integers(1, 3)) if dilation else 1 for _ in range(2)]
    size = [max(int(rng.integers(3, 10)), d[i] * (k[i] - 1) + 1) for i in range(2)]
    x = rand(rng, (int(rng.integers(1, 3)), int(rng.integers(1, 4)), *size), lo=-4, hi=4)
    return x, k, s, p, d


@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_max_pool2d_random(rng, ceil_mode, case):
    x, k, s, p, d = pool_case(rng)
    (ox,), (tx,) = both(x)
    stride = None if rng.random() < 0.25 else tuple(s)
    want, want_idx = TF.max_pool2d(tx, tuple(k), stride, tuple(p), tuple(d), ceil_mode=ceil_mode, return_indices=True)
    got, got_idx = F.max_pool2d(ox, tuple(k), stride, tuple(p), tuple(d), ceil_mode=ceil_mode, return_indices=True)
    compare(got, want, rtol=0, atol=0)
    compare(got_idx, want_idx)


def test_max_pool2d_ties_take_the_first_index():
    x = np.zeros((1, 1, 4, 4), np.float32)
    x[0, 0, 1:3, 1:3] = 1.0
    (ox,), (tx,) = both(x)
    got, idx = F.max_pool2d(ox, 3, 1, return_indices=True)
    want, want_idx = TF.max_pool2d(tx, 3, 1, return_indices=True)
    compare(got, want)
    compare(idx, want_idx)


@pytest.mark.parametrize("nd", [1, 3])
def test_max_pool_1d_3d(rng, nd):
    x = rand(rng, (2, 2, *([7] * nd)))
    (ox,), (tx,) = both(x)
    compare(getattr(F, f"max_pool{nd}d")(ox, 3, 2, 1), getattr(TF, f"max_pool{nd}d")(tx, 3, 2, 1))


@pytest.mark.parametrize("count_include_pad", [True, False])
@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("case", range(8))
def test_avg_pool2d_random(rng, count_include_pad, ceil_mode, case):
    x, k, s, p, _ = pool_case(rng, dilation=False)
    (ox,), (tx,) = both(x)
    got = F.avg_pool2d(ox, tuple(k), tuple(s), tuple(p), ceil_mode, count_include_pad)
    compare(got, TF.avg_pool2d(tx, tuple(k), tuple(s), tuple(p), ceil_mode, count_include_pad), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("divisor", [1, 5])
def test_avg_pool2d_divisor_override(rng, divisor):
    x = rand(rng, (1, 2, 6, 5))
    (ox,), (tx,) = both(x)
    compare(F.avg_pool2d(ox, 3, 2, 1, divisor_override=divisor), TF.avg_pool2d(tx, 3, 2, 1, divisor_override=divisor),
            rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("nd", [1, 3])
def test_avg_pool_1d_3d(rng, nd):
    x = rand(rng, (2, 2, *([6] * nd)))
    (ox,), (tx,) = both(x)
    compare(getattr(F, f"avg_pool{nd}d")(ox, 2, 2, 1), getattr(TF, f"avg_pool{nd}d")(tx, 2, 2, 1), rtol=1e-5, atol=1e-6)


ADAPTIVE = [((8, 8), (4, 2)), ((7, 5), (3, 2)), ((5, 9), (5, 4)), ((6, 6), (1, 1)), ((3, 4), (5, 7)),
            ((10, 7), (3, None)), ((4, 6), 3), ((9, 9), (9, 9))]


@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize("size,out", ADAPTIVE)
def test_adaptive_pool2d(rng, kind, size, out):
    x = rand(rng, (2, 3, *size), lo=-4, hi=4)
    (ox,), (tx,) = both(x)
    got = getattr(F, f"adaptive_{kind}_pool2d")(ox, out)
    compare(got, getattr(TF, f"adaptive_{kind}_pool2d")(tx, out), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize("nd,size,out", [(1, (7,), 3), (1, (8,), 4), (3, (5, 4, 6), (2, 3, 4))])
def test_adaptive_pool_1d_3d_unbatched(rng, kind, nd, size, out):
    x = rand(rng, (3, *size))
    (ox,), (tx,) = both(x)
    got = getattr(F, f"adaptive_{kind}_pool{nd}d")(ox, out)
    compare(got, getattr(TF, f"adaptive_{kind}_pool{nd}d")(tx, out), rtol=1e-5, atol=1e-6)


# ---- normalizations

@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("affine", [False, True])
@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 7), (3, 2, 4, 5)])
def test_batch_norm(rng, training, affine, shape):
    c = shape[1]
    x = rand(rng, shape, lo=-3, hi=5)
    rm, rv = rand(rng, (c,)), rand(rng, (c,), lo=0.5, hi=2.0)
    w, b = (rand(rng, (c,)), rand(rng, (c,))) if affine else (None, None)
    (ox, orm, orv, ow, ob), (tx, trm, trv, tw, tb) = both(x, rm, rv, w, b)
    got = F.batch_norm(ox, orm, orv, ow, ob, training=training, eps=1e-3)
    # torch updates its running stats in place when training: give it copies
    compare(got, TF.batch_norm(tx, trm.clone(), trv.clone(), tw, tb, training=training, eps=1e-3), **NORM_TOL)


@pytest.mark.parametrize("affine", [False, True])
@pytest.mark.parametrize("shape,normalized", [((4, 8), (8,)), ((2, 3, 5), (3, 5)), ((2, 3, 4, 6), (6,)),
                                              ((7,), (7,)), ((2, 3, 4), (2, 3, 4))])
def test_layer_norm(rng, affine, shape, normalized):
    x = rand(rng, shape, lo=-2, hi=6)
    w, b = (rand(rng, normalized), rand(rng, normalized)) if affine else (None, None)
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    compare(F.layer_norm(ox, normalized, ow, ob, eps=1e-5), TF.layer_norm(tx, normalized, tw, tb, eps=1e-5),
            **NORM_TOL)


@pytest.mark.parametrize("affine", [False, True])
@pytest.mark.parametrize("shape,groups", [((2, 6, 4), 3), ((2, 6, 3, 3), 2), ((1, 4, 5), 4), ((3, 4), 1),
                                          ((2, 8, 2, 2, 2), 4)])
def test_group_norm(rng, affine, shape, groups):
    c = shape[1]
    x = rand(rng, shape, lo=-2, hi=3)
    w, b = (rand(rng, (c,)), rand(rng, (c,))) if affine else (None, None)
    (ox, ow, ob), (tx, tw, tb) = both(x, w, b)
    compare(F.group_norm(ox, groups, ow, ob), TF.group_norm(tx, groups, tw, tb), **NORM_TOL)


# ---- attention

def torch_sdpa(q, k, v, mask=None, is_causal=False, scale=None):
    """PyTorch 2's scaled_dot_product_attention in torch 1.13 ops (1.13 has no public one)."""
    scale = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
    s = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        L, S = q.shape[-2], k.shape[-2]
        s = s.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    elif mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, -1) @ v


@pytest.mark.parametrize("mask", ["none", "bool", "float", "causal"])
@pytest.mark.parametrize("shapes", [((5, 4), (6, 4), (6, 3)), ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)),
                                    ((2, 1, 4, 4), (2, 3, 4, 4), (2, 3, 4, 2)), ((3, 6, 5), (3, 6, 5), (3, 6, 7))])
@pytest.mark.parametrize("scale", [None, 0.3])
def test_scaled_dot_product_attention(rng, mask, shapes, scale):
    qs, ks, vs = shapes
    q, k, v = rand(rng, qs), rand(rng, ks), rand(rng, vs)
    L, S = qs[-2], ks[-2]
    m = None
    if mask == "bool":
        m = rng.random((L, S)) < 0.7
        m[:, 0] = True  # no row fully masked
    elif mask == "float":
        m = rand(rng, (L, S))
    (oq, ok, ov), (tq, tk, tv) = both(q, k, v)
    om, tm = (None, None) if m is None else (Tensor(m), torch.from_numpy(m))
    causal = mask == "causal"
    got = F.scaled_dot_product_attention(oq, ok, ov, attn_mask=om, is_causal=causal, scale=scale)
    compare(got, torch_sdpa(tq, tk, tv, tm, causal, scale), rtol=1e-4, atol=1e-5)


# ---- interpolate

NEAREST = [((1, 2, 5), dict(size=9)), ((1, 2, 5), dict(size=2)), ((1, 2, 4), dict(scale_factor=2)),
           ((2, 1, 7), dict(scale_factor=1.7)), ((1, 2, 4, 6), dict(size=(7, 3))), ((1, 1, 14, 3), dict(size=(20, 6))),
           ((2, 2, 5, 5), dict(scale_factor=0.5)), ((1, 2, 3, 4), dict(scale_factor=(2.5, 1.5))),
           ((1, 1, 6, 4), dict(size=(6, 8))), ((1, 1, 3, 4, 5), dict(size=(4, 2, 7))),
           ((1, 1, 7, 10), dict(scale_factor=1 / 3)), ((1, 2, 10, 10), dict(size=(7, 7)))]


@pytest.mark.parametrize("shape,kw", NEAREST)
def test_interpolate_nearest(rng, shape, kw):
    x = rand(rng, shape)
    (ox,), (tx,) = both(x)
    compare(F.interpolate(ox, mode="nearest", **kw), TF.interpolate(tx, mode="nearest", **kw), rtol=0, atol=0)


LINEAR = [("linear", (1, 2, 5), dict(size=9)), ("linear", (2, 1, 8), dict(size=3)), ("linear", (1, 2, 4), dict(scale_factor=2.5)),
          ("linear", (1, 1, 1), dict(size=4)), ("bilinear", (1, 2, 4, 5), dict(size=(7, 3))),
          ("bilinear", (2, 1, 6, 6), dict(scale_factor=0.5)), ("bilinear", (1, 1, 3, 4), dict(scale_factor=(1.5, 2.25))),
          ("bilinear", (1, 2, 5, 3), dict(size=(5, 8))), ("trilinear", (1, 1, 3, 4, 2), dict(size=(5, 2, 3)))]


@pytest.mark.parametrize("align", [None, False, True])
@pytest.mark.parametrize("mode,shape,kw", LINEAR)
def test_interpolate_linear(rng, align, mode, shape, kw):
    x = rand(rng, shape)
    (ox,), (tx,) = both(x)
    compare(F.interpolate(ox, mode=mode, align_corners=align, **kw),
            TF.interpolate(tx, mode=mode, align_corners=align, **kw), rtol=1e-5, atol=1e-6)


def test_interpolate_nearest_uint8_and_recompute(rng):
    x = rng.integers(0, 255, size=(1, 2, 5, 7)).astype(np.uint8)
    (ox,), (tx,) = both(x)
    compare(F.interpolate(ox, size=(8, 4)), TF.interpolate(tx, size=(8, 4)))
    y = rand(rng, (1, 1, 7, 5))
    (oy,), (ty,) = both(y)
    compare(F.interpolate(oy, scale_factor=1.7, recompute_scale_factor=True),
            TF.interpolate(ty, scale_factor=1.7, recompute_scale_factor=True))


# ---- errors: what PyTorch rejects, onegrad rejects with a clear message

def _t(*shape, dt=np.float32):
    return np.ones(shape, dt)


ERRORS = [
    ("conv input rank", lambda f, T: f.conv2d(T(_t(2, 3)), T(_t(4, 3, 3, 3))),
     ShapeError, r"conv2d: expected a 3-D \(unbatched\) or 4-D \(batched\) input, got shape \(2, 3\)"),
    ("conv channels", lambda f, T: f.conv2d(T(_t(1, 5, 8, 8)), T(_t(4, 3, 3, 3))),
     ShapeError, r"conv2d: given groups=1 and weight \(4, 3, 3, 3\), the input must have 3 channels"),
    ("conv groups channels", lambda f, T: f.conv2d(T(_t(1, 4, 8, 8)), T(_t(4, 3, 3, 3)), groups=2),
     ShapeError, r"the input must have 6 channels \(groups \* weight.shape\[1\]\)"),
    ("conv groups cout", lambda f, T: f.conv2d(T(_t(1, 4, 8, 8)), T(_t(3, 2, 3, 3)), groups=2),
     ShapeError, r"conv2d: given groups=2, weight \(3, 2, 3, 3\) must have a multiple of 2 output channels"),
    ("conv kernel too big", lambda f, T: f.conv2d(T(_t(1, 1, 2, 2)), T(_t(1, 1, 3, 3))),
     ShapeError, r"conv2d: the padded input's spatial size \(2, 2\) is smaller than the kernel \(3, 3\)"),
    ("conv dilated kernel too big", lambda f, T: f.conv1d(T(_t(1, 1, 5)), T(_t(1, 1, 3)), dilation=3),
     ShapeError, r"conv1d: the padded input's spatial size \(5,\) is smaller than the kernel \(7,\)"),
    ("conv bias", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), T(_t(5))),
     ShapeError, r"conv2d: bias must have shape \(4,\), got \(5,\)"),
    ("conv stride 0", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), stride=0),
     ShapeError, r"conv2d: stride must be >= 1, got \(0, 0\)"),
    ("conv negative padding", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), padding=-1),
     ShapeError, r"conv2d: padding must be >= 0"),
    ("conv same strided", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), stride=2, padding="same"),
     ShapeError, r"padding='same' is not supported for strided convolutions"),
    ("conv bad padding string", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), padding="full"),
     ShapeError, r"conv2d: padding must be 'same', 'valid' or ints, got 'full'"),
    ("conv stride length", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3)), stride=(1, 2, 3)),
     ShapeError, r"conv2d: stride must be one int or 2 ints, got \(1, 2, 3\)"),
    ("conv dtype", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5)), T(_t(4, 3, 3, 3, dt=np.float64))),
     DTypeError, r"conv2d: weight has dtype float64 but input has float32"),
    ("conv int input", lambda f, T: f.conv2d(T(_t(1, 3, 5, 5, dt=np.int32)), T(_t(4, 3, 3, 3, dt=np.int32))),
     DTypeError, r"conv2d: input must be a float tensor, got int32"),
    ("conv_transpose channels", lambda f, T: f.conv_transpose2d(T(_t(1, 5, 4, 4)), T(_t(4, 3, 3, 3))),
     ShapeError, r"conv_transpose2d: weight \(4, 3, 3, 3\) expects an input with 4 channels"),
    ("conv_transpose output_padding", lambda f, T: f.conv_transpose2d(T(_t(1, 4, 4, 4)), T(_t(4, 3, 3, 3)), output_padding=1),
     ShapeError, r"conv_transpose2d: output_padding \(1, 1\) must be smaller than either stride \(1, 1\) or dilation"),
    ("conv_transpose output size", lambda f, T: f.conv_transpose2d(T(_t(1, 4, 2, 2)), T(_t(4, 3, 3, 3)), stride=2, padding=(1, 4)),
     ShapeError, r"conv_transpose2d: the output size \(3, -3\) is not positive \(input \(1, 4, 2, 2\), kernel_size \(3, 3\)"),
    ("max_pool rank", lambda f, T: f.max_pool2d(T(_t(4, 4)), 2),
     ShapeError, r"max_pool2d: expected a 3-D \(unbatched\) or 4-D \(batched\) input, got shape \(4, 4\)"),
    ("max_pool padding", lambda f, T: f.max_pool2d(T(_t(1, 1, 6, 6)), 3, padding=2),
     ShapeError, r"max_pool2d: padding \(2, 2\) must be at most half of kernel_size \(3, 3\)"),
    ("max_pool too small", lambda f, T: f.max_pool2d(T(_t(1, 1, 2, 2)), 3),
     ShapeError, r"max_pool2d: input \(1, 1, 2, 2\) gives output size \(0 x 0\)"),
    ("avg_pool padding", lambda f, T: f.avg_pool2d(T(_t(1, 1, 6, 6)), 2, padding=2),
     ShapeError, r"avg_pool2d: padding \(2, 2\) must be at most half of kernel_size \(2, 2\)"),
    ("adaptive rank", lambda f, T: f.adaptive_avg_pool2d(T(_t(5)), 2),
     ShapeError, r"adaptive_avg_pool2d: expected a 3-D \(unbatched\) or 4-D \(batched\) input"),
    ("batch_norm running shape", lambda f, T: f.batch_norm(T(_t(2, 3, 4)), T(_t(4)), T(_t(3))),
     ShapeError, r"batch_norm: running_mean must have shape \(3,\), got \(4,\)"),
    ("batch_norm one value", lambda f, T: f.batch_norm(T(_t(1, 3)), None, None, training=True),
     ShapeError, r"batch_norm: expected more than 1 value per channel when training"),
    ("layer_norm shape", lambda f, T: f.layer_norm(T(_t(2, 3)), (4,)),
     ShapeError, r"layer_norm: normalized_shape \(4,\) must be the last dims of the input, got input of shape \(2, 3\)"),
    ("layer_norm weight", lambda f, T: f.layer_norm(T(_t(2, 3)), (3,), T(_t(2))),
     ShapeError, r"layer_norm: weight must have shape \(3,\), got \(2,\)"),
    ("group_norm groups", lambda f, T: f.group_norm(T(_t(2, 6, 4)), 4),
     ShapeError, r"group_norm: the number of channels 6 of input \(2, 6, 4\) must be divisible by num_groups=4"),
    ("sdpa last dim", lambda f, T: f_sdpa(f, T, _t(2, 4, 8), _t(2, 5, 7), _t(2, 5, 3)),
     ShapeError, r"scaled_dot_product_attention: query \(2, 4, 8\) and key \(2, 5, 7\) must have the same last dim"),
    ("sdpa seq len", lambda f, T: f_sdpa(f, T, _t(2, 4, 8), _t(2, 5, 8), _t(2, 6, 3)),
     ShapeError, r"key \(2, 5, 8\) and value \(2, 6, 3\) must have the same sequence length"),
    ("interpolate linear rank", lambda f, T: f.interpolate(T(_t(1, 1, 4, 4)), size=3, mode="linear"),
     ShapeError, r"interpolate: mode 'linear' needs a 3-D input, got shape \(1, 1, 4, 4\)"),
    ("interpolate bilinear rank", lambda f, T: f.interpolate(T(_t(1, 1, 4)), size=3, mode="bilinear"),
     ShapeError, r"interpolate: mode 'bilinear' needs a 4-D input, got shape \(1, 1, 4\)"),
    ("interpolate both", lambda f, T: f.interpolate(T(_t(1, 1, 4)), size=3, scale_factor=2.0),
     ShapeError, r"interpolate: give exactly one of size and scale_factor"),
    ("interpolate align nearest", lambda f, T: f.interpolate(T(_t(1, 1, 4)), size=3, align_corners=True),
     ShapeError, r"interpolate: align_corners can only be set with the interpolating modes"),
    ("interpolate size length", lambda f, T: f.interpolate(T(_t(1, 1, 4, 4)), size=(2, 3, 4)),
     ShapeError, r"interpolate: size \(2, 3, 4\) must be one int or 2 ints"),
    ("interpolate zero size", lambda f, T: f.interpolate(T(_t(1, 1, 4, 4)), scale_factor=0.1),
     ShapeError, r"interpolate: input and output sizes must be greater than 0"),
]


def f_sdpa(f, T, q, k, v):
    if f is TF:  # torch 1.13: the math of PyTorch 2's function
        return torch_sdpa(T(q), T(k), T(v))
    return f.scaled_dot_product_attention(T(q), T(k), T(v))


# torch 1.13 accepts integer convolutions on the CPU; onegrad takes floats only (docs/tensor.md).
TORCH_ACCEPTS = {"conv int input"}


@pytest.mark.parametrize("name,call,err,match", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name, call, err, match):
    if name not in TORCH_ACCEPTS:
        with pytest.raises(Exception):
            call(TF, lambda a: torch.from_numpy(a))
    with pytest.raises(err, match=match):
        call(F, Tensor)


def test_tensor_methods_exist():
    x = Tensor(np.ones((1, 1, 4, 4), np.float32))
    for name in ["conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d",
                 "batch_norm", "layer_norm", "group_norm", "scaled_dot_product_attention", "interpolate"]:
        assert callable(getattr(x, name))
    assert x.max_pool2d(2).shape == (1, 1, 2, 2)
