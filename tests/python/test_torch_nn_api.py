"""The everyday torch.nn API against torch 1.13 (docs/nn.md "Modules" and "Functions"): activations,
containers, adaptive pools, losses as modules and functions, normalize and unfold/fold. Each is
run on the same inputs with the same weights (torch's, loaded by name) and compared in output,
input gradients and parameter gradients; each bad argument's message is checked."""

import warnings

import numpy as np
import pytest
import torch
import torch.nn as tnn
import torch.nn.functional as TF
from test_torch_modules import copy_weights, rand, run_both

from onegrad import Tensor, nn
from onegrad.errors import ArgumentError, ShapeError
from onegrad.nn import functional as F

# ---- activations as modules

ACTIVATIONS = [
    ("elu", lambda: tnn.ELU(), lambda: nn.ELU()),
    ("elu-alpha", lambda: tnn.ELU(alpha=0.3), lambda: nn.ELU(alpha=0.3)),
    ("silu", lambda: tnn.SiLU(), lambda: nn.SiLU()),
    ("gelu", lambda: tnn.GELU(), lambda: nn.GELU()),
    ("gelu-tanh", lambda: tnn.GELU(approximate="tanh"), lambda: nn.GELU(approximate="tanh")),
    ("leaky", lambda: tnn.LeakyReLU(0.2), lambda: nn.LeakyReLU(0.2)),
    ("softplus", lambda: tnn.Softplus(beta=2.0, threshold=3.0), lambda: nn.Softplus(beta=2.0, threshold=3.0)),
    ("prelu", lambda: tnn.PReLU(), lambda: nn.PReLU()),
    ("prelu-channels", lambda: tnn.PReLU(4, init=0.1), lambda: nn.PReLU(4, init=0.1)),
    ("logsoftmax-1", lambda: tnn.LogSoftmax(dim=1), lambda: nn.LogSoftmax(dim=1)),
    ("logsoftmax-last", lambda: tnn.LogSoftmax(dim=-1), lambda: nn.LogSoftmax(dim=-1)),
    ("softmax-0", lambda: tnn.Softmax(dim=0), lambda: nn.Softmax(dim=0)),
]


