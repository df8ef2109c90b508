"""Recurrences through the fusion cost model (docs/schedule.md "The fusion cost model"): a state
read by the next step and by the output is realized where fusing would recompute it, so a sequence
schedules into a number of kernels linear in its length (the build was exponential in it: an LSTM's
backward over 6 steps took minutes to compile). Results against torch 1.13."""

import numpy as np
import torch

import onegrad
from onegrad import Tensor, _C, nn
from onegrad.autograd import grad


def _recurrence(lib, w, xs):
    h = lib.zeros(xs.shape[1], w.shape[1])
    hs = []
    for t in range(xs.shape[0]):
        h = (h @ w + xs[t]).tanh()
        hs.append(h)
    return lib.stack(hs, 0) if lib is torch else Tensor.stack(*hs, dim=0)


def test_tanh_recurrence_32_steps_forward_and_backward():
    steps = 32
    rng = np.random.default_rng(0)
    w0 = (rng.standard_normal((8, 8)) * 0.4).astype(np.float32)
    x0 = rng.standard_normal((steps, 4, 8)).astype(np.float32)
    w, xs = Tensor(w0, requires_grad=True), Tensor(x0, requires_grad=True)
    out = _recurrence(Tensor, w, xs)
    gw, gx = grad((out * out).sum(), [w, xs])
    forward = onegrad.kernels(out)
    both = onegrad.kernels(out, gw, gx)
    # one gemm per step forward (the stack reads the last), two per step backward: h's and W's
    assert len(forward) <= steps + 1, [k.reason for k in forward]
    assert len(both) <= 3 * steps + 4, len(both)

    tw, tx = torch.tensor(w0, requires_grad=True), torch.tensor(x0, requires_grad=True)
    tout = _recurrence(torch, tw, tx)
    (tout * tout).sum().backward()
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gw.numpy(), tw.grad.numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-3, atol=1e-4)


def _lstm(lib, x, w_ih, w_hh, b):
    """An LSTM written out step by step (torch's gate order i, f, g, o), with no buffer asked for."""
    h = lib.zeros(x.shape[1], w_hh.shape[1])
    c = lib.zeros(x.shape[1], w_hh.shape[1])
    ys = []
    for t in range(x.shape[0]):
        i, f, g, o = (x[t] @ w_ih.T + h @ w_hh.T + b).chunk(4, -1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h = o.sigmoid() * c.tanh()
        ys.append(h)
    return (lib.stack(ys, 0) if lib is torch else Tensor.stack(*ys, dim=0)), c


def _lstm_inputs(steps, seed):
    rng = np.random.default_rng(seed)
    hidden = 4
    return [rng.standard_normal(shape).astype(np.float32) * scale
            for shape, scale in (((steps, 2, 3), 1.0), ((4 * hidden, 3), 0.5), ((4 * hidden, hidden), 0.5),
                                 ((4 * hidden,), 0.5))]


def _lstm_kernels(steps):
    args = [Tensor(a, requires_grad=True) for a in _lstm_inputs(steps, 1)]
    y, c = _lstm(Tensor, *args)
    grads = grad((y * y).sum() + (c * c).sum(), args)
    return onegrad.kernels(y, c, *grads)


def test_lstm_kernels_grow_linearly_with_the_sequence():
    k8, k16 = len(_lstm_kernels(8)), len(_lstm_kernels(16))
    assert k16 <= 16 * 16, k16
    assert k16 - k8 <= k8 + 8, (k8, k16)  # per step, not compounding


def test_lstm_16_steps_against_torch():
    steps = 16
    arrays = _lstm_inputs(steps, 2)
    ours = [Tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    before = _C.engine_stats()["kernels_lowered"]
    y, c = _lstm(Tensor, *ours)
    ((y * y).sum() + (c * c).sum()).backward()
    ty, tc = _lstm(torch, *theirs)
    ((ty * ty).sum() + (tc * tc).sum()).backward()
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c.numpy(), tc.detach().numpy(), rtol=1e-4, atol=1e-5)
    for name, o, t in zip(("x", "w_ih", "w_hh", "b"), ours, theirs):
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), rtol=1e-3, atol=1e-4, err_msg=name)
    assert _C.engine_stats()["kernels_lowered"] - before <= 16 * steps  # each compiled at most once


def test_nn_lstm_has_no_buffer_per_step_of_its_own():
    """nn.LSTM asks for no buffer at each step; the cost model places them (kernels linear in L)."""
    m = nn.LSTM(3, 4)
    x = Tensor(np.random.default_rng(3).standard_normal((16, 2, 3)).astype(np.float32), requires_grad=True)
    y, (h, c) = m(x)
    ks = onegrad.kernels(y, c, *grad((y * y).sum(), [x] + list(m.parameters())))
    assert not any(k.reason == "contiguous()" for k in ks), [k.reason for k in ks]
    assert len(ks) <= 16 * 16
