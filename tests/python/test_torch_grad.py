"""Gradients against torch.autograd (docs/autograd.md).

Each case builds the same function of random leaves in onegrad and torch 1.13, sends a random
upstream gradient back through it (backward(gradient)) and compares every leaf's .grad: float64 to
1e-9, float32 to atol 1e-4 / rtol 1e-3. Inputs come from the `rng` fixture (per-run seed)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import onegrad
import onegrad.nn.functional as F
from onegrad import Tensor, dtypes

torch.set_num_threads(1)
TOL = {np.float64: (1e-9, 1e-9), np.float32: (1e-3, 1e-4)}


def leaves(arrays, dt):
    og = [Tensor(a.astype(dt), requires_grad=True) for a in arrays]
    th = [torch.tensor(a.astype(dt), requires_grad=True) for a in arrays]
    return og, th


def check_grad(rng, og_fn, th_fn, arrays, dt=np.float64, tol=None):
    og, th = leaves(arrays, dt)
    want = th_fn(*th)
    got = og_fn(*og)
    assert got.shape == tuple(want.shape)
    dy = rng.standard_normal(want.shape).astype(dt)
    want.backward(torch.tensor(dy))
    got.backward(Tensor(dy))
    rtol, atol = tol or TOL[dt]
    np.testing.assert_allclose(got.numpy(), want.detach().numpy(), rtol=rtol, atol=atol)
    for i, (o, t) in enumerate(zip(og, th)):
        if t.grad is None:
            assert o.grad is None or np.all(o.grad.numpy() == 0), f"leaf {i}: torch has no gradient"
            continue
        assert o.grad is not None, f"leaf {i}: no gradient"
        assert o.grad.dtype == o.dtype and o.grad.shape == o.shape
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol, err_msg=f"leaf {i}")


def method(name, *args, **kw):
    return (lambda x: getattr(x, name)(*args, **kw)), (lambda x: getattr(x, name)(*args, **kw))


# ---- elementwise unary: (onegrad, torch, domain)
UNARY = {
    "exp": (*method("exp"), (-3, 3)), "log": (*method("log"), (0.1, 4)), "exp2": (*method("exp2"), (-3, 3)),
    "log2": (*method("log2"), (0.1, 4)), "sin": (*method("sin"), (-6, 6)), "cos": (*method("cos"), (-6, 6)),
    "tan": (*method("tan"), (-1.2, 1.2)), "sqrt": (*method("sqrt"), (0.1, 4)), "rsqrt": (*method("rsqrt"), (0.1, 4)),
    "abs": (*method("abs"), (-3, 3)), "neg": (*method("neg"), (-3, 3)), "reciprocal": (*method("reciprocal"), (0.2, 3)),
    "sigmoid": (*method("sigmoid"), (-6, 6)), "tanh": (*method("tanh"), (-4, 4)), "relu": (*method("relu"), (-3, 3)),
    "square": (*method("square"), (-3, 3)), "erf": (*method("erf"), (-3, 3)), "log1p": (*method("log1p"), (-0.5, 3)),
    "expm1": (*method("expm1"), (-3, 3)), "silu": (lambda x: x.silu(), TF.silu, (-5, 5)),
    "gelu": (lambda x: x.gelu(), TF.gelu, (-4, 4)),
    "gelu_tanh": (lambda x: x.gelu(approximate="tanh"), lambda x: TF.gelu(x, approximate="tanh"), (-4, 4)),
    "softplus": (lambda x: x.softplus(), TF.softplus, (-5, 5)), "mish": (lambda x: x.mish(), TF.mish, (-5, 5)),
    "elu": (lambda x: x.elu(), TF.elu, (-3, 3)), "leaky_relu": (lambda x: x.leaky_relu(0.1), lambda x: TF.leaky_relu(x, 0.1), (-3, 3)),
    "hardswish": (lambda x: x.hardswish(), TF.hardswish, (-5, 5)),
    "hardsigmoid": (lambda x: x.hardsigmoid(), TF.hardsigmoid, (-5, 5)),
    "pow_scalar": (lambda x: x ** 2.5, lambda x: x ** 2.5, (0.1, 3)),
    "pow_int": (lambda x: x ** 3, lambda x: x ** 3, (-2, 2)),
    "rpow": (lambda x: 2.0 ** x, lambda x: 2.0 ** x, (-2, 2)),
    "clamp": (lambda x: x.clamp(-0.5, 0.7), lambda x: x.clamp(-0.5, 0.7), (-2, 2)),
    "scalar_chain": (lambda x: (x * 3 - 1) / 2 + 0.5, lambda x: (x * 3 - 1) / 2 + 0.5, (-2, 2)),
    "rdiv": (lambda x: 1.5 / x, lambda x: 1.5 / x, (0.3, 3)),
    "cast_roundtrip": (lambda x: x.cast(dtypes.float32).cast(dtypes.float64) * x,
                       lambda x: x.float().double() * x, (-2, 2)),
}


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("shape", [(5,), (3, 4)], ids=str)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(rng, name, shape, dt):
    og, th, (lo, hi) = UNARY[name]
    a = rng.uniform(lo, hi, size=shape)
    if dt == np.float32 and name == "cast_roundtrip":
        pytest.skip("float64 only")
    # torch's float64 hardsigmoid backward multiplies by 1/6 rounded to float32
    tol = (1e-7, 1e-9) if dt == np.float64 and name.startswith("hard") else None
    check_grad(rng, og, th, [a], dt, tol)


# ---- binary (broadcasting included)
BINARY = {
    "add": (lambda a, b: a + b, (-2, 2), (-2, 2)), "sub": (lambda a, b: a - b, (-2, 2), (-2, 2)),
    "mul": (lambda a, b: a * b, (-2, 2), (-2, 2)), "div": (lambda a, b: a / b, (-2, 2), (0.5, 2)),
    "pow": (lambda a, b: a ** b, (0.2, 2), (-1.5, 1.5)),
    "maximum": (lambda a, b: a.maximum(b), (-2, 2), (-2, 2)), "minimum": (lambda a, b: a.minimum(b), (-2, 2), (-2, 2)),
    "where": (lambda a, b: (a > b).where(a, b * 2) if isinstance(a, Tensor) else torch.where(a > b, a, b * 2),
              (-2, 2), (-2, 2)),
    "matmul_like": (lambda a, b: (a * b).sum(-1), (-2, 2), (-2, 2)),
}
SHAPE_PAIRS = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 4), (3, 1)), ((), (3,))]


@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary(rng, name, shapes):
    fn, da, db = BINARY[name]
    a, b = rng.uniform(*da, size=shapes[0]), rng.uniform(*db, size=shapes[1])
    check_grad(rng, fn, fn, [a, b])


def test_maximum_ties_split_evenly(rng):
    a = np.array([1.0, 2.0, 3.0])
    check_grad(rng, lambda x, y: x.maximum(y), torch.maximum, [a, a.copy()])


def test_same_leaf_twice_accumulates(rng):
    a = rng.standard_normal((3, 3))
    check_grad(rng, lambda x: x * x + x.exp() * x, lambda x: x * x + x.exp() * x, [a])


# ---- reductions
REDUCE = {
    "sum": (lambda x: x.sum(1), lambda x: x.sum(1)), "sum_all": (lambda x: x.sum(), lambda x: x.sum()),
    "mean": (lambda x: x.mean((0, 2)), lambda x: x.mean((0, 2))),
    "max": (lambda x: x.max(1).values, lambda x: x.amax(1)), "min": (lambda x: x.min(-1).values, lambda x: x.amin(-1)),
    "prod": (lambda x: x.prod(1), lambda x: x.prod(1)),
    "var": (lambda x: x.var(1), lambda x: x.var(1)), "std": (lambda x: x.std(2, keepdim=True), lambda x: x.std(2, keepdim=True)),
    "softmax": (lambda x: x.softmax(1), lambda x: x.softmax(1)),
    "log_softmax": (lambda x: x.log_softmax(-1), lambda x: x.log_softmax(-1)),
    "logsumexp": (lambda x: x.logsumexp(1), lambda x: x.logsumexp(1)),
    "cumsum": (lambda x: x.cumsum(1), lambda x: x.cumsum(1)), "cumprod": (lambda x: x.cumprod(2), lambda x: x.cumprod(2)),
    "norm_like": (lambda x: (x * x).sum(-1).sqrt(), lambda x: (x * x).sum(-1).sqrt()),
}


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("name", list(REDUCE))
def test_reduce(rng, name, dt):
    og, th = REDUCE[name]
    a = rng.uniform(0.5, 1.5, size=(2, 3, 4)) * rng.choice([-1, 1], size=(2, 3, 4))
    check_grad(rng, og, th, [a], dt)


@pytest.mark.parametrize("name", ["max", "min"])
def test_reduce_max_ties_split_evenly(rng, name):
    # torch's amax/amin share the gradient evenly among equal extremes, as onegrad
    a = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]])
    og, th = REDUCE[name]
    check_grad(rng, og, th, [a])


def test_prod_with_zeros(rng):
    a = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 5.0]])
    check_grad(rng, lambda x: x.prod(1), lambda x: x.prod(1), [a])


# ---- movement and shape ops
MOVEMENT = {
    "reshape": (lambda x: x.reshape(4, 6), lambda x: x.reshape(4, 6)),
    "permute": (lambda x: x.permute(2, 0, 1), lambda x: x.permute(2, 0, 1)),
    "transpose": (lambda x: x.transpose(0, 2), lambda x: x.transpose(0, 2)),
    "expand": (lambda x: x[:, :1].expand(2, 5, 4), lambda x: x[:, :1].expand(2, 5, 4)),
    "slice_step": (lambda x: x[:, ::2, 1:3], lambda x: x[:, ::2, 1:3]),
    "int_index": (lambda x: x[1, -1], lambda x: x[1, -1]),
    "flip": (lambda x: x.flip(1), lambda x: x.flip(1)),
    "pad": (lambda x: F.pad(x, (1, 2, 0, 1)), lambda x: TF.pad(x, (1, 2, 0, 1))),
    "pad_reflect": (lambda x: F.pad(x, (1, 1), mode="reflect"), lambda x: TF.pad(x, (1, 1), mode="reflect")),
    "cat": (lambda x: Tensor.cat(x, x * 2, dim=1), lambda x: torch.cat([x, x * 2], 1)),
    "stack": (lambda x: Tensor.stack(x, x.exp(), dim=0), lambda x: torch.stack([x, x.exp()], 0)),
    "repeat": (lambda x: x.repeat(2, 1, 2), lambda x: x.repeat(2, 1, 2)),
    "roll": (lambda x: x.roll(1, 2), lambda x: x.roll(1, 2)),
    "squeeze_unsqueeze": (lambda x: x.unsqueeze(1).squeeze(1), lambda x: x.unsqueeze(1).squeeze(1)),
    "flatten": (lambda x: x.flatten(1), lambda x: x.flatten(1)),
    "tril": (lambda x: x.tril(), lambda x: x.tril()),
    "split": (lambda x: x.split(2, 2)[1], lambda x: x.split(2, 2)[1]),
    "contiguous": (lambda x: x.permute(1, 0, 2).contiguous(), lambda x: x.permute(1, 0, 2).contiguous()),
}


@pytest.mark.parametrize("name", list(MOVEMENT))
def test_movement(rng, name):
    og, th = MOVEMENT[name]
    check_grad(rng, og, th, [rng.standard_normal((2, 3, 4))])


def test_advanced_index_gather_scatter(rng):
    a = rng.standard_normal((4, 5))
    idx = rng.integers(0, 4, size=(3,))
    gidx = rng.integers(0, 5, size=(4, 2))
    check_grad(rng, lambda x: x[Tensor(idx)], lambda x: x[torch.tensor(idx)], [a])
    check_grad(rng, lambda x: x.gather(1, Tensor(gidx)), lambda x: x.gather(1, torch.tensor(gidx)), [a])
    check_grad(rng, lambda x: x.index_select(0, Tensor(idx)), lambda x: x.index_select(0, torch.tensor(idx)), [a])
    mask = a > 0
    check_grad(rng, lambda x: x.masked_fill(Tensor(mask), 0.0), lambda x: x.masked_fill(torch.tensor(mask), 0.0), [a])
    src = rng.standard_normal((2, 5))
    sidx = rng.integers(0, 4, size=(2, 5))
    check_grad(rng, lambda x, s: x.scatter_add(0, Tensor(sidx), s),
               lambda x, s: x.scatter_add(0, torch.tensor(sidx), s), [a, src])


# ---- linear algebra
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (4, 2)), ((4,), (4, 3)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((4,), (4,))], ids=str)
def test_matmul(rng, shapes):
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    check_grad(rng, lambda x, y: x @ y, lambda x, y: x @ y, [a, b])


def test_einsum(rng):
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
    check_grad(rng, lambda x, y: onegrad.einsum("bij,bjk->bik", x, y),
               lambda x, y: torch.einsum("bij,bjk->bik", x, y), [a, b])


# ---- neural-net ops
CONV = [dict(stride=1, padding=0), dict(stride=2, padding=1), dict(stride=1, padding=1, dilation=2),
        dict(stride=1, padding=1, groups=2)]


@pytest.mark.parametrize("kw", CONV, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_conv2d(rng, kw):
    g = kw.get("groups", 1)
    x, w, b = rng.standard_normal((2, 4, 7, 6)), rng.standard_normal((6, 4 // g, 3, 3)), rng.standard_normal(6)
    check_grad(rng, lambda x, w, b: x.conv2d(w, b, **kw), lambda x, w, b: TF.conv2d(x, w, b, **kw), [x, w, b])


def test_conv1d_and_transpose(rng):
    x, w = rng.standard_normal((2, 3, 9)), rng.standard_normal((4, 3, 3))
    check_grad(rng, lambda x, w: F.conv1d(x, w, stride=2, padding=1), lambda x, w: TF.conv1d(x, w, stride=2, padding=1),
               [x, w])
    x, w = rng.standard_normal((1, 4, 5, 5)), rng.standard_normal((4, 3, 3, 3))
    check_grad(rng, lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1),
               lambda x, w: TF.conv_transpose2d(x, w, stride=2, padding=1), [x, w])


def test_conv2d_float32(rng):
    x, w = rng.standard_normal((2, 3, 8, 8)), rng.standard_normal((4, 3, 3, 3))
    check_grad(rng, lambda x, w: x.conv2d(w, padding=1), lambda x, w: TF.conv2d(x, w, padding=1), [x, w], np.float32)


POOL = {
    "max_pool2d": (lambda x: x.max_pool2d(2), lambda x: TF.max_pool2d(x, 2)),
    "max_pool2d_s1": (lambda x: x.max_pool2d(3, stride=1, padding=1), lambda x: TF.max_pool2d(x, 3, stride=1, padding=1)),
    "avg_pool2d": (lambda x: x.avg_pool2d(2), lambda x: TF.avg_pool2d(x, 2)),
    "avg_pool2d_pad": (lambda x: x.avg_pool2d(3, stride=2, padding=1, count_include_pad=False),
                       lambda x: TF.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)),
    "adaptive_avg": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), lambda x: TF.adaptive_avg_pool2d(x, (2, 3))),
    "interpolate_nearest": (lambda x: x.interpolate(scale_factor=2), lambda x: TF.interpolate(x, scale_factor=2)),
    "interpolate_bilinear": (lambda x: x.interpolate(size=(5, 7), mode="bilinear", align_corners=False),
                             lambda x: TF.interpolate(x, size=(5, 7), mode="bilinear", align_corners=False)),
}


@pytest.mark.parametrize("name", list(POOL))
def test_pool(rng, name):
    og, th = POOL[name]
    check_grad(rng, og, th, [rng.standard_normal((2, 3, 6, 6))])


def test_norms(rng):
    x, w, b = rng.standard_normal((4, 6, 3, 3)), rng.standard_normal(6), rng.standard_normal(6)
    check_grad(rng, lambda x: x.layer_norm((6, 3, 3)), lambda x: TF.layer_norm(x, (6, 3, 3)), [x])
    lw, lb = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    check_grad(rng, lambda x, w, b: x.layer_norm((3, 3), w, b), lambda x, w, b: TF.layer_norm(x, (3, 3), w, b), [x, lw, lb])
    check_grad(rng, lambda x, w, b: x.group_norm(3, w, b), lambda x, w, b: TF.group_norm(x, 3, w, b), [x, w, b])
    check_grad(rng, lambda x, w, b: x.batch_norm(None, None, w, b, training=True),
               lambda x, w, b: TF.batch_norm(x, None, None, w, b, training=True), [x, w, b])


@pytest.mark.parametrize("causal", [False, True])
def test_attention(rng, causal):
    q, k, v = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 5, 3)), rng.standard_normal((2, 5, 2))
    if causal:
        k, v = k[:, :4], v[:, :4]
    def reference(q, k, v):  # torch 1.13 has no scaled_dot_product_attention
        s = q @ k.transpose(-2, -1) / np.sqrt(q.shape[-1])
        if causal:
            s = s.masked_fill(~torch.ones(4, 4, dtype=torch.bool).tril(), float("-inf"))
        return s.softmax(-1) @ v
    check_grad(rng, lambda q, k, v: q.scaled_dot_product_attention(k, v, is_causal=causal), reference, [q, k, v])


LOSSES = ["cross_entropy", "cross_entropy_smooth", "nll", "mse", "l1", "bce", "bce_logits"]


@pytest.mark.parametrize("name", LOSSES)
def test_losses(rng, name):
    x = rng.standard_normal((6, 5))
    y = rng.integers(0, 5, size=6)
    p = rng.uniform(0.1, 0.9, size=(6, 5))
    t = rng.uniform(0, 1, size=(6, 5))
    ty = torch.tensor(y)
    cases = {
        "cross_entropy": (lambda x: x.cross_entropy(Tensor(y)), lambda x: TF.cross_entropy(x, ty), [x]),
        "cross_entropy_smooth": (lambda x: x.cross_entropy(Tensor(y), label_smoothing=0.1),
                                 lambda x: TF.cross_entropy(x, ty, label_smoothing=0.1), [x]),
        "nll": (lambda x: x.log_softmax(-1).nll_loss(Tensor(y)), lambda x: TF.nll_loss(x.log_softmax(-1), ty), [x]),
        "mse": (lambda x, t: x.mse_loss(t), lambda x, t: TF.mse_loss(x, t), [x, t]),
        "l1": (lambda x, t: F.l1_loss(x, t), lambda x, t: TF.l1_loss(x, t), [x, t]),
        "bce": (lambda p, t: p.binary_cross_entropy(t), lambda p, t: TF.binary_cross_entropy(p, t), [p, t]),
        "bce_logits": (lambda x, t: x.binary_cross_entropy_with_logits(t),
                       lambda x, t: TF.binary_cross_entropy_with_logits(x, t), [x, t]),
    }
    og, th, arrays = cases[name]
    check_grad(rng, og, th, arrays)


def test_mlp_float32(rng):
    x, w1, b1, w2 = (rng.standard_normal(s) for s in [(8, 6), (6, 16), (16,), (16, 3)])
    y = rng.integers(0, 3, size=8)
    check_grad(rng, lambda x, w1, b1, w2: ((x @ w1 + b1).relu() @ w2).cross_entropy(Tensor(y)),
               lambda x, w1, b1, w2: TF.cross_entropy((x @ w1 + b1).relu() @ w2, torch.tensor(y)),
               [x, w1, b1, w2], np.float32)


# ---- the API

def test_accumulates_across_backward_calls(rng):
    a = rng.standard_normal(4)
    x = Tensor(a, requires_grad=True)
    (x * 2).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + 2 * a, rtol=1e-12)
    x.grad = None
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(4, 3.0))


def test_detach_and_no_grad(rng):
    a = rng.standard_normal(3)
    x = Tensor(a, requires_grad=True)
    ((x * 2).detach() * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * a, rtol=1e-12)
    with onegrad.no_grad():
        y = x * 5
    assert not y.requires_grad and x.requires_grad
    x.grad = None
    (y * x).sum().backward()  # y is a constant here
    np.testing.assert_allclose(x.grad.numpy(), 5 * a, rtol=1e-12)

    @onegrad.no_grad()
    def f(t):
        return t * 2
    assert not f(x).requires_grad
    assert (x * 2).requires_grad
    assert onegrad.autograd.is_grad_enabled()


def test_requires_grad_propagates_and_leaves():
    x = Tensor([1.0, 2.0])
    assert not x.requires_grad and x.grad is None
    w = Tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    assert y.requires_grad and y.grad is None
    x.requires_grad = True
    assert x.requires_grad


def test_copies_share_the_grad():
    w = Tensor([1.0, 2.0], requires_grad=True)
    same = Tensor(w)  # another handle on the same tensor
    (w * w).sum().backward()
    np.testing.assert_allclose(same.grad.numpy(), [2.0, 4.0])


def test_graph_built_before_realize_still_reaches_the_leaf():
    w = Tensor.ones(3) * 2
    w.requires_grad_()  # realizes w
    y = (w * w).sum()
    y.backward()
    np.testing.assert_allclose(w.grad.numpy(), [4.0, 4.0, 4.0])


def test_leaf_constant_is_its_own_node():
    # equal constants are one node in the graph; a leaf is realized so it stays apart from them
    w = Tensor(2.0, requires_grad=True)
    y = (Tensor(2.0) * 3 + w * w)
    y.backward()
    assert w.grad.item() == 4.0


def test_second_derivative():
    a = np.array([0.3, -1.2, 2.0])
    x = Tensor(a, requires_grad=True)
    (g,) = onegrad.autograd.grad((x ** 3 + x.sin()).sum(), x)
    (h,) = onegrad.autograd.grad(g.sum(), x)
    tx = torch.tensor(a, requires_grad=True)
    (tg,) = torch.autograd.grad((tx ** 3 + tx.sin()).sum(), tx, create_graph=True)
    (th,) = torch.autograd.grad(tg.sum(), tx)
    np.testing.assert_allclose(g.numpy(), tg.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(h.numpy(), th.numpy(), rtol=1e-12)
    (z,) = onegrad.autograd.grad((x * 2).sum(), Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(z.numpy(), [0, 0, 0])  # not a function of it: zeros


def test_errors():
    x = Tensor([[1.0, 2.0]], requires_grad=True)
    with pytest.raises(onegrad.ShapeError, match=r"backward: a gradient can be implied only for a scalar output; "
                                                 r"got shape \(1, 2\) \(pass gradient=\)"):
        (x * 2).backward()
    with pytest.raises(onegrad.ShapeError, match=r"backward: gradient of shape \(3,\) for a tensor of shape \(1, 2\)"):
        (x * 2).backward(Tensor([1.0, 2.0, 3.0]))
    with pytest.raises(onegrad.DTypeError, match="requires_grad_: only floating-point tensors can require "
                                                 "gradients, got int32"):
        Tensor([1, 2]).requires_grad_()
    with pytest.raises(ValueError, match=r"backward: the tensor does not require grad"):
        Tensor([1.0]).sum().backward()
    with pytest.raises(ValueError, match="requires_grad_: only leaves can stop requiring gradients"):
        (x * 2).requires_grad_(False)
    with pytest.raises(onegrad.ShapeError, match=r"set_grad: a gradient of shape \(2,\) for a tensor of shape \(1, 2\)"):
        x.grad = Tensor([1.0, 2.0])
    with pytest.raises(onegrad.DTypeError, match="backward: only floating-point tensors have gradients, got bool"):
        (x > 1).any().backward()


def test_reading_a_value_keeps_its_history():
    # loss.item() realizes the loss; backward afterwards still reaches the leaves (the realized
    # tensor keeps the graph it came from while it lives), and so does a realized intermediate
    w = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = (w * w).realize()
    loss = (h * 2).sum()
    assert loss.item() == 28.0
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), [4.0, 8.0, 12.0])
    assert w.grad.requires_grad is False  # .grad is a value


def test_backward_realize_with_shares_the_forward(rng):
    """backward(realize_with=[...]): an accuracy count over the loss's logits, realized in the
    backward's schedule, equals the count realized on its own and runs fewer kernels."""
    from onegrad import _C
    x_np, w_np = rng.standard_normal((8, 5)).astype(np.float32), rng.standard_normal((5, 3)).astype(np.float32)
    y_np = rng.integers(0, 3, 8)

    def step(together):
        w = Tensor(w_np, requires_grad=True)
        logits = (Tensor(x_np) @ w).relu()
        loss = logits.cross_entropy(Tensor(y_np))
        hits = logits.argmax(-1).eq(Tensor(y_np)).sum()
        before = _C.engine_stats()["kernels_run"]
        if together:
            loss.backward(realize_with=[hits])
        else:
            loss.backward()
            hits.realize()
        return hits.item(), w.grad.numpy(), _C.engine_stats()["kernels_run"] - before

    step(True), step(False)  # compile both
    hits_a, grad_a, runs_a = step(True)
    hits_b, grad_b, runs_b = step(False)
    tw = torch.tensor(w_np, requires_grad=True)
    tl = torch.relu(torch.from_numpy(x_np) @ tw)
    TF.cross_entropy(tl, torch.from_numpy(y_np)).backward()
    assert hits_a == hits_b == int((tl.argmax(-1) == torch.from_numpy(y_np)).sum())
    np.testing.assert_allclose(grad_a, tw.grad.numpy(), atol=1e-5)
    np.testing.assert_array_equal(grad_a, grad_b)
    assert runs_a < runs_b
    with pytest.raises(TypeError, match="realize_with takes Tensors"):
        Tensor(w_np, requires_grad=True).sum().backward(realize_with=[1])