@pytest.mark.parametrize("name,tf,of", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_modules_match_torch(rng, name, tf, of):
    theirs, ours = tf(), of()
    copy_weights(ours, theirs)
    x = rand(rng, 3, 4, 5) * 3
    run_both(ours, theirs, [x], rng)


def test_prelu_initial_weight_and_shape_errors():
    assert nn.PReLU(3, init=0.5).weight.numpy().tolist() == [0.5, 0.5, 0.5]
    assert [k for k, _ in nn.PReLU(3).state_dict().items()] == ["weight"]
    with pytest.raises(ShapeError, match=r"prelu: weight has 3 slopes, but the input \(shape \(2, 4\)\) has 4 "
                                         "channels"):
        nn.PReLU(3)(Tensor(np.zeros((2, 4), np.float32)))
    with pytest.raises(ValueError, match="PReLU: num_parameters must be positive, got 0"):
        nn.PReLU(0)


def test_implicit_softmax_dim_is_torchs_with_its_warning(rng):
    for shape in [(5,), (3, 4), (2, 3, 4), (2, 3, 4, 5)]:
        x = rand(rng, *shape)
        with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
            ours = F.log_softmax(Tensor(x))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = TF.log_softmax(torch.tensor(x))
            want_sm = tnn.Softmax()(torch.tensor(x))
        np.testing.assert_allclose(ours.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            np.testing.assert_allclose(nn.Softmax()(Tensor(x)).numpy(), want_sm.numpy(), rtol=1e-5, atol=1e-6)


# ---- activations as functions

FUNCTIONS = [
    ("silu", lambda x: F.silu(x), lambda x: TF.silu(x)),
    ("leaky_relu", lambda x: F.leaky_relu(x, 0.05), lambda x: TF.leaky_relu(x, 0.05)),
    ("elu", lambda x: F.elu(x, 0.7), lambda x: TF.elu(x, 0.7)),
    ("softplus", lambda x: F.softplus(x), lambda x: TF.softplus(x)),
    ("softplus-beta", lambda x: F.softplus(x, beta=0.5, threshold=1.0), lambda x: TF.softplus(x, 0.5, 1.0)),
    ("gelu", lambda x: F.gelu(x), lambda x: TF.gelu(x)),
    ("gelu-tanh", lambda x: F.gelu(x, approximate="tanh"), lambda x: TF.gelu(x, approximate="tanh")),
    ("log_softmax", lambda x: F.log_softmax(x, dim=0), lambda x: TF.log_softmax(x, dim=0)),
    ("prelu-scalar", lambda x: F.prelu(x, Tensor(np.array([0.3], np.float32))),
     lambda x: TF.prelu(x, torch.tensor([0.3]))),
    ("prelu-channels", lambda x: F.prelu(x, Tensor(np.array([0.1, -0.2, 0.3], np.float32))),
     lambda x: TF.prelu(x, torch.tensor([0.1, -0.2, 0.3]))),
]


@pytest.mark.parametrize("name,of,tf", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_activation_functions_match_torch(rng, name, of, tf):
    x = rand(rng, 2, 3, 4) * 4
    x[0, 0, :2] = 0.0  # the kink of relu-like functions: torch's one-sided gradient
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    oy, ty = of(ox), tf(tx)
    np.testing.assert_allclose(oy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    w = rand(rng, *x.shape)
    (oy * Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_functional_inplace_is_refused():
    x = Tensor(np.ones(3, np.float32))
    for fn in (F.silu, F.elu, F.leaky_relu):
        with pytest.raises(NotImplementedError, match=f"{fn.__name__}: inplace=True is not supported; use the "
                                                      "returned tensor"):
            fn(x, inplace=True)


# ---- normalize

@pytest.mark.parametrize("p,dim", [(2.0, 1), (1.0, 1), (3.0, -1), (float("inf"), 0), (2.0, 0)])
def test_normalize_matches_torch(rng, p, dim):
    x = rand(rng, 4, 5)
    x[1] = 0.0  # a zero row: divided by eps, and its norm's gradient is 0
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    oy, ty = F.normalize(ox, p=p, dim=dim), TF.normalize(tx, p=p, dim=dim)
    np.testing.assert_allclose(oy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    w = rand(rng, 4, 5)
    (oy * Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    assert np.isfinite(ox.grad.numpy()).all()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_normalize_eps_and_bad_p():
    x = np.full((2, 3), 1e-4, np.float32)
    np.testing.assert_allclose(F.normalize(Tensor(x), eps=1.0).numpy(), TF.normalize(torch.tensor(x), eps=1.0).numpy())
    with pytest.raises(NotImplementedError, match=r"normalize: p=-1.0 is not supported \(p must be positive\)"):
        F.normalize(Tensor(x), p=-1)


# ---- unfold / fold

IM2COL = [
    dict(kernel_size=2),
    dict(kernel_size=(2, 3), stride=(1, 2)),
    dict(kernel_size=3, padding=1),
    dict(kernel_size=(3, 2), dilation=(2, 1), padding=(1, 0), stride=2),
]


@pytest.mark.parametrize("kw", IM2COL, ids=[str(k) for k in IM2COL])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_unfold_matches_torch(rng, kw, batched):
    x = rand(rng, *((2, 3, 7, 8) if batched else (3, 7, 8)))
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    oy, ty = F.unfold(ox, **kw), TF.unfold(tx, **kw)
    assert oy.shape == tuple(ty.shape)
    np.testing.assert_array_equal(oy.numpy(), ty.detach().numpy())
    w = rand(rng, *oy.shape)
    (oy * Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    assert nn.Unfold(**kw)(Tensor(x)).shape == oy.shape


@pytest.mark.parametrize("kw", IM2COL, ids=[str(k) for k in IM2COL])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_fold_matches_torch(rng, kw, batched):
    size = (7, 8)
    cols = TF.unfold(torch.zeros(1, 3, *size), **kw).shape[1:]
    x = rand(rng, *(((2,) if batched else ()) + tuple(cols)))
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    oy, ty = F.fold(ox, size, **kw), TF.fold(tx, size, **kw)
    assert oy.shape == tuple(ty.shape)
    np.testing.assert_allclose(oy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    w = rand(rng, *oy.shape)
    (oy * Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(nn.Fold(size, **kw)(Tensor(x)).numpy(), oy.numpy())


def test_unfold_fold_errors():
    x = Tensor(np.zeros((1, 2, 3, 3), np.float32))
    with pytest.raises(ShapeError, match=r"unfold: spatial size \(3, 3\) with kernel_size=\(5, 5\), "
                                         r"dilation=\(1, 1\), padding=\(0, 0\) leaves \(-1, -1\) window positions"):
        F.unfold(x, 5)
    with pytest.raises(ValueError, match=r"unfold: stride must be positive, got \(0, 0\)"):
        F.unfold(x, 2, stride=0)
    with pytest.raises(ValueError, match=r"unfold: padding must be non-negative, got \(-1, -1\)"):
        F.unfold(x, 2, padding=-1)
    with pytest.raises(ValueError, match=r"unfold: kernel_size must be an int or a pair of ints, got \(1, 2, 3\)"):
        F.unfold(x, (1, 2, 3))
    with pytest.raises(ShapeError, match=r"unfold: expected a 3-D \(C, H, W\) or 4-D \(N, C, H, W\) input, got "
                                         r"shape \(1, 1, 2, 3, 3\)"):
        F.unfold(x.unsqueeze(0), 2)
    with pytest.raises(ShapeError, match=r"fold: input dimension 1 \(7\) must be divisible by the product of "
                                         r"kernel_size \(2, 2\) \(4\)"):
        F.fold(Tensor(np.zeros((2, 7, 4), np.float32)), (3, 3), 2)
    with pytest.raises(ShapeError, match=r"fold: output_size=\(3, 3\), kernel_size=\(2, 2\), dilation=\(1, 1\), "
                                         r"padding=\(0, 0\), stride=\(1, 1\) give 2 \* 2 = 4 window positions, but "
                                         "input dimension 2 is 5"):
        F.fold(Tensor(np.zeros((2, 8, 5), np.float32)), (3, 3), 2)


# ---- containers

def test_module_dict_matches_torch_keys_and_order():
    ours = nn.ModuleDict({"conv": nn.Conv2d(1, 2, 3), "act": nn.ReLU()})
    ours["fc"] = nn.Linear(4, 2)
    theirs = tnn.ModuleDict({"conv": tnn.Conv2d(1, 2, 3), "act": tnn.ReLU()})
    theirs["fc"] = tnn.Linear(4, 2)
    assert list(ours.keys()) == list(theirs.keys()) == ["conv", "act", "fc"]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_weights(ours, theirs)
    assert "fc" in ours and len(ours) == 3 and isinstance(ours["act"], nn.ReLU)
    assert [k for k, _ in ours.items()] == list(ours)
    popped = ours.pop("act")
    assert isinstance(popped, nn.ReLU) and list(ours) == ["conv", "fc"]
    ours.update([("act", nn.Tanh())])
    assert list(ours) == ["conv", "fc", "act"]
    with pytest.raises(KeyError, match="ModuleDict: no module named 'missing'"):
        ours["missing"]
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        ours["x"] = 3
    with pytest.raises(TypeError, match=r"ModuleDict.update: expected \(name, module\) pairs, got str"):
        ours.update(["ab"])


def test_parameter_dict_shares_the_dict_protocol():
    ours = nn.ParameterDict({"a": Tensor(np.ones(2, np.float32)), "b": Tensor(np.zeros(3, np.float32))})
    theirs = tnn.ParameterDict({"a": tnn.Parameter(torch.ones(2)), "b": tnn.Parameter(torch.zeros(3))})
    ours.update([("c", Tensor(np.ones(1, np.float32)))])
    theirs.update([("c", tnn.Parameter(torch.ones(1)))])
    assert list(ours) == list(theirs) == ["a", "b", "c"] and "b" in ours and len(ours) == 3
    assert ours.pop("b").shape == (3,) and list(ours.state_dict()) == ["a", "c"]
    with pytest.raises(TypeError, match=r"ParameterDict.update: expected \(name, parameter\) pairs, got str"):
        ours.update(["ab"])
    ours.clear()
    theirs.clear()
    assert len(ours) == len(theirs) == 0 and list(ours.parameters()) == []


def test_module_list_indexing_and_edits():
    ours = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 3)])
    theirs = tnn.ModuleList([tnn.Linear(2, 2), tnn.ReLU(), tnn.Linear(2, 3)])
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert isinstance(ours[-1], nn.Linear) and len(ours[1:]) == 2
    del ours[1]
    del theirs[1]
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    ours.insert(0, nn.Tanh())
    theirs.insert(0, tnn.Tanh())
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours[0] = nn.Linear(2, 2)
    assert list(ours.state_dict())[:2] == ["0.weight", "0.bias"]
    assert len(ours + nn.ModuleList([nn.ReLU()])) == 4
    with pytest.raises(IndexError, match="ModuleList: index 7 is out of range for 3 entries"):
        ours[7]
    with pytest.raises(TypeError, match="ModuleList indices must be integers or slices, not str"):
        ours["a"]


def test_parameter_list_and_dict_register_parameters(rng):
    a, b = rand(rng, 2, 3), rand(rng, 3)
    ours = nn.ParameterList([nn.Parameter(Tensor(a)), Tensor(b)])  # a plain tensor becomes a Parameter
    theirs = tnn.ParameterList([tnn.Parameter(torch.tensor(a)), tnn.Parameter(torch.tensor(b))])
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["0", "1"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in ours)
    assert len(list(ours.parameters())) == 2 and ours[-1].shape == (3,)
    ours.append(Tensor(a))
    assert len(ours) == 3 and list(ours.state_dict()) == ["0", "1", "2"]
    with pytest.raises(TypeError, match="ParameterList: expected a Parameter or a Tensor, got int"):
        ours.append(3)
    with pytest.raises(IndexError, match="ParameterList: index 3 is out of range for 3 entries"):
        ours[3]

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.scales = nn.ParameterDict({"x": nn.Parameter(Tensor(b)), "y": Tensor(b * 2)})

        def forward(self, x):
            return x * self.scales["x"] + self.scales["y"]

    class TModel(tnn.Module):
        def __init__(self):
            super().__init__()
            self.scales = tnn.ParameterDict({"x": tnn.Parameter(torch.tensor(b)), "y": tnn.Parameter(torch.tensor(b * 2))})

        def forward(self, x):
            return x * self.scales["x"] + self.scales["y"]

    om, tm = Model(), TModel()
    assert list(om.state_dict()) == list(tm.state_dict()) == ["scales.x", "scales.y"]
    run_both(om, tm, [rand(rng, 4, 3)], rng)
    assert "x" in om.scales and list(om.scales.keys()) == ["x", "y"]
    om.scales.pop("y")
    assert list(om.state_dict()) == ["scales.x"]
    with pytest.raises(KeyError, match="ParameterDict: no parameter named 'z'"):
        om.scales["z"]


# ---- adaptive pools as modules

POOLS = [
    ("avg1d", lambda: tnn.AdaptiveAvgPool1d(3), lambda: nn.AdaptiveAvgPool1d(3), (2, 3, 10)),
    ("avg2d", lambda: tnn.AdaptiveAvgPool2d((3, 2)), lambda: nn.AdaptiveAvgPool2d((3, 2)), (2, 3, 7, 9)),
    ("avg2d-none", lambda: tnn.AdaptiveAvgPool2d((None, 4)), lambda: nn.AdaptiveAvgPool2d((None, 4)), (2, 3, 5, 9)),
    ("avg2d-unbatched", lambda: tnn.AdaptiveAvgPool2d(1), lambda: nn.AdaptiveAvgPool2d(1), (3, 5, 6)),
    ("max1d", lambda: tnn.AdaptiveMaxPool1d(4), lambda: nn.AdaptiveMaxPool1d(4), (2, 3, 10)),
    ("max2d", lambda: tnn.AdaptiveMaxPool2d((2, 3)), lambda: nn.AdaptiveMaxPool2d((2, 3)), (2, 3, 7, 8)),
    ("avg3d", lambda: tnn.AdaptiveAvgPool3d(2), lambda: nn.AdaptiveAvgPool3d(2), (1, 2, 5, 4, 6)),
]


@pytest.mark.parametrize("name,tf,of,shape", POOLS, ids=[p[0] for p in POOLS])
def test_adaptive_pool_modules_match_torch(rng, name, tf, of, shape):
    run_both(of(), tf(), [rand(rng, *shape)], rng)



# ---- losses

def _targets(rng, kind, shape):
    if kind == "real":
        return rand(rng, *shape)
    if kind == "prob":
        p = rng.random(shape).astype(np.float32) + 0.05
        p[..., 0] = 0.0  # a zero probability: its term is 0 (xlogy)
        return p / p.sum(-1, keepdims=True)
    raise AssertionError(kind)


LOSSES = [
    ("mse", lambda r: tnn.MSELoss(reduction=r), lambda r: nn.MSELoss(reduction=r), "real"),
    ("l1", lambda r: tnn.L1Loss(reduction=r), lambda r: nn.L1Loss(reduction=r), "real"),
    ("smooth_l1", lambda r: tnn.SmoothL1Loss(reduction=r), lambda r: nn.SmoothL1Loss(reduction=r), "real"),
    ("smooth_l1-beta", lambda r: tnn.SmoothL1Loss(reduction=r, beta=0.3),
     lambda r: nn.SmoothL1Loss(reduction=r, beta=0.3), "real"),
    ("smooth_l1-beta0", lambda r: tnn.SmoothL1Loss(reduction=r, beta=0.0),
     lambda r: nn.SmoothL1Loss(reduction=r, beta=0.0), "real"),
    ("huber", lambda r: tnn.HuberLoss(reduction=r), lambda r: nn.HuberLoss(reduction=r), "real"),
    ("huber-delta", lambda r: tnn.HuberLoss(reduction=r, delta=0.4), lambda r: nn.HuberLoss(reduction=r, delta=0.4),
     "real"),
    ("kl_div", lambda r: tnn.KLDivLoss(reduction=r), lambda r: nn.KLDivLoss(reduction=r), "prob"),
]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name,tf,of,kind", LOSSES, ids=[x[0] for x in LOSSES])
def test_pointwise_losses_match_torch(rng, name, tf, of, kind, reduction):
    x = rand(rng, 4, 5) * 2
    if kind == "prob":
        x = np.log(_targets(rng, "prob", (4, 5)) + 0.1).astype(np.float32)
    t = _targets(rng, kind, (4, 5))
    # the target is data, not differentiated (torch's kl_div gradient for a zero target is NaN)
    call = (lambda m, x, t: m(x, t.detach())) if kind == "prob" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that kl_div's "mean" is not the KL divergence
        run_both(of(reduction), tf(reduction), [x, t], rng, call=call)


@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("reduction", ["batchmean", "sum"])
def test_kl_div_batchmean_and_log_target(rng, reduction, log_target):
    x = np.log(_targets(rng, "prob", (3, 6)) + 0.2).astype(np.float32)
    t = _targets(rng, "prob", (3, 6))
    if log_target:
        t = np.log(t + 0.1).astype(np.float32)
    run_both(nn.KLDivLoss(reduction=reduction, log_target=log_target),
             tnn.KLDivLoss(reduction=reduction, log_target=log_target), [x, t], rng,
             call=lambda m, x, t: m(x, t.detach()))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("margin", [0.0, 0.3])
@pytest.mark.parametrize("batched", [True, False])
def test_cosine_embedding_loss_matches_torch(rng, reduction, margin, batched):
    shape = (6, 4) if batched else (4,)
    a, b = rand(rng, *shape), rand(rng, *shape)
    y = rng.choice([-1.0, 1.0], size=shape[:-1]).astype(np.float32)
    if batched:
        b[0] = 0.0  # a zero vector: EPSILON keeps the cosine finite, as torch's
    run_both(nn.CosineEmbeddingLoss(margin=margin, reduction=reduction),
             tnn.CosineEmbeddingLoss(margin=margin, reduction=reduction), [a, b, y], rng,
             call=lambda m, x1, x2, t: m(x1, x2, t.detach() if hasattr(t, "detach") else t))


def test_losses_broadcast_the_target_as_torch(rng):
    x, t = rand(rng, 3, 4), rand(rng, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about the broadcast
        want = TF.smooth_l1_loss(torch.tensor(x), torch.tensor(t))
    np.testing.assert_allclose(F.smooth_l1_loss(Tensor(x), Tensor(t)).numpy(), want.numpy(), rtol=1e-6)


def test_loss_errors():
    x = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(ArgumentError, match=r"smooth_l1_loss: 'avg' is not a valid value for reduction "
                                            r"\(none, mean, sum\)"):
        F.smooth_l1_loss(x, x, reduction="avg")
    with pytest.raises(ArgumentError, match=r"kl_div: 'batch' is not a valid value for reduction "
                                            r"\(none, batchmean, mean, sum\)"):
        F.kl_div(x, x, reduction="batch")
    with pytest.raises(ArgumentError, match="huber_loss: delta must be positive, got 0"):
        F.huber_loss(x, x, delta=0)
    with pytest.raises(ArgumentError, match="smooth_l1_loss: beta must be non-negative, got -1"):
        F.smooth_l1_loss(x, x, beta=-1)
    with pytest.raises(ShapeError, match=r"huber_loss: input shape \(2, 3\) and target shape \(4,\) do not "
                                         "broadcast"):
        F.huber_loss(x, Tensor(np.zeros(4, np.float32)))
    with pytest.raises(ShapeError, match=r"cosine_embedding_loss: target shape \(3,\) must be the inputs' shape "
                                         r"\(2, 3\) without the last axis"):
        F.cosine_embedding_loss(x, x, Tensor(np.ones(3, np.float32)))
    with pytest.raises(ShapeError, match=r"cosine_embedding_loss: expected two 1-D or 2-D inputs of one shape, "
                                         r"got \(2, 3\) and \(3, 2\)"):
        F.cosine_embedding_loss(x, x.reshape(3, 2), Tensor(np.ones(2, np.float32)))


def test_gradients_stay_finite_at_the_ends_of_log1p_and_expm1():
    """log1p/expm1 take an exact branch near 0 and at overflow; the other branch's gradient used to
    be 0·inf = NaN there, which reached softplus, ELU and BCE-with-logits."""
    x = np.array([-60.0, -30.0, -1e-9, 0.0, 1e-9, 1e-3, 0.7, 30.0, 60.0], np.float32)
    cases = [
        (lambda t: t.log1p(), lambda t: t.log1p(), x[2:]),
        (lambda t: t.expm1(), lambda t: t.expm1(), x[:-1]),
        (lambda t: F.softplus(t), lambda t: TF.softplus(t), x),
        (lambda t: F.softplus(t, beta=2.0, threshold=3.0), lambda t: TF.softplus(t, 2.0, 3.0), x),
        (lambda t: F.elu(t), lambda t: TF.elu(t), x),
        (lambda t: F.binary_cross_entropy_with_logits(t, Tensor(np.ones_like(x)), reduction="none"),
         lambda t: TF.binary_cross_entropy_with_logits(t, torch.ones_like(t), reduction="none"), x),
    ]
    for i, (of, tf, data) in enumerate(cases):
        ox, tx = Tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
        of(ox).sum().backward()
        tf(tx).sum().backward()
        np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-7, err_msg=f"case {i}")
