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


def test_arange_of_a_bound_dim_compiles_once():
    n = Variable("n", 1, 40)
    first = None
    for v in (5, 1, 40, 17):
        a = onegrad.arange(n.bind(v))
        assert repr(a.shape) == f"(n={v},)" and a.dtype == onegrad.int32
        np.testing.assert_array_equal(a.numpy(), np.arange(v))
        x = rows(np.ones((v, 3), np.float32), n)
        np.testing.assert_array_equal((x * a.reshape(n.bind(v), 1)).sum(1).numpy(), 3 * np.arange(v, dtype=np.float32))
        np.testing.assert_array_equal(onegrad.arange(2, n.bind(v) + 2, 3).numpy(), np.arange(2, v + 2, 3))
        if first is None:
            first = compiled()
    assert compiled() == first, "arange of a second value compiled a kernel"


def test_scans_over_a_symbolic_axis_compile_once():
    n = Variable("n", 1, 24)
    first = None
    for v in (7, 1, 24, 12):
        d = np.random.default_rng(v).uniform(0.5, 1.5, (v, 5)).astype(np.float32)
        x, t = rows(d, n), torch.from_numpy(d)
        vals, idx = x.cummax(0)
        want_vals, want_idx = torch.cummax(t, 0)
        got = {"cumsum0": x.cumsum(0), "cumprod0": x.cumprod(0), "cumsum1": x.cumsum(1), "cummax0": vals,
               "cummin0": x.cummin(0)[0]}
        want = {"cumsum0": t.cumsum(0), "cumprod0": t.cumprod(0), "cumsum1": t.cumsum(1), "cummax0": want_vals,
                "cummin0": torch.cummin(t, 0)[0]}
        for k in want:
            assert repr(got[k].shape) == f"(n={v}, 5)", k
            np.testing.assert_allclose(got[k].numpy(), want[k].numpy(), rtol=1e-5, err_msg=f"{k} n={v}")
        np.testing.assert_array_equal(idx.numpy(), want_idx.numpy())
        if first is None:
            first = compiled()
    assert compiled() == first, "a scan at a second value of n compiled a kernel"


def test_sort_and_tensor_indexing_over_a_symbolic_axis_take_the_value():
    # documented: correct values, compiled for each value (docs/symbolic-shapes.md)
    n = Variable("n", 1, 16)
    for v in (6, 9):
        d = np.random.default_rng(v).standard_normal((v, 3)).astype(np.float32)
        x = rows(d, n)
        np.testing.assert_array_equal(x.sort(0)[0].numpy(), np.sort(d, 0))
        idx = np.array([v - 1, 0, 2])
        np.testing.assert_array_equal(x[Tensor(idx)].numpy(), d[idx])


def test_pad_and_shrink_by_a_bound_dim_compile_once():
    n = Variable("n", 1, 16)
    base = np.arange(16 * 3, dtype=np.float32).reshape(16, 3)
    x = Tensor(base)
    first = None
    for v in (4, 16, 1, 9):
        b = n.bind(v)
        head, tail = x[:b], x[b:]
        assert repr(head.shape) == f"(n={v}, 3)"
        np.testing.assert_array_equal(head.numpy(), base[:v])
        np.testing.assert_array_equal(tail.numpy(), base[v:])
        np.testing.assert_array_equal((head * 2).pad(((0, 16 - b), (1, 0))).numpy(), np.pad(base[:v] * 2, ((0, 16 - v), (1, 0))))
        np.testing.assert_array_equal(head.pad(((b, 0), None), value=-1).numpy(), np.pad(base[:v], ((v, 0), (0, 0)), constant_values=-1))
        np.testing.assert_array_equal(x.shrink(((1, b), None)).numpy(), base[1:v])
        if first is None:
            first = compiled()
    assert compiled() == first, "a pad or shrink at a second value of n compiled a kernel"


def test_pad_or_shrink_that_fails_for_some_values_is_a_shape_error():
    n = Variable("n", 1, 64)
    x = Tensor(np.zeros((10, 2), np.float32))
    with pytest.raises(ShapeError, match=r"shrink: the dim minus the end of axis 0 .* is negative for some values of n in \[1, 64\]"):
        x[:n.bind(5)]
    with pytest.raises(ShapeError, match=r"pad: the padding after axis 0 .* is negative for some values of n in \[1, 64\]"):
        x.pad(((0, 10 - n.bind(3)), None))


