"""Gradients through writes `t[...] = v` against torch 1.13 (docs/autograd.md "In-place writes").

Each program runs twice, once on onegrad tensors and once on torch tensors, through a small
adapter (`lib`) for what differs between the two (making a tensor, zeros). The values of the
results and the .grad of every leaf must agree: the written value gets the gradient of the region
it lands in (summed over broadcasting), the overwritten elements of the old value none."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

torch.set_num_threads(1)


class Og:
    @staticmethod
    def leaf(a):
        return Tensor(np.asarray(a, np.float64), requires_grad=True)

    @staticmethod
    def data(a):
        return Tensor(np.asarray(a, np.float64))

    @staticmethod
    def zeros(*shape):
        return Tensor.zeros(*shape, dtype="float64")

    @staticmethod
    def index(a):
        return Tensor(np.asarray(a))

    no_grad = onegrad.no_grad


class Th:
    @staticmethod
    def leaf(a):
        return torch.tensor(np.asarray(a, np.float64), requires_grad=True)

    @staticmethod
    def data(a):
        return torch.tensor(np.asarray(a, np.float64))

    @staticmethod
    def zeros(*shape):
        return torch.zeros(*shape, dtype=torch.float64)

    @staticmethod
    def index(a):
        return torch.tensor(np.asarray(a))

    no_grad = torch.no_grad


def values(t):
    return t.detach().numpy() if isinstance(t, torch.Tensor) else t.numpy()


def run_both(program, arrays, dy_seed=0):
    """program(lib, *leaves) -> output tensor; compares outputs and leaf gradients."""
    og_leaves = [Og.leaf(a) for a in arrays]
    th_leaves = [Th.leaf(a) for a in arrays]
    got = program(Og, *og_leaves)
    want = program(Th, *th_leaves)
    np.testing.assert_allclose(values(got), values(want), rtol=1e-12, atol=1e-12)
    dy = np.random.default_rng(dy_seed).standard_normal(tuple(want.shape))
    want.backward(torch.tensor(dy))
    got.backward(Tensor(dy))
    for i, (o, t) in enumerate(zip(og_leaves, th_leaves)):
        want_g = np.zeros(t.shape) if t.grad is None else t.grad.numpy()
        got_g = np.zeros(o.shape) if o.grad is None else o.grad.numpy()
        np.testing.assert_allclose(got_g, want_g, rtol=1e-12, atol=1e-12, err_msg=f"leaf {i}")


R = np.random.default_rng(1)
X6 = R.standard_normal(6)
X23 = R.standard_normal((2, 3))
X234 = R.standard_normal((2, 3, 4))


def p_issue(lib, x):  # the simplest case: y = x*2; y[0] = 5 -> x.grad [0, 2]
    y = x * 2
    y[0] = 5
    return y


def p_value_from_leaf(lib, x, w):
    y = x * 2
    y[1:3] = w * 3
    return y * y


def p_broadcast_value(lib, x, w):
    y = x * 1
    y[:, 1:] = w  # w (1,) broadcast to (2, 2): its gradient is the sum
    return y.exp()


def p_row_broadcast(lib, x, w):
    y = x + 0
    y[0] = w  # (3,) into row 0
    y[1, ::2] = w[0]
    return y


def p_steps_and_flip(lib, x, w):
    y = x * 3
    y[::2] = w[:3] * w[:3]
    y[1::2] = w[3:]
    return y.sin()


def p_transposed_view(lib, x, w):
    y = x * 1
    y.T[1] = w  # column 1 through the transposed view
    return y * x


def p_chain_of_writes(lib, x, w):
    y = x * 1
    y[0] = w[0] * 2
    y[1] = w[1] + y[0]  # reads the first write
    y[0] = 7  # overwrites it: w[0] reaches y only through y[1]
    y[2:4] = (y[0:2] * 1) * w[2:4]  # (torch refuses a product saving y's view, then written)
    return y


def p_write_through_view(lib, x, w):
    y = x * 2
    v = y[1]  # a view of y: the write lands in y
    v[1:] = w
    return y.sum(1)


def p_write_into_plain(lib, x):
    a = lib.zeros(3, 4)
    a[1] = x  # a was no function of a leaf; now it is
    a[0, ::3] = x[1:3] ** 2
    return a * 3


def p_reader_before_write(lib, x, w):
    y = x * 2
    z = y * 5  # built before the write: the old values
    y[0] = w * 7
    return z + y


def p_int_index(lib, x, w):
    y = x * 1
    y[lib.index([0, 2, 5])] = w[:3]
    return y * y


def p_mask_index(lib, x, w):
    y = x * 2
    y[y > 0] = 0.5  # a mask computed from the old values
    y[lib.index([True, False, True, False, False, True])] = w[3:] * 2
    return y


def p_mixed_index(lib, x, w):
    y = x * 1
    y[lib.index([1, 0]), 1:3] = w[:4].reshape(2, 2)
    y[:, lib.index([3])] = w[4]
    return y.tanh()


def p_nonlinear_after(lib, x, w):
    y = (x * 1).reshape(2, 3, 4)
    y[1, :, 2] = w[:3].exp()
    return (y * y).sum(2)


def p_data_plain_value(lib, x):
    a = lib.data([1.0, 2.0, 3.0, 4.0])
    a[1:3] = x[:2]
    return a.sum().reshape(1) * a


PROGRAMS = [
    (p_issue, [X6]),
    (p_value_from_leaf, [X6, R.standard_normal(2)]),
    (p_broadcast_value, [X23, R.standard_normal(1)]),
    (p_row_broadcast, [X23, R.standard_normal(3)]),
    (p_steps_and_flip, [X6, R.standard_normal(6)]),
    (p_transposed_view, [X23, R.standard_normal(2)]),
    (p_chain_of_writes, [X6, R.standard_normal(4)]),
    (p_write_through_view, [X23, R.standard_normal(2)]),
    (p_write_into_plain, [R.standard_normal(4)]),
    (p_reader_before_write, [X6, R.standard_normal(1)]),
    (p_int_index, [X6, R.standard_normal(6)]),
    (p_mask_index, [X6, R.standard_normal(6)]),
    (p_mixed_index, [R.standard_normal((2, 4)), R.standard_normal(5)]),
    (p_nonlinear_after, [X234.reshape(24), R.standard_normal(3)]),
    (p_data_plain_value, [R.standard_normal(2)]),
]


@pytest.mark.parametrize("program,arrays", PROGRAMS, ids=[p.__name__[2:] for p, _ in PROGRAMS])
def test_setitem_gradient_matches_torch(program, arrays):
    run_both(program, arrays)


def test_issue_example_exactly():
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y[0] = 5
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 2.0]
    assert y.tolist() == [5.0, 4.0]


def test_requires_grad_after_writes():
    x = Tensor([1.0, 2.0], requires_grad=True)
    a = Tensor.zeros(2)
    assert not a.requires_grad
    a[0] = x[1]
    assert a.requires_grad  # as torch: a plain tensor written with a value that requires grad
    b = Tensor.zeros(2)
    b[0] = x[1].detach()
    assert not b.requires_grad
    y = x * 2
    y[:] = 3.0  # every element overwritten: still a function of x in torch's eyes, gradient 0
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


LEAF = "setitem: a leaf Variable that requires grad is being used in an in-place operation."
VIEW = "setitem: a view of a leaf Variable that requires grad is being used in an in-place operation."


def test_leaf_errors_match_torch():
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(onegrad.errors.ArgumentError, match=LEAF):
        x[0] = 1
    with pytest.raises(RuntimeError, match=LEAF.split(": ", 1)[1]):
        tx[0] = 1
    v, tv = x[1:], tx[1:]
    with pytest.raises(onegrad.errors.ArgumentError, match=VIEW):
        v[0] = 1
    with pytest.raises(RuntimeError, match=VIEW.split(": ", 1)[1]):
        tv[0] = 1
    with pytest.raises(onegrad.errors.ArgumentError, match=LEAF):
        x[Tensor([0, 1])] = 1
    assert x.tolist() == [1.0, 2.0, 3.0]  # nothing written


def test_leaf_write_under_no_grad():
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for lib, t in ((onegrad, x), (torch, tx)):
        with lib.no_grad():
            t[0] = 10
            t[1:][0] = 20
        (t * t).sum().backward()
    assert x.tolist() == tx.tolist() == [10.0, 20.0, 3.0]
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())
    assert x.requires_grad


def test_no_grad_write_into_computed_tensor():
    # A deliberate difference (docs/torch-differences.md): a write under no_grad into a tensor
    # computed from a leaf is a value: its elements pass no gradient (torch keeps the graph from
    # before the write and sends the gradient of the overwritten elements to x).
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with onegrad.no_grad():
        y[0] = 5
    (y * y).sum().backward()
    assert y.tolist() == [5.0, 4.0, 6.0]
    assert x.grad.tolist() == [0.0, 16.0, 24.0]


def test_int_tensor_writes_carry_no_gradient():
    x = Tensor([1.0, 2.0], requires_grad=True)
    i = Tensor([0, 0, 0])
    i[1:] = x.int()
    assert not i.requires_grad
    assert i.tolist() == [0, 1, 2]
