"""The gradient of scatter_reduce against torch 1.13 (all five reduces, include_self both ways, ties,
zeros in prod, 2-D along either axis, empty index), and in linear time: amax/amin/prod's gradients
are gathers and scatters of the forward result (src/tensor/scatter_gradient.cpp), whose kernels are
indexed loops without a reduction axis, and a 10^5-element backward of each reduce stays cheap."""

import re

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

torch.set_num_threads(1)

REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def grads(reduce, include_self, self_, index, src, dim=0, weight=None, dtype=np.float64):
    """(x.grad, src.grad) of (scatter_reduce * weight).sum() in onegrad and in torch."""
    self_, src = np.asarray(self_, dtype), np.asarray(src, dtype)
    index = np.asarray(index, np.int64)
    if weight is None:  # distinct weights: each place's gradient is told apart
        weight = np.arange(1, self_.size + 1, dtype=dtype).reshape(self_.shape)
    x, v = Tensor(self_, requires_grad=True), Tensor(src, requires_grad=True)
    (x.scatter_reduce(dim, Tensor(index), v, reduce, include_self=include_self) * Tensor(weight)).sum().backward()
    tx, tv = torch.tensor(self_, requires_grad=True), torch.tensor(src, requires_grad=True)
    (tx.scatter_reduce(dim, torch.tensor(index), tv, reduce, include_self=include_self)
     * torch.tensor(weight)).sum().backward()
    return (x.grad.numpy(), tx.grad.numpy()), (v.grad.numpy(), tv.grad.numpy())


def assert_grads(pairs, rtol=1e-6, atol=1e-7):
    for got, want in pairs:
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---- the cases torch's rules single out

@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("case", [
    ("amax", [3.0, 1.0], [0, 0], [3.0, 3.0]),        # self and two sources tie: a third each
    ("amax", [5.0, 1.0], [0, 0], [3.0, 3.0]),        # self wins alone, or the two sources tie
    ("amax", [3.0, 1.0], [0, 0, 0], [3.0, 2.0, 3.0]),
    ("amin", [2.0, 1.0], [0, 0, 1], [2.0, 2.0, 1.0]),
    ("amin", [-1.0, 4.0], [1, 1, 1], [4.0, 4.0, 5.0]),
    ("amax", [-np.inf, 2.0], [0, 0], [-np.inf, -np.inf]),  # ties at MAX's identity
    ("prod", [0.0, 2.0], [0, 0, 1], [2.0, 3.0, 4.0]),      # a zero self
    ("prod", [2.0, 2.0], [0, 0, 1], [0.0, 3.0, 4.0]),      # one zero source
    ("prod", [0.0, 2.0], [0, 0, 1], [0.0, 3.0, 4.0]),      # a zero self and a zero source
    ("prod", [2.0, 2.0], [0, 0, 1], [0.0, 0.0, 4.0]),      # two zero sources
    ("prod", [2.0, 2.0], [1, 0, 0], [0.0, -2.0, 0.5]),
    ("mean", [2.0, 2.0], [0, 0, 0], [0.0, 0.0, 4.0]),
    ("sum", [2.0, 2.0], [1, 1, 1], [0.0, 0.0, 4.0]),
], ids=lambda c: f"{c[0]}-{c[1]}-{c[3]}")
def test_ties_and_zeros_match_torch(case, include_self):
    reduce, self_, index, src = case
    assert_grads(grads(reduce, include_self, self_, index, src))


def test_a_tie_with_self_splits_evenly():
    # torch 1.13: every value equal to the result gets an equal share, self included
    (gx, _), (gv, _) = grads("amax", True, [3.0, 1.0], [0, 0], [3.0, 3.0], weight=np.ones(2))
    np.testing.assert_allclose(gx, [1 / 3, 1])
    np.testing.assert_allclose(gv, [1 / 3, 1 / 3])
    # without include_self torch still counts a tying self, though it gives it no share
    (gx, _), (gv, _) = grads("amax", False, [3.0, 1.0], [0, 0], [3.0, 3.0], weight=np.ones(2))
    np.testing.assert_allclose(gx, [0, 1])
    np.testing.assert_allclose(gv, [1 / 3, 1 / 3])