def test_creation_with_a_bound_dim_compiles_once():
    n = Variable("n", 1, 32)
    first = None
    for v in (3, 32, 1):
        b = n.bind(v)
        z, o, f, e = onegrad.zeros(b, 4), onegrad.ones((2, b)), onegrad.full((b,), 2.5), onegrad.empty(b, 2)
        r = Tensor.rand(b, 3)
        assert [repr(t.shape) for t in (z, o, f, e, r)] == [f"(n={v}, 4)", f"(2, n={v})", f"(n={v},)", f"(n={v}, 2)",
                                                            f"(n={v}, 3)"]
        np.testing.assert_array_equal((z + 1).numpy(), np.ones((v, 4), np.float32))
        np.testing.assert_array_equal(o.sum(1).numpy(), [v, v])
        np.testing.assert_array_equal(f.numpy(), np.full(v, 2.5, np.float32))
        assert e.numpy().shape == (v, 2)
        rv = r.numpy()
        assert rv.shape == (v, 3) and (rv >= 0).all() and (rv < 1).all() and len(np.unique(rv)) == rv.size
        if first is None:
            first = compiled()
    assert compiled() == first, "creating at a second value of n compiled a kernel"


def test_two_variables_where_dims_must_be_equal_is_a_shape_error():
    n, m = Variable("n", 1, 64), Variable("m", 2, 8)
    a, b = rows(np.ones((4, 3), np.float32), n), rows(np.ones((4, 3), np.float32), m)
    with pytest.raises(ShapeError, match=r"add: the dims n=4 and m=4 must be equal for every value, but they are over "
                                         r"different variables \(n in \[1, 64\]; m in \[2, 8\]\)"):
        a + b
    with pytest.raises(ShapeError, match=r"different variables \(n in \[1, 64\]; m in \[2, 8\]\)"):
        a.T @ b


def _torch_mlp(model):
    ref = torch.nn.Sequential(torch.nn.Linear(12, 32), torch.nn.ReLU(), torch.nn.Linear(32, 5))
    with torch.no_grad():
        for mine, theirs in ((model[0], ref[0]), (model[2], ref[2])):
            theirs.weight.copy_(torch.from_numpy(mine.weight.numpy()))
            theirs.bias.copy_(torch.from_numpy(mine.bias.numpy()))
    return ref


def test_mlp_backward_over_a_symbolic_batch_compiles_once_and_matches_torch():
    onegrad.manual_seed(3)
    model = onegrad.nn.Sequential(onegrad.nn.Linear(12, 32), onegrad.nn.ReLU(), onegrad.nn.Linear(32, 5))
    ref = _torch_mlp(model)
    batch = Variable("batch", 1, 64)
    rng = np.random.default_rng(4)
    first = None
    for b in (5, 64, 1, 23):
        x = rng.standard_normal((b, 12)).astype(np.float32)
        y = rng.integers(0, 5, b)
        model.zero_grad(set_to_none=True)
        loss = onegrad.nn.functional.cross_entropy(model(rows(x, batch)), Tensor(y).reshape(batch.bind(b)))
        loss.backward()
        ref.zero_grad()
        want = torch.nn.functional.cross_entropy(ref(torch.from_numpy(x)), torch.from_numpy(y))
        want.backward()
        np.testing.assert_allclose(loss.item(), want.item(), rtol=1e-5)
        for (name, p), q in zip(model.named_parameters(), ref.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-6, err_msg=f"{name} batch={b}")
        if first is None:
            first = compiled()
    assert compiled() == first, "backward at a second batch size compiled a kernel"


