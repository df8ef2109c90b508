"""Symbolic shapes: a tensor whose batch dim is a bound Variable compiles its kernels once and runs
them for every value (docs/python.md "Symbolic shapes"). Oracles: numpy and torch."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor, Variable, _C
from onegrad.errors import ArgumentError, ShapeError


def compiled():
    return _C.engine_stats()["kernels_lowered"]


def rows(data, n):
    """numpy rows as a tensor whose first dim is n bound to the row count."""
    return Tensor(data).reshape(n.bind(data.shape[0]), *data.shape[1:])


def test_bound_dim_is_the_value_and_remembers_its_variable():
    n = Variable("n", 1, 64)
    b = n.bind(5)
    assert b == 5 and isinstance(b, int)
    assert repr(b) == "n=5" and b.variable == "n"
    x = rows(np.arange(20, dtype=np.float32).reshape(5, 4), n)
    assert x.shape == (5, 4)
    assert repr(x.shape) == "(n=5, 4)"
    assert x.numpy().shape == (5, 4)
    np.testing.assert_array_equal(x.numpy(), np.arange(20, dtype=np.float32).reshape(5, 4))
    flat = x.reshape(-1)
    assert flat.shape == (20,) and repr(flat.shape[0]) != "20"  # n*4 stays symbolic


def test_bind_outside_bounds_raises_naming_the_variable():
    n = Variable("n", 1, 64)
    with pytest.raises(ArgumentError, match=r"bind: value 65 is outside the bounds \[1, 64\] of variable 'n'"):
        n.bind(65)
    with pytest.raises(ValueError, match="variable 'n'"):
        n.bind(0)
    with pytest.raises(ArgumentError, match="Variable: 'm' has min 5 above max 2"):
        Variable("m", 5, 2)


def test_reshape_that_splits_a_symbolic_dim_is_a_shape_error():
    n = Variable("n", 1, 64)
    x = rows(np.zeros((6, 4), np.float32), n)
    with pytest.raises(ShapeError, match=r"reshape: cannot reshape \(n=6, 4\) to \(3, 2, 4\): the symbolic dim n=6 would be split"):
        x.reshape(3, 2, 4)


def test_expand_of_a_symbolic_dim_is_a_shape_error():
    n = Variable("n", 1, 64)
    x = rows(np.zeros((1, 4), np.float32), n)
    with pytest.raises(ShapeError, match=r"expand: cannot expand the symbolic dim n=1 of \(n=1, 4\) to 3"):
        x.expand(3, 4)


def test_two_values_of_one_variable_in_one_graph():
    n = Variable("n", 1, 64)
    a, b = rows(np.ones((2, 3), np.float32), n), rows(np.ones((3, 3), np.float32), n)
    with pytest.raises(ArgumentError, match="realize: variable 'n' is bound to"):
        (a.sum() + b.sum()).numpy()


def test_movement_and_reduce_over_a_symbolic_dim_compile_once():
    n = Variable("n", 1, 32)
    first = None
    for v in (3, 17, 1, 32):
        d = np.random.default_rng(v).standard_normal((v, 6)).astype(np.float32)
        x = rows(d, n)
        got = {
            "sum0": x.sum(0).numpy(), "max1": x.amax(1).numpy(), "T": x.T.flip(1).numpy(),
            "pad": x.pad(((1, 2), (0, 1))).numpy(), "shrink": x[:, 1:4].numpy(), "mean": (x * 2 - 1).mean().numpy(),
        }
        want = {
            "sum0": d.sum(0), "max1": d.max(1), "T": d.T[:, ::-1], "pad": np.pad(d, ((1, 2), (0, 1))),
            "shrink": d[:, 1:4], "mean": (d * 2 - 1).mean(),
        }
        for k in want:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-5, err_msg=f"{k} n={v}")
        if first is None:
            first = compiled()
    assert compiled() == first, "a second value of n compiled a kernel"


def test_mlp_batch_1_to_64_compiles_each_kernel_once():
    torch.manual_seed(0)
    ref = torch.nn.Sequential(torch.nn.Linear(12, 32), torch.nn.ReLU(), torch.nn.Linear(32, 5))
    model = onegrad.nn.Sequential(onegrad.nn.Linear(12, 32), onegrad.nn.ReLU(), onegrad.nn.Linear(32, 5))
    with onegrad.no_grad():
        for mine, theirs in ((model[0], ref[0]), (model[2], ref[2])):
            mine.weight.assign(Tensor(theirs.weight.detach().numpy()))
            mine.bias.assign(Tensor(theirs.bias.detach().numpy()))
    batch = Variable("batch", 1, 64)
    rng = np.random.default_rng(1)
    first = None
    for b in range(1, 65):
        x = rng.standard_normal((b, 12)).astype(np.float32)
        y = model(rows(x, batch)).softmax(-1)
        assert repr(y.shape) == f"(batch={b}, 5)"
        with torch.no_grad():
            want = torch.softmax(ref(torch.from_numpy(x)), -1).numpy()
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-6, err_msg=f"batch={b}")
        if first is None:
            first = compiled()
    assert compiled() == first, "a batch size after the first compiled a kernel"
