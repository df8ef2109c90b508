"""In-place ops against torch 1.13 (docs/tensor.md "In-place ops", docs/autograd.md "In-place
writes"): a += b and the *_ methods write into the tensor's buffer, so aliases and views see the
change; dtype and shape rules, leaf errors and autograd through in-place ops are torch's."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor
from onegrad.errors import ArgumentError, DTypeError, ShapeError

torch.set_num_threads(1)
R = np.random.default_rng(3)


def same(og, th, tol=1e-6):
    np.testing.assert_allclose(og.numpy(), th.detach().numpy(), rtol=tol, atol=tol)
    assert og.numpy().dtype == th.detach().numpy().dtype


# ---- values: every op, operator and method form, against torch

BINARY = ["add_", "sub_", "mul_", "div_", "pow_"]
UNARY = ["neg_", "abs_", "exp_", "sqrt_", "relu_", "sigmoid_", "tanh_", "sin_", "cos_", "floor_", "ceil_",
         "trunc_", "sign_", "square_", "reciprocal_", "log1p_", "expm1_"]


@pytest.mark.parametrize("name", BINARY)
def test_binary_method(name):
    a = R.uniform(0.5, 2, (3, 4)).astype(np.float32)
    b = R.uniform(0.5, 2, (4,)).astype(np.float32)
    t, tt = Tensor(a), torch.tensor(a)
    alias = t
    out = getattr(t, name)(Tensor(b))
    getattr(tt, name)(torch.tensor(b))
    assert out is t
    same(alias, tt, 1e-5)


@pytest.mark.parametrize("name", UNARY)
def test_unary_method(name):
    a = R.uniform(0.1, 2, (5,)).astype(np.float32)
    t, tt = Tensor(a), torch.tensor(a)
    assert getattr(t, name)() is t
    getattr(tt, name)()
    same(t, tt, 1e-5)


OPERATORS = [("+=", 1.5), ("-=", 2), ("*=", 3), ("/=", 4.0)]


@pytest.mark.parametrize("op,k", OPERATORS)
def test_augmented_operators_float(op, k):
    a = R.standard_normal((2, 3)).astype(np.float32)
    t, tt = Tensor(a), torch.tensor(a)
    alias, talias = t, tt
    before = id(t)
    ns = {"t": t, "tt": tt, "k": k, "o": Tensor(a[0]), "to": torch.tensor(a[0])}
    exec(f"t {op} k\nt {op} o\ntt {op} k\ntt {op} to", ns)
    assert id(ns["t"]) == before  # the same object, not a new binding
    same(alias, talias, 1e-5)


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>=", "**="])
def test_augmented_operators_int(op):
    a = R.integers(1, 9, (6,)).astype(np.int32)
    b = R.integers(1, 4, (6,)).astype(np.int32)
    t, tt = Tensor(a), torch.tensor(a)
    alias, talias = t, tt
    ns = {"t": t, "tt": tt, "o": Tensor(b), "to": torch.tensor(b)}
    exec(f"t {op} o\ntt {op} to\nt {op} 2\ntt {op} 2", ns)
    same(alias, talias, 0)


def test_fill_zero_copy_clamp_masked_fill():
    a = R.standard_normal((3, 4)).astype(np.float32)
    t, tt = Tensor(a), torch.tensor(a)
    t.clamp_(-0.5, 0.5), tt.clamp_(-0.5, 0.5)
    same(t, tt)
    t.clamp_min_(0.1), tt.clamp_min_(0.1)
    t.clamp_max_(0.3), tt.clamp_max_(0.3)
    same(t, tt)
    m = a > 0
    t.masked_fill_(Tensor(m), 7.0), tt.masked_fill_(torch.tensor(m), 7.0)
    same(t, tt)
    row = R.standard_normal(4)
    t.copy_(Tensor(row)), tt.copy_(torch.tensor(row))  # broadcast and cast (float64 -> float32)
    same(t, tt)
    t.fill_(2.5), tt.fill_(2.5)
    same(t, tt)
    t.zero_(), tt.zero_()
    same(t, tt)
    i, ti = Tensor([1, 2, 3]), torch.tensor([1, 2, 3], dtype=torch.int32)
    i.fill_(2.7), ti.fill_(2.7)  # fill_/copy_ cast whatever they get
    same(i, ti, 0)
    i.copy_(Tensor([1.9, -2.9, 3.5])), ti.copy_(torch.tensor([1.9, -2.9, 3.5]))
    same(i, ti, 0)


def test_uniform_and_normal():
    t = Tensor.zeros(20000)
    assert t.uniform_(2, 3) is t
    v = t.numpy()
    assert v.min() >= 2 and v.max() < 3 and abs(v.mean() - 2.5) < 0.02
    t.normal_(1.0, 2.0)
    v = t.numpy()
    assert abs(v.mean() - 1.0) < 0.06 and abs(v.std() - 2.0) < 0.06


# ---- aliases and views see the change

def test_aliases_and_views_see_the_change():
    t = Tensor([1.0, 2.0, 3.0, 4.0])
    same_handle = Tensor(t)  # shares the C++ tensor
    v = t[1:3]
    t += 10
    assert same_handle.tolist() == [11.0, 12.0, 13.0, 14.0]
    assert v.tolist() == [12.0, 13.0]
    v *= 2  # a write through the view lands in t
    assert t.tolist() == [11.0, 24.0, 26.0, 14.0]
    t.T.sub_(1)
    assert v.tolist() == [23.0, 25.0]


def test_view_of_lazy_tensor_writes_into_it():
    x = Tensor([1.0, 2.0, 3.0])
    y, ty = x * 2, torch.tensor([1.0, 2.0, 3.0]) * 2
    v, tv = y[1:], ty[1:]
    v.add_(100), tv.add_(100)
    same(y, ty)
    same(v, tv)


def test_equal_values_built_apart_stay_apart():
    # equal graphs are one node: zeros(3) twice is one node, realized into one buffer
    a, b = Tensor.zeros(3), Tensor.zeros(3)
    a += 1
    assert b.tolist() == [0.0, 0.0, 0.0]
    c, d = Tensor.zeros(3), Tensor.zeros(3)
    c.numpy(), d.numpy()  # both realized, sharing one buffer
    d[0] = 5
    c.add_(1)
    assert c.tolist() == [1.0, 1.0, 1.0] and d.tolist() == [5.0, 0.0, 0.0]
    x = Tensor([1.0, 2.0])
    y1, y2 = x * 3, x * 3
    y1.realize()
    y1[0] = 7
    assert y2.tolist() == [3.0, 6.0]


def test_lazy_value_built_before_keeps_old_values():
    t = Tensor([1.0, 2.0])
    old = t * 1
    t += 5
    assert old.tolist() == [1.0, 2.0] and t.tolist() == [6.0, 7.0]


# ---- torch's errors

def test_dtype_errors_match_torch():
    cases = [
        (lambda T: T([1, 2]).__iadd__(1.5), "add_: result type Float can't be cast to the desired output type Int"),
        (lambda T: T([1, 2]).div_(2), "div_: result type Float can't be cast to the desired output type Int"),
        (lambda T: T([True, False]).add_(1), "add_: result type Int can't be cast to the desired output type Bool"),
        (lambda T: T([1, 2]).sqrt_(), "sqrt_: result type Float can't be cast to the desired output type Int"),
    ]
    for f, msg in cases:
        t = Tensor([1, 2])
        with pytest.raises(DTypeError, match=msg):
            f(Tensor)
        assert t.tolist() == [1, 2]
    # torch says the same (its int default is Long; ours is Int, torch.int32 below)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Int"):
        torch.tensor([1, 2], dtype=torch.int32).add_(1.5)
    # a narrower type of the same kind is fine (torch: float64 into float16, int64 into int8)
    h = Tensor([1.0, 2.0], dtype="float16")
    h += Tensor([0.5, 0.5], dtype="float64")
    assert h.dtype == onegrad.dtypes.float16 and h.tolist() == [1.5, 2.5]


def test_shape_error_only_right_side_broadcasts():
    t = Tensor.zeros(3)
    with pytest.raises(ShapeError, match=r"add_: output with shape \(3,\) doesn't match the broadcast shape \(2, 3\)"):
        t += Tensor.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        torch.zeros(3).add_(torch.ones(2, 3))
    with pytest.raises(ShapeError, match=r"copy_: cannot broadcast value of shape \(4,\) to the indexed shape \(2, 3\)"):
        Tensor.zeros(2, 3).copy_(Tensor.ones(4))


LEAF = "a leaf Variable that requires grad is being used in an in-place operation."


def test_leaf_rules():
    x = Tensor([1.0, 2.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ArgumentError, match="add_: " + LEAF):
        x += 1
    with pytest.raises(RuntimeError, match=LEAF):
        tx += 1
    with pytest.raises(ArgumentError, match="mul_: a view of a " + LEAF[2:]):
        x[0:1].mul_(2)
    with pytest.raises(ArgumentError, match="zero_: " + LEAF):
        x.zero_()
    assert x.tolist() == [1.0, 2.0]
    with onegrad.no_grad():
        x -= 0.5
    assert x.tolist() == [0.5, 1.5] and x.requires_grad


# ---- autograd through in-place ops

def test_autograd_through_inplace_matches_torch():
    a = R.standard_normal(5)
    w = R.standard_normal(5)

    def program(x, v):  # no in-place op after one whose backward reads its output (torch refuses those)
        y = x * 2
        y.mul_(3)
        y.add_(v)
        z = y[1:4]
        z.mul_(v[1:4])
        y -= x * x
        y.sigmoid_()
        return y

    x, v = Tensor(a, requires_grad=True), Tensor(w, requires_grad=True)
    tx, tv = torch.tensor(a, requires_grad=True), torch.tensor(w, requires_grad=True)
    out, tout = program(x, v), program(tx, tv)
    same(out, tout, 1e-12)
    dy = R.standard_normal(5)
    out.backward(Tensor(dy)), tout.backward(torch.tensor(dy))
    same(x.grad, tx.grad, 1e-12)
    same(v.grad, tv.grad, 1e-12)


def test_brief_example_mul_():
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(3)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_sgd_by_hand_converges_like_torch():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((64, 3)).astype(np.float32)
    ys = xs @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.25
    w0 = rng.standard_normal((3, 1)).astype(np.float32) * 0.1
    w, b = Tensor(w0.copy(), requires_grad=True), Tensor(np.zeros(1, np.float32), requires_grad=True)
    tw, tb = torch.tensor(w0.copy(), requires_grad=True), torch.zeros(1, requires_grad=True)
    w_handle = w  # an alias: must see every step
    X, Y, TX, TY = Tensor(xs), Tensor(ys), torch.tensor(xs), torch.tensor(ys)
    for _ in range(60):
        for p, lib, x, y in (((w, b), onegrad, X, Y), ((tw, tb), torch, TX, TY)):
            loss = ((x @ p[0] + p[1] - y) ** 2).mean()
            loss.backward()
            with lib.no_grad():
                for t in p:
                    t -= 0.1 * t.grad
                    t.grad = None
    same(w, tw, 1e-4)
    same(b, tb, 1e-4)
    np.testing.assert_allclose(w_handle.numpy().ravel(), [1.5, -2.0, 0.5], atol=0.05)


# ---- .data and detach_()

def test_data_shares_storage_without_history():
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d, td = x.data, tx.data
    assert not d.requires_grad and not td.requires_grad
    d.add_(1), td.add_(1)  # allowed on a leaf's data, seen by the leaf
    same(x, tx)
    y, ty = x * 1, tx * 1
    yd, tyd = y.data, ty.data
    yd[0] = 100
    tyd[0] = 100
    same(y, ty)
    y.sum().backward(), ty.sum().backward()
    same(x.grad, tx.grad)


def test_assigning_data():
    x = Tensor([1.0, 2.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    other, tother = Tensor([5.0, 6.0, 7.0]), torch.tensor([5.0, 6.0, 7.0])
    x.data, tx.data = other, tother
    same(x, tx)
    assert x.requires_grad and not other.requires_grad
    other[0] = -1
    tother[0] = -1  # they share storage
    same(x, tx)
    (x * x).sum().backward(), (tx * tx).sum().backward()
    same(x.grad, tx.grad)


def test_detach_():
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    assert y.detach_() is y and not y.requires_grad
    assert y.tolist() == [3.0, 6.0]
    x.detach_()
    assert not x.requires_grad
    x2 = Tensor([1.0, 2.0], requires_grad=True)
    z = x2 * 2
    z.realize()
    with pytest.raises(ArgumentError, match="detach_: Can't detach views in-place. Use detach\\(\\) instead."):
        z[0:1].detach_()
    with pytest.raises(RuntimeError, match="Can't detach views in-place. Use detach\\(\\) instead."):
        (torch.tensor([1.0, 2.0], requires_grad=True) * 2)[0:1].detach_()


def test_optimizers_still_step():
    w = Tensor([1.0, -1.0], requires_grad=True)
    opt = onegrad.optim.SGD([w], lr=0.5)
    (w * w).sum().backward()
    opt.step()
    assert w.tolist() == [0.0, 0.0]