@pytest.mark.parametrize("include_self", [True, False])
def test_a_self_masked_to_minus_inf_is_not_a_tie(include_self):
    # self = where(mask, -inf, x) is an ordinary start: its ties are those of -inf, not of x
    x, v = Tensor(np.array([3.0, 1.0]), requires_grad=True), Tensor(np.array([3.0, 3.0]), requires_grad=True)
    tx, tv = torch.tensor([3.0, 1.0], dtype=torch.float64, requires_grad=True), torch.tensor([3.0, 3.0], dtype=torch.float64, requires_grad=True)
    mask = np.array([True, False])
    x.masked_fill(Tensor(mask), -np.inf).scatter_reduce(0, Tensor(np.array([0, 0])), v, "amax",
                                                         include_self=include_self).sum().backward()
    tx.masked_fill(torch.tensor(mask), -np.inf).scatter_reduce(0, torch.tensor([0, 0]), tv, "amax",
                                                               include_self=include_self).sum().backward()
    assert_grads([(x.grad.numpy(), tx.grad.numpy()), (v.grad.numpy(), tv.grad.numpy())])


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dim", [0, 1])
def test_2d_with_ties_and_zeros_matches_torch(reduce, include_self, dim):
    rng = np.random.default_rng(REDUCES.index(reduce) * 4 + dim * 2 + include_self)
    # few distinct values: many ties for amax/amin and several zeros per place for prod
    self_ = rng.integers(-2, 3, (5, 6)).astype(np.float64)
    src = rng.integers(-2, 3, (4, 4)).astype(np.float64)  # torch 1.13's backward wants src shaped as index
    index = rng.integers(0, self_.shape[dim], (4, 4))
    weight = rng.standard_normal((5, 6))
    assert_grads(grads(reduce, include_self, self_, index, src, dim=dim, weight=weight))


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_float32_matches_torch(reduce, include_self):
    rng = np.random.default_rng(20)
    self_ = rng.integers(-3, 4, (4, 7)).astype(np.float32)
    src = rng.standard_normal((4, 9)).astype(np.float32).round(0)  # ties, zeros and non-integers
    src[0, :3] = [0.5, -1.5, 2.25]
    index = rng.integers(0, 7, (4, 9))
    assert_grads(grads(reduce, include_self, self_, index, src, dim=1, dtype=np.float32), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_empty_index_passes_the_gradient_to_self(reduce, include_self):
    pairs = grads(reduce, include_self, [[1.0, 2.0], [3.0, 4.0]], np.zeros((0, 2)), np.ones((0, 2)))
    assert_grads(pairs)


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_empty_index_gives_src_an_empty_gradient(op):
    x, v = Tensor(np.ones((2, 2)), requires_grad=True), Tensor(np.ones((0, 2)), requires_grad=True)
    tx, tv = torch.ones(2, 2, dtype=torch.float64, requires_grad=True), torch.ones(0, 2, dtype=torch.float64, requires_grad=True)
    (getattr(x, op)(0, Tensor(np.zeros((0, 2), np.int64)), v) * 3).sum().backward()
    (getattr(tx, op)(0, torch.zeros(0, 2, dtype=torch.long), tv) * 3).sum().backward()
    assert_grads([(x.grad.numpy(), tx.grad.numpy()), (v.grad.numpy(), tv.grad.numpy())])


@pytest.mark.parametrize("reduce", REDUCES)
def test_src_beyond_the_index_gets_zero(reduce):
    # torch 1.13's backward raises for a src larger than the index: compare with torch on the part
    # of src the index covers; the rest is never read, so its gradient is 0
    rng = np.random.default_rng(24)
    self_, src = rng.integers(-2, 3, (4, 5)).astype(np.float64), rng.integers(-2, 3, (5, 6)).astype(np.float64)
    index = rng.integers(0, 4, (3, 4))
    x, v = Tensor(self_, requires_grad=True), Tensor(src, requires_grad=True)
    (x.scatter_reduce(0, Tensor(index), v, reduce) * Tensor(np.arange(20.0).reshape(4, 5))).sum().backward()
    (gx, tgx), (gv, tgv) = grads(reduce, True, self_, index, src[:3, :4], weight=np.arange(20.0).reshape(4, 5))
    np.testing.assert_allclose(x.grad.numpy(), tgx, rtol=1e-6, atol=1e-7)
    want = np.zeros_like(src)
    want[:3, :4] = tgv
    np.testing.assert_allclose(v.grad.numpy(), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("reduce", REDUCES)
def test_second_order_matches_torch(reduce):
    rng = np.random.default_rng(21)
    self_ = rng.integers(-2, 3, 6).astype(np.float64)
    src = rng.integers(-2, 3, 9).astype(np.float64)
    index = rng.integers(0, 6, 9)
    if reduce == "prod":  # torch refuses the second order where two zeros meet: one zero, at place 0
        src[src == 0] = 1.5
        src[0], index[0] = 0.0, 0
    w = rng.standard_normal(6)
    x, v = Tensor(self_, requires_grad=True), Tensor(src, requires_grad=True)
    tx, tv = torch.tensor(self_, requires_grad=True), torch.tensor(src, requires_grad=True)
    out = x.scatter_reduce(0, Tensor(index), v * v, reduce)
    (gv,) = onegrad.autograd.grad((out * Tensor(w)).sum(), v)  # a graph itself: grad of it works
    gv.sum().backward()
    tout = tx.scatter_reduce(0, torch.tensor(index), tv * tv, reduce)
    (tgv,) = torch.autograd.grad((tout * torch.tensor(w)).sum(), tv, create_graph=True)
    tgv.sum().backward()
    np.testing.assert_allclose(gv.numpy(), tgv.detach().numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(v.grad.numpy(), tv.grad.numpy(), rtol=1e-6, atol=1e-7)


# ---- linear time

FOR = re.compile(r"^(\s*)for \(\w+ \w+ = 0; \w+ < (\d+);")


def loop_work(source):
    """The most iterations any statement of a kernel's C source runs: the product of the bounds of
    the loops around it (a one-hot left unfolded nests a loop over K around one over D)."""
    stack, most = [], 0
    for line in source.splitlines():
        m = FOR.match(line)
        if not m:
            continue
        indent, bound = len(m.group(1)), int(m.group(2))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, bound))
        most = max(most, int(np.prod([b for _, b in stack])))
    return most


def test_loop_work_sees_nested_loops():
    nested = "  for (int64_t r0 = 0; r0 < 30; r0++) {\n    for (int64_t r1 = 0; r1 < 40; r1++) {\n"
    apart = "  for (int64_t r0 = 0; r0 < 30; r0++) {\n  }\n  for (int64_t r1 = 0; r1 < 40; r1++) {\n"
    assert loop_work(nested) == 1200 and loop_work(apart) == 40


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_gradients_are_indexed_loops(reduce, include_self):
    # every kernel of forward and backward together runs each statement at most a few times n
    # (index checks off: they reduce over the index)
    rng = np.random.default_rng(22)
    n = 3000
    xa = rng.integers(-3, 4, n).astype(np.float32)
    idx = Tensor(rng.integers(0, n // 3, n))
    with onegrad.settings.override(CHECK_INDEX=0):
        for wrt in ("self", "src"):
            x, v = Tensor(xa, requires_grad=True), Tensor(xa[::-1].copy(), requires_grad=True)
            out = (x * 2).scatter_reduce(0, idx, v * 3, reduce, include_self=include_self)
            g = onegrad.autograd.grad((out * out).sum(), x if wrt == "self" else v)[0]
            kernels = onegrad.kernels(g)
            assert kernels
            for k in kernels:
                assert "R" not in k.shape and loop_work(k.source()) <= 2 * n, (wrt, k.shape, k.source())


@pytest.mark.parametrize("reduce", REDUCES)
def test_large_backward_matches_torch(reduce):
    # 10^5 elements, about ten per hit place and many ties: quadratic work would take minutes
    rng = np.random.default_rng(23)
    n = 10**5
    self_ = rng.integers(-4, 5, n).astype(np.float32)
    src = rng.integers(-4, 5, n).astype(np.float32)
    if reduce == "prod":  # keep products finite: values near 1, a few zeros
        self_, src = 1 + self_ / 64, 1 + src / 64
        src[rng.integers(0, n, 50)] = 0
    index = rng.integers(0, n // 10, n)
    weight = rng.standard_normal(n).astype(np.float32)
    for include_self in (True, False):
        assert_grads(grads(reduce, include_self, self_, index, src, weight=weight, dtype=np.float32),
                     rtol=1e-4, atol=1e-5)