def test_training_at_batch_sizes_1_to_64_compiles_each_kernel_once():
    """Forward, cross-entropy, backward and an SGD step at every batch size 1..64 with one Variable batch
    dim: no batch size after the first compiles a kernel. The first size runs two steps: an optimizer's
    second step compiles the kernels that read what the first one made (momentum buffers, parameters
    that are now results), at any batch size and also without symbolic dims."""
    onegrad.manual_seed(5)
    model = onegrad.nn.Sequential(onegrad.nn.Linear(12, 32), onegrad.nn.ReLU(), onegrad.nn.Linear(32, 5))
    ref = _torch_mlp(model)
    opt = onegrad.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ref_opt = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
    batch = Variable("batch", 1, 64)
    rng = np.random.default_rng(6)
    first = None
    for step, b in enumerate([1] + list(range(1, 65))):
        x = rng.standard_normal((b, 12)).astype(np.float32)
        y = rng.integers(0, 5, b)
        opt.zero_grad(set_to_none=True)
        out = model(rows(x, batch))
        assert repr(out.shape) == f"(batch={b}, 5)"
        loss = onegrad.nn.functional.cross_entropy(out, Tensor(y).reshape(batch.bind(b)))
        loss.backward()
        opt.step()
        ref_opt.zero_grad()
        want = torch.nn.functional.cross_entropy(ref(torch.from_numpy(x)), torch.from_numpy(y))
        want.backward()
        ref_opt.step()
        if b in (1, 2, 17, 64):  # parameters after the step, the same as torch's
            np.testing.assert_allclose(loss.item(), want.item(), rtol=1e-4, err_msg=f"batch={b}")
            for (name, p), q in zip(model.named_parameters(), ref.parameters()):
                np.testing.assert_allclose(p.numpy(), q.detach().numpy(), rtol=1e-4, atol=1e-5, err_msg=f"{name} batch={b}")
        if step == 1:
            first = compiled()
    assert compiled() == first, "a batch size after the first compiled a kernel"


def test_bound_dim_arithmetic_keeps_the_expression():
    n = Variable("n", 1, 64)
    b = n.bind(5)
    assert repr(64 - b) == "-n + 64=59" and 64 - b == 59
    assert repr(b * 4) == "4*n=20" and repr(b + 2 - 2) == "n=5"
    assert repr(b // 2) .endswith("=2") and isinstance(b // 2, onegrad.BoundDim)
    assert b // -2 == -3 and type(b // -2) is int and b * 1.5 == 7.5 and type(b + True) is int
    with pytest.raises(ZeroDivisionError):
        b // 0


def test_backward_schedules_the_same_wherever_the_parameters_live():
    """Gradients are realized in the order of their leaves in the graph, not of the tensors' addresses
    (which change with every allocation): the same model built again compiles nothing new."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 12)).astype(np.float32)
    y = rng.integers(0, 5, 6)
    batch = Variable("batch", 1, 64)
    counts, keep = [], []
    for i in range(16):
        keep.append([Tensor.ones(i + 1) for _ in range(i)])  # moves the next model's tensors around
        model = onegrad.nn.Sequential(onegrad.nn.Linear(12, 32), onegrad.nn.ReLU(), onegrad.nn.Linear(32, 5))
        before = compiled()
        onegrad.nn.functional.cross_entropy(model(rows(x, batch)), Tensor(y).reshape(batch.bind(6))).backward()
        counts.append(compiled() - before)
    assert counts[1:] == [0] * 15, f"kernels compiled per model: {counts}"


def test_debug_two_times_kernels_with_a_symbolic_bound(capfd):
    # DEBUG=2's work estimate counts a symbolic loop with the variable's value: it once read the
    # bound as a constant and threw, so under DEBUG=2 an ONNX model fell back to static dims.
    n = Variable("n", 1, 64)
    d = np.random.default_rng(0).standard_normal((50, 4000)).astype(np.float32)
    with onegrad.settings.override(DEBUG=2):
        got = (rows(d, n) * 2).sum(1).numpy()
    np.testing.assert_allclose(got, (d * 2).sum(1), rtol=1e-4, atol=1e-3)
    err = capfd.readouterr().err
    line = next(line for line in err.splitlines() if line.startswith("  run r_n_4000"))
    assert float(line.split()[4]) > 0, line  # GFLOP/s of 50 x 4000 x 2 ops, not 0


def test_a_strided_conv_over_a_symbolic_batch_indexes_its_input_without_division():
    # The windows of a stride-2 conv are built from the spatial sizes as numbers: over a symbolic
    # input they were a static view of symbolic buffers, each load a division and a modulo by the
    # variable (PaddleOCR det's first conv: 9x slower), and this graph failed to realize ("the
    # symbolic dim (n,) has no value"). The windows now take the graph with the variables' values
    # substituted: static kernels, compiled per value like any op built from numbers.
    n = Variable("n", 1, 64)
    rng = np.random.default_rng(3)
    d = rng.standard_normal((5, 3, 10, 10)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    y = rows(d, n).conv2d(Tensor(w), stride=2, padding=1)
    want = torch.nn.functional.conv2d(torch.from_numpy(d), torch.from_numpy(w), stride=2, padding=1).numpy()
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
    sources = [k.source(k.default_opts()) for k in onegrad.kernels(rows(d, n).conv2d(Tensor(w), stride=2, padding=1))]
    assert sources and not any("%" in s or "vars[" in s for s in sources), sources
