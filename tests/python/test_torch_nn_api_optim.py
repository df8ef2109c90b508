"""RMSprop and Adagrad against torch.optim 1.13 (src/nn/rmsprop.cpp, adagrad.cpp; docs/nn.md
"Optimizers and schedules"): the same parameters and hand-set random gradients, parameters
compared after every step; state dicts exchanged with torch in both directions; torch's checks."""

import numpy as np
import pytest
import torch

from onegrad import Tensor, optim

CASES = [
    ("RMSprop", dict(lr=1e-2)),
    ("RMSprop", dict(lr=1e-2, alpha=0.9, eps=1e-6, weight_decay=0.1)),
    ("RMSprop", dict(lr=1e-2, momentum=0.9)),
    ("RMSprop", dict(lr=1e-2, centered=True)),
    ("RMSprop", dict(lr=5e-3, momentum=0.5, centered=True, weight_decay=0.05)),
    ("RMSprop", dict(lr=1e-2, maximize=True, momentum=0.3)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.05)),
    ("Adagrad", dict(lr=0.1, weight_decay=0.2, initial_accumulator_value=0.5, eps=1e-6)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, maximize=True)),
]


def _id(name, kw):
    return f"{name}-" + "-".join(f"{k}={v}" for k, v in kw.items())


def _set_grads(rng, ours, theirs, dt):
    for p, q in zip(ours, theirs):
        g = rng.standard_normal(p.shape).astype(dt)
        p.grad = Tensor(g)
        q.grad = torch.tensor(g)


def _compare(ours, theirs, dt, what):
    rtol, atol = (1e-5, 1e-6) if dt == np.float32 else (1e-12, 1e-12)
    for i, (p, q) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(p.numpy(), q.detach().numpy(), rtol=rtol, atol=atol,
                                   err_msg=f"{what}, parameter {i}")


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("name,kw", CASES, ids=[_id(n, kw) for n, kw in CASES])
def test_steps_match_torch(rng, name, kw, dt):
    init = [rng.standard_normal(s).astype(dt) for s in [(4, 3), (3,)]]
    ours = [Tensor(a, requires_grad=True) for a in init]
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    o = getattr(optim, name)(ours, **kw)
    t = getattr(torch.optim, name)(theirs, **kw)
    for step in range(12):
        _set_grads(rng, ours, theirs, dt)
        o.step()
        t.step()
        _compare(ours, theirs, dt, f"step {step}")


@pytest.mark.parametrize("name,kw", [CASES[4], CASES[3], CASES[2], CASES[8]],
                         ids=[_id(*CASES[i]) for i in (4, 3, 2, 8)])
def test_state_dict_to_and_from_torch(rng, name, kw):
    """Three steps in torch, its state dict loaded into ours, three more in both; and back:
    our state dict has torch's keys, and torch continues from it."""
    dt = np.float32
    init = [rng.standard_normal(s).astype(dt) for s in [(3, 2), (2,)]]
    ours = [Tensor(a, requires_grad=True) for a in init]
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    t = getattr(torch.optim, name)(theirs, **kw)
    for _ in range(3):
        for q in theirs:
            q.grad = torch.tensor(rng.standard_normal(tuple(q.shape)).astype(dt))
        t.step()
    ours = [Tensor(q.detach().numpy().copy(), requires_grad=True) for q in theirs]
    o = getattr(optim, name)(ours, **kw)
    o.load_state_dict(t.state_dict())
    for step in range(3):
        _set_grads(rng, ours, theirs, dt)
        o.step()
        t.step()
        _compare(ours, theirs, dt, f"step {step} after loading torch's state")
    ours_sd, theirs_sd = o.state_dict(), t.state_dict()
    for i, entry in theirs_sd["state"].items():
        assert set(ours_sd["state"][i]) == set(entry), f"state keys of parameter {i}"
        for k, v in entry.items():
            if k != "step":
                np.testing.assert_allclose(ours_sd["state"][i][k].numpy(), v.numpy(), rtol=1e-5, atol=1e-6)
    fresh = [torch.tensor(p.numpy(), requires_grad=True) for p in ours]
    t2 = getattr(torch.optim, name)(fresh, **kw)
    sd = {"state": {i: {k: (torch.tensor(float(v)) if k == "step" and name == "Adagrad" else
                            v if k == "step" else torch.tensor(v.numpy()))
                        for k, v in e.items()} for i, e in ours_sd["state"].items()},
          "param_groups": [dict(g, **{k: v for k, v in t.state_dict()["param_groups"][0].items()
                                      if k not in g}) for g in ours_sd["param_groups"]]}
    t2.load_state_dict(sd)
    _set_grads(rng, ours, fresh, dt)
    o.step()
    t2.step()
    _compare(ours, fresh, dt, "torch after loading our state")


