"""@onegrad.function (docs/function.md): values against numpy, tuple and list
returns, the body cache (a second call with the same signature traces nothing and compiles nothing;
a new shape or dtype traces again), number arguments as part of the key, gradients through a
function against torch.autograd, nested functions, the capture rules and bad arguments."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor, _C
from onegrad.errors import FunctionError

torch.set_num_threads(1)


def compiled():
    """(kernels lowered, programs compiled) so far in this process."""
    s = _C.engine_stats()
    return s["kernels_lowered"], s["compiles"]


def test_values_and_graph(rng):
    @onegrad.function
    def layer(x, w, b):
        return (x @ w + b).relu()

    x, w, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal(5)
    y = layer(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32)), Tensor(b.astype(np.float32)))
    assert isinstance(y, Tensor) and y.shape == (4, 5)
    np.testing.assert_allclose(y.numpy(), np.maximum(x @ w + b, 0), rtol=1e-5, atol=1e-5)
    assert layer.__name__ == "layer"  # functools.wraps


def test_tuple_and_list_returns(rng):
    @onegrad.function
    def stats(x):
        return x.sum(axis=0), x.max(axis=0), x * 2

    @onegrad.function
    def halves(x):
        return list(x.chunk(2))

    a = rng.standard_normal((6, 2)).astype(np.float32)
    s, m, d = stats(Tensor(a))
    np.testing.assert_allclose(s.numpy(), a.sum(0), rtol=1e-5)
    np.testing.assert_allclose(m.numpy(), a.max(0))
    np.testing.assert_allclose(d.numpy(), a * 2)
    got = halves(Tensor(a))
    assert isinstance(got, list) and len(got) == 2
    np.testing.assert_allclose(got[1].numpy(), a[3:])


def test_second_call_traces_and_compiles_nothing(rng):
    calls = []

    @onegrad.function
    def f(x, y):
        calls.append(1)
        return (x.exp() * y).sum(axis=1), x - y

    a, b = rng.standard_normal((2, 8, 3)).astype(np.float32)
    s1, d1 = f(Tensor(a), Tensor(b))
    np.testing.assert_allclose(s1.numpy(), (np.exp(a) * b).sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d1.numpy(), a - b)
    before = compiled()
    c, d = rng.standard_normal((2, 8, 3)).astype(np.float32)
    s2, d2 = f(Tensor(c), Tensor(d))
    np.testing.assert_allclose(s2.numpy(), (np.exp(c) * d).sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d2.numpy(), c - d)
    assert compiled() == before, "a second call with the same shapes compiled something"
    assert f.traces == 1 and len(calls) == 1

    e = rng.standard_normal((5, 3)).astype(np.float32)
    np.testing.assert_allclose(f(Tensor(e), Tensor(e))[1].numpy(), np.zeros((5, 3)))  # new shape: traced
    assert f.traces == 2
    f(Tensor(c.astype(np.float64)), Tensor(d.astype(np.float64)))  # new dtype: traced
    assert f.traces == 3 and len(calls) == 3


def test_numbers_strings_and_none_are_part_of_the_key():
    @onegrad.function
    def scale(x, k, mode=None):
        return x * k if mode is None else x + k

    x = Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(scale(x, 2).numpy(), [0, 2, 4])
    np.testing.assert_allclose(scale(x, 3).numpy(), [0, 3, 6])
    np.testing.assert_allclose(scale(x, 3, mode="add").numpy(), [3, 4, 5])
    np.testing.assert_allclose(scale(x, 2).numpy(), [0, 2, 4])
    assert scale.traces == 3
    np.testing.assert_allclose(scale(x, 2.0).numpy(), [0, 2, 4])  # 2.0 is not 2: its own body
    assert scale.traces == 4


def test_nested_sequences_of_tensors():
    @onegrad.function
    def total(parts, weights=(1.0, 1.0)):
        return parts[0] * weights[0] + parts[1] * weights[1]

    a, b = Tensor(np.ones(2, np.float32)), Tensor(np.full(2, 3, np.float32))
    np.testing.assert_allclose(total([a, b]).numpy(), [4, 4])
    np.testing.assert_allclose(total((a, b), weights=(2.0, 0.5)).numpy(), [3.5, 3.5])


def test_gradients_match_torch(rng):
    @onegrad.function
    def mlp(x, w1, b1, w2):
        h = (x @ w1 + b1).relu()
        return (h @ w2).log_softmax(axis=1), h

    arrays = [rng.standard_normal(s) for s in [(6, 4), (4, 8), (8,), (8, 3)]]
    og = [Tensor(a, requires_grad=True) for a in arrays]
    th = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, h = mlp(*og)
    want_h = torch.relu(th[0] @ th[1] + th[2])
    want = torch.log_softmax(want_h @ th[3], dim=1)
    dy = rng.standard_normal((6, 3))
    (out * Tensor(dy)).sum().add((h * h).sum()).backward()
    ((want * torch.tensor(dy)).sum() + (want_h * want_h).sum()).backward()
    np.testing.assert_allclose(out.numpy(), want.detach().numpy(), rtol=1e-9, atol=1e-9)
    for i, (o, t) in enumerate(zip(og, th)):
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), rtol=1e-9, atol=1e-9, err_msg=f"arg {i}")


def test_grad_of_function_outputs_and_second_order(rng):
    @onegrad.function
    def cube(x):
        return x * x * x

    a = rng.standard_normal(5)
    x = Tensor(a, requires_grad=True)
    (g,) = onegrad.autograd.grad(cube(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), 3 * a * a, rtol=1e-12)
    (g2,) = onegrad.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), 6 * a, rtol=1e-12)


def test_nested_functions(rng):
    @onegrad.function
    def inner(a, b):
        return a * b

    @onegrad.function
    def outer(x, y):
        return inner(x, y) + inner(y, y).sin()

    a, b = rng.standard_normal((2, 7))
    x, y = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
    out = outer(x, y)
    np.testing.assert_allclose(out.numpy(), a * b + np.sin(b * b), rtol=1e-12)
    tx, ty = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    (tx * ty + torch.sin(ty * ty)).sum().backward()
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), ty.grad.numpy(), rtol=1e-12)
    before = compiled()
    outer(Tensor(b), Tensor(a)).numpy()
    assert compiled() == before and outer.traces == 1 and inner.traces == 2  # (x, y) and (y, y)


def test_implicit_capture_is_an_error_naming_the_function():
    w = Tensor(np.ones((3, 2), np.float32))

    @onegrad.function
    def project(x):
        return x @ w

    with pytest.raises(FunctionError, match=r"function 'test_implicit_capture_is_an_error_naming_the_function"
                                            r"\.<locals>\.project' reads a tensor that is not one of its "
                                            r"arguments \(float32 \(3, 2\) on CPU, 1 in all\)") as e:
        project(Tensor(np.ones((4, 3), np.float32)))
    assert "allow_implicit=True" in str(e.value)
    assert isinstance(e.value, TypeError) and isinstance(e.value, onegrad.Error)


def test_allowed_capture_becomes_an_argument_with_gradients(rng):
    a, c = rng.standard_normal((4, 3)), rng.standard_normal((3, 2))
    w = Tensor(c, requires_grad=True)
    tw = torch.tensor(c, requires_grad=True)

    @onegrad.function(allow_implicit=True)
    def project(x):
        return (x @ w).tanh()

    out = project(Tensor(a))
    np.testing.assert_allclose(out.numpy(), np.tanh(a @ c), rtol=1e-12)
    out.sum().backward()
    torch.tanh(torch.tensor(a) @ tw).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-12)
    # the capture is bound with the body: a later call reads the same (updated in place) weight
    with onegrad.no_grad():  # w is a leaf that requires grad: written in place only under no_grad
        w.assign(Tensor(np.zeros((3, 2))))
    np.testing.assert_allclose(project(Tensor(a)).numpy(), np.zeros((4, 2)))
    assert project.traces == 1


def test_bad_arguments_and_returns():
    @onegrad.function
    def f(x, opt=None):
        return x

    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match=r"function '.*f': argument 1 is a dict; a traced function takes Tensors"):
        f(x, {"a": 1})
    with pytest.raises(TypeError, match=r"argument 'opt' is a ndarray"):
        f(x, opt=np.ones(2))

    @onegrad.function(name="returns_int")
    def g(x):
        return 3

    with pytest.raises(TypeError, match=r"function 'returns_int' must return a Tensor or a tuple or list of "
                                        r"Tensors, got int"):
        g(x)

    @onegrad.function(name="returns_mixed")
    def h(x):
        return x, 1.5

    with pytest.raises(TypeError, match=r"got a tuple holding float"):
        h(x)
    with pytest.raises(TypeError, match="expects a callable, got int"):
        onegrad.function(3)


def test_realizing_a_traced_value_is_an_error():
    @onegrad.function(name="peeks")
    def f(x):
        return x * float(x.sum().item())

    with pytest.raises(FunctionError, match=r"function 'peeks': realize: the value reads PARAM"):
        f(Tensor(np.ones(3, np.float32)))


def test_training_steps_through_a_function_match_torch(rng):
    """SGD on a two-layer net whose forward is a function: the weights are arguments (updated in
    place by the optimizer), so every step calls one traced body; after the first step nothing is
    traced or compiled, and the weights follow torch's step for step."""
    @onegrad.function
    def forward(x, w1, w2):
        return (x @ w1).relu() @ w2

    arrays = [rng.standard_normal((5, 4)) * 0.5, rng.standard_normal((4, 3)) * 0.5]
    ws = [Tensor(a, requires_grad=True) for a in arrays]
    tws = [torch.tensor(a, requires_grad=True) for a in arrays]
    opt, topt = onegrad.optim.SGD(ws, lr=0.1, momentum=0.9), torch.optim.SGD(tws, lr=0.1, momentum=0.9)
    for step in range(3):
        x, y = rng.standard_normal((8, 5)), rng.standard_normal((8, 3))
        loss = ((forward(Tensor(x), *ws) - Tensor(y)) ** 2).mean()
        tloss = ((torch.relu(torch.tensor(x) @ tws[0]) @ tws[1] - torch.tensor(y)) ** 2).mean()
        opt.zero_grad()
        topt.zero_grad()
        loss.backward()
        tloss.backward()
        opt.step()
        topt.step()
        np.testing.assert_allclose(loss.numpy(), tloss.item(), rtol=1e-12)
        if step == 1:
            before = compiled()
    assert compiled() == before and forward.traces == 1
    for w, tw in zip(ws, tws):
        np.testing.assert_allclose(w.numpy(), tw.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_captured_weights_follow_optimizer_steps(rng):
    """allow_implicit with a weight the optimizer updates in place: the capture is the same buffer,
    so each step's gradient and update match torch, with one trace."""
    a = rng.standard_normal((4, 3))
    w, tw = Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    f = onegrad.function(lambda x: (x @ w).tanh(), allow_implicit=True)
    opt, topt = onegrad.optim.SGD([w], lr=0.1), torch.optim.SGD([tw], lr=0.1)
    for _ in range(3):
        x = rng.standard_normal((2, 4))
        opt.zero_grad()
        topt.zero_grad()
        f(Tensor(x)).sum().backward()
        torch.tanh(torch.tensor(x) @ tw).sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-12, atol=1e-14)
        opt.step()
        topt.step()
        np.testing.assert_allclose(w.numpy(), tw.detach().numpy(), rtol=1e-12, atol=1e-14)
    assert f.traces == 1
