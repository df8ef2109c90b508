"""Optimizers and schedules against torch.optim 1.13 (docs/nn.md): the same
parameters, the same random gradients set by hand, parameters compared after every step."""

import os

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor, optim

CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.5, maximize=True)),
    ("Adam", dict(lr=1e-2)),
    ("Adam", dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("Adam", dict(lr=1e-2, amsgrad=True)),
    ("Adam", dict(lr=1e-2, maximize=True)),
    ("AdamW", dict(lr=1e-2)),
    ("AdamW", dict(lr=1e-2, weight_decay=0.5, amsgrad=True)),
]


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("name,kw", CASES, ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for n, kw in CASES])
def test_steps_match_torch(rng, name, kw, dt):
    shapes = [(4, 3), (3,)]
    init = [rng.standard_normal(s).astype(dt) for s in shapes]
    ours = [Tensor(a, requires_grad=True) for a in init]
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    o = getattr(optim, name)(ours, **kw)
    t = getattr(torch.optim, name)(theirs, **kw)
    rtol, atol = (1e-5, 1e-6) if dt == np.float32 else (1e-12, 1e-12)
    for step in range(12):
        for p, q in zip(ours, theirs):
            g = rng.standard_normal(p.shape).astype(dt)
            p.grad = Tensor(g)
            q.grad = torch.tensor(g)
        o.step()
        t.step()
        for i, (p, q) in enumerate(zip(ours, theirs)):
            np.testing.assert_allclose(p.numpy(), q.detach().numpy(), rtol=rtol, atol=atol,
                                       err_msg=f"step {step}, parameter {i}")


def test_param_groups_and_lr_changes(rng):
    a, b = rng.standard_normal(3).astype(np.float32), rng.standard_normal(2).astype(np.float32)
    pa, pb = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
    o = optim.SGD([{"params": [pa]}, {"params": pb, "lr": 1.0}], lr=0.1)
    assert o.param_groups[0]["lr"] == 0.1 and o.param_groups[1]["lr"] == 1.0
    pa.grad, pb.grad = Tensor(np.ones(3, np.float32)), Tensor(np.ones(2, np.float32))
    o.step()
    np.testing.assert_allclose(pa.numpy(), a - 0.1, rtol=1e-6)
    np.testing.assert_allclose(pb.numpy(), b - 1.0, rtol=1e-6)
    o.param_groups[0]["lr"] = 0.5
    o.step()
    # two float32 steps (a - 0.1, then - 0.5) round twice: compare with the same two steps
    np.testing.assert_allclose(pa.numpy(), (a - np.float32(0.1)) - np.float32(0.5), rtol=1e-6, atol=1e-7)


def test_zero_grad_and_views_see_the_update():
    w = Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    view = Tensor(w)
    o = optim.SGD([w], lr=0.5)
    (w * w).sum().backward()
    o.step()
    np.testing.assert_allclose(view.numpy(), [0.0, 0.0])
    o.zero_grad()
    np.testing.assert_array_equal(w.grad.numpy(), [0, 0])  # torch 1.13: zeros
    o.zero_grad(set_to_none=True)
    assert w.grad is None


def test_training_a_linear_model_converges(rng):
    x = rng.standard_normal((64, 3)).astype(np.float32)
    true_w = np.array([[2.0], [-1.0], [0.5]], np.float32)
    y = x @ true_w + 0.3
    w = Tensor(np.zeros((3, 1), np.float32), requires_grad=True)
    b = Tensor(np.zeros(1, np.float32), requires_grad=True)
    o = optim.Adam([w, b], lr=0.1)
    for _ in range(150):
        o.zero_grad()
        loss = ((Tensor(x) @ w + b - Tensor(y)) ** 2).mean()
        loss.backward()
        o.step()
    np.testing.assert_allclose(w.numpy(), true_w, atol=2e-2)
    np.testing.assert_allclose(b.numpy(), [0.3], atol=2e-2)


SCHEDULES = [
    ("StepLR", dict(step_size=3, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 5, 9], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=10, eta_min=0.001)),
    ("CosineAnnealingLR", dict(T_max=7)),
    ("LinearLR", dict(start_factor=0.25, total_iters=8)),
]


@pytest.mark.parametrize("name,kw", SCHEDULES, ids=[f"{n}-{kw}" for n, kw in SCHEDULES])
def test_schedules_match_torch(name, kw):
    ours = optim.SGD([Tensor(np.zeros(2, np.float32), requires_grad=True)], lr=0.1)
    theirs = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1)
    s = getattr(optim.lr_scheduler, name)(ours, **kw)
    t = getattr(torch.optim.lr_scheduler, name)(theirs, **kw)
    for _ in range(50):
        np.testing.assert_allclose(s.get_last_lr(), t.get_last_lr(), rtol=1e-12)
        assert ours.param_groups[0]["lr"] == pytest.approx(theirs.param_groups[0]["lr"], rel=1e-12)
        theirs.step()
        s.step()
        t.step()


def test_errors():
    w = Tensor(np.zeros(2, np.float32), requires_grad=True)
    with pytest.raises(ValueError, match=r"SGD: invalid learning rate \(lr = -1.000000 < 0\)"):
        optim.SGD([w], lr=-1)
    with pytest.raises(ValueError, match=r"SGD: invalid nesterov \(nesterov momentum requires a momentum and zero "
                                         r"dampening\)"):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match=r"Adam: invalid beta parameter at index 0 \(not in \[0, 1\)\)"):
        optim.Adam([w], betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="optimizer: got an empty parameter list"):
        optim.Adam([])
    with pytest.raises(onegrad.DTypeError, match="optimizer: can only optimize floating-point tensors, got int32"):
        optim.SGD([Tensor([1, 2])], lr=0.1)
    with pytest.raises(onegrad.ShapeError, match=r"assign: a value of shape \(3,\) for a tensor of shape \(2,\)"):
        w.assign(Tensor(np.zeros(3, np.float32)))
    with pytest.raises(ValueError, match="StepLR: step_size must be positive, got 0"):
        optim.lr_scheduler.StepLR(optim.SGD([w], lr=0.1), step_size=0)


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_memory_is_flat_over_1000_steps():
    w = Tensor(np.zeros((256, 256), np.float32), requires_grad=True)
    g = Tensor(np.full((256, 256), 0.01, np.float32)).realize()
    o = optim.SGD([w], lr=0.1, momentum=0.9)
    samples = []
    for i in range(1000):
        w.grad = g
        o.step()
        if i in (200, 999):
            samples.append(rss_mb())
    assert samples[1] - samples[0] < 8, f"resident memory grew from {samples[0]:.1f} to {samples[1]:.1f} MiB"
    assert np.isfinite(w.numpy()).all()