def test_lr_schedule_drives_the_new_optimizers(rng):
    a = rng.standard_normal(4).astype(np.float32)
    for name in ("RMSprop", "Adagrad"):
        ours, theirs = [Tensor(a, requires_grad=True)], [torch.tensor(a, requires_grad=True)]
        o, t = getattr(optim, name)(ours, lr=0.05), getattr(torch.optim, name)(theirs, lr=0.05)
        so, st = optim.lr_scheduler.StepLR(o, 2, 0.5), torch.optim.lr_scheduler.StepLR(t, 2, 0.5)
        for step in range(6):
            _set_grads(rng, ours, theirs, np.float32)
            o.step()
            t.step()
            so.step()
            st.step()
            _compare(ours, theirs, np.float32, f"{name} step {step}")


def test_param_groups_with_own_options(rng):
    a, b = rng.standard_normal(3).astype(np.float32), rng.standard_normal(2).astype(np.float32)
    ours = [Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)]
    theirs = [torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)]
    o = optim.RMSprop([{"params": [ours[0]]}, {"params": [ours[1]], "momentum": 0.5, "centered": True}], lr=0.01)
    t = torch.optim.RMSprop([{"params": [theirs[0]]}, {"params": [theirs[1]], "momentum": 0.5, "centered": True}],
                            lr=0.01)
    assert o.param_groups[1]["centered"] == 1.0 and o.param_groups[0]["momentum"] == 0.0
    for step in range(5):
        _set_grads(rng, ours, theirs, np.float32)
        o.step()
        t.step()
        _compare(ours, theirs, np.float32, f"step {step}")
    assert set(o.state_dict()["state"][1]) == {"step", "square_avg", "momentum_buffer", "grad_avg"}
    assert set(o.state_dict()["state"][0]) == {"step", "square_avg"}


BAD = [
    ("RMSprop", dict(lr=-1.0), r"RMSprop: invalid learning rate \(lr = -1.000000 < 0\)"),
    ("RMSprop", dict(eps=-1e-8), r"RMSprop: invalid epsilon value \(eps < 0\)"),
    ("RMSprop", dict(momentum=-0.1), r"RMSprop: invalid momentum value \(momentum < 0\)"),
    ("RMSprop", dict(weight_decay=-1), r"RMSprop: invalid weight_decay value \(weight_decay < 0\)"),
    ("RMSprop", dict(alpha=-0.5), r"RMSprop: invalid alpha value \(alpha < 0\)"),
    ("Adagrad", dict(lr=-0.1), r"Adagrad: invalid learning rate \(lr = -0.100000 < 0\)"),
    ("Adagrad", dict(lr_decay=-1), r"Adagrad: invalid lr_decay value \(lr_decay < 0\)"),
    ("Adagrad", dict(weight_decay=-1), r"Adagrad: invalid weight_decay value \(weight_decay < 0\)"),
    ("Adagrad", dict(initial_accumulator_value=-1),
     r"Adagrad: invalid initial_accumulator_value \(initial_accumulator_value < 0\)"),
    ("Adagrad", dict(eps=-1), r"Adagrad: invalid epsilon value \(eps < 0\)"),
]


@pytest.mark.parametrize("name,kw,msg", BAD, ids=[_id(n, kw) for n, kw, _ in BAD])
def test_bad_options_raise_as_torch(name, kw, msg):
    w = Tensor(np.zeros(2, np.float32), requires_grad=True)
    with pytest.raises(ValueError, match=msg):
        getattr(optim, name)([w], **kw)
    with pytest.raises(ValueError):  # torch refuses the same value
        getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)], **kw)


def test_loading_state_of_another_layout_raises():
    w = Tensor(np.zeros(2, np.float32), requires_grad=True)
    o = optim.RMSprop([w], lr=0.1, momentum=0.9)
    w.grad = Tensor(np.ones(2, np.float32))
    o.step()
    sd = o.state_dict()
    plain = optim.RMSprop([Tensor(np.zeros(2, np.float32), requires_grad=True)], lr=0.1)
    sd_plain = plain.state_dict()
    # momentum_buffer without momentum in the loaded options: the state's names do not fit them
    sd["param_groups"][0]["momentum"] = 0.0
    with pytest.raises(ValueError, match=r'RMSprop.load_state_dict: unexpected state "momentum_buffer" for '
                                         r'parameter 0'):
        plain.load_state_dict(sd)
    assert plain.state_dict()["param_groups"] == sd_plain["param_groups"]  # nothing changed
    with pytest.raises(ValueError, match="optimizer: unknown option 'betas' in a parameter group"):
        optim.Adagrad([{"params": [w], "betas": (0.9, 0.99)}])
