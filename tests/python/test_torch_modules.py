"""onegrad.nn modules against torch.nn 1.13 (docs/nn.md "Modules"): torch's
initialised weights are loaded into ours (load_state_dict from numpy arrays), then outputs on random
inputs (atol 1e-5) and the gradients of inputs and parameters after backward (atol 1e-4) are
compared; train/eval behaviour, running statistics, state-dict keys and load errors; a small CNN
trained with Adam step for step; optimizer state dicts saved and reloaded mid-training."""

import math

import numpy as np
import pytest
import torch
import torch.nn as tnn

import onegrad
from onegrad import Tensor, dtypes, nn, optim
from onegrad.errors import DTypeError, ShapeError, StateDictError

OUT_TOL = dict(rtol=1e-4, atol=1e-5)
GRAD_TOL = dict(rtol=1e-4, atol=1e-4)


def copy_weights(ours, theirs):
    """torch's state dict, as numpy arrays, into our module (strict: the keys must agree)."""
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def run_both(ours, theirs, inputs, rng, call=None, grads=True):
    """Forward both modules on the same numpy inputs (floats require grad), backward a random
    weighting of every float output, and compare outputs, input gradients and parameter gradients."""
    call = call or (lambda m, *xs: m(*xs))
    ox = [Tensor(a, requires_grad=grads and a.dtype.kind == "f") for a in inputs]
    tx = [torch.tensor(a, requires_grad=grads and a.dtype.kind == "f") for a in inputs]
    oout, tout = as_tuple(call(ours, *ox)), as_tuple(call(theirs, *tx))
    assert len(oout) == len(tout)
    for o, t in zip(oout, tout):
        if t is None:
            assert o is None
            continue
        assert o.shape == tuple(t.shape)
        np.testing.assert_allclose(o.numpy(), t.detach().numpy(), **OUT_TOL)
    if not grads:
        return
    oloss, tloss = 0, 0
    for o, t in zip(oout, tout):
        if t is None or not t.dtype.is_floating_point:
            continue
        w = rng.standard_normal(tuple(t.shape)).astype(np.float32)
        oloss = oloss + (o * Tensor(w)).sum()
        tloss = tloss + (t * torch.tensor(w)).sum()
    oloss.backward()
    tloss.backward()
    for i, (a, b) in enumerate(zip(ox, tx)):
        if b.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), **GRAD_TOL, err_msg=f"input {i}")
    tparams = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        q = tparams[name]
        assert (p.grad is None) == (q.grad is None), name
        if q.grad is not None:
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), **GRAD_TOL, err_msg=name)


def rand(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


# (id, torch module, our module, input shapes)
LAYERS = [
    ("linear", lambda: tnn.Linear(5, 3), lambda: nn.Linear(5, 3), [(4, 5)]),
    ("linear-3d-nobias", lambda: tnn.Linear(5, 3, bias=False), lambda: nn.Linear(5, 3, bias=False), [(2, 3, 5)]),
    ("conv1d", lambda: tnn.Conv1d(3, 4, 3, stride=2, padding=1), lambda: nn.Conv1d(3, 4, 3, stride=2, padding=1),
     [(2, 3, 10)]),
    ("conv2d", lambda: tnn.Conv2d(3, 4, 3, padding=1), lambda: nn.Conv2d(3, 4, 3, padding=1), [(2, 3, 6, 6)]),
    ("conv2d-groups", lambda: tnn.Conv2d(4, 6, (3, 2), stride=2, dilation=(1, 2), groups=2, bias=False),
     lambda: nn.Conv2d(4, 6, (3, 2), stride=2, dilation=(1, 2), groups=2, bias=False), [(2, 4, 7, 8)]),
    ("conv2d-same", lambda: tnn.Conv2d(2, 3, 3, padding="same"), lambda: nn.Conv2d(2, 3, 3, padding="same"),
     [(1, 2, 5, 5)]),
    ("conv_transpose2d", lambda: tnn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1),
     lambda: nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1), [(2, 4, 4, 4)]),
    ("conv_transpose2d-groups", lambda: tnn.ConvTranspose2d(4, 6, 2, stride=2, groups=2),
     lambda: nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2), [(1, 4, 3, 3)]),
    ("layer_norm", lambda: tnn.LayerNorm(6), lambda: nn.LayerNorm(6), [(2, 4, 6)]),
    ("layer_norm-2d", lambda: tnn.LayerNorm((4, 6), eps=1e-3), lambda: nn.LayerNorm((4, 6), eps=1e-3), [(2, 4, 6)]),
    ("group_norm", lambda: tnn.GroupNorm(2, 4), lambda: nn.GroupNorm(2, 4), [(2, 4, 3, 3)]),
    ("relu", tnn.ReLU, nn.ReLU, [(3, 4)]),
    ("gelu", tnn.GELU, nn.GELU, [(3, 4)]),
    ("gelu-tanh", lambda: tnn.GELU("tanh"), lambda: nn.GELU("tanh"), [(3, 4)]),
    ("tanh", tnn.Tanh, nn.Tanh, [(3, 4)]),
    ("sigmoid", tnn.Sigmoid, nn.Sigmoid, [(3, 4)]),
    ("flatten", tnn.Flatten, nn.Flatten, [(2, 3, 2, 2)]),
    ("maxpool2d", lambda: tnn.MaxPool2d(2), lambda: nn.MaxPool2d(2), [(2, 3, 6, 6)]),
    ("avgpool2d", lambda: tnn.AvgPool2d(3, 2, 1), lambda: nn.AvgPool2d(3, 2, 1), [(2, 3, 7, 7)]),
    ("batchnorm1d-eval", lambda: tnn.BatchNorm1d(4).eval(), lambda: nn.BatchNorm1d(4).eval(), [(5, 4)]),
    ("batchnorm2d-eval", lambda: tnn.BatchNorm2d(3).eval(), lambda: nn.BatchNorm2d(3).eval(), [(2, 3, 4, 4)]),
    ("batchnorm1d-train-3d", lambda: tnn.BatchNorm1d(4), lambda: nn.BatchNorm1d(4), [(3, 4, 5)]),
    ("batchnorm2d-train", lambda: tnn.BatchNorm2d(3), lambda: nn.BatchNorm2d(3), [(2, 3, 4, 4)]),
    ("batchnorm2d-no-affine", lambda: tnn.BatchNorm2d(3, affine=False), lambda: nn.BatchNorm2d(3, affine=False),
     [(2, 3, 4, 4)]),
    ("batchnorm2d-no-stats", lambda: tnn.BatchNorm2d(3, track_running_stats=False).eval(),
     lambda: nn.BatchNorm2d(3, track_running_stats=False).eval(), [(2, 3, 4, 4)]),
    ("sequential", lambda: tnn.Sequential(tnn.Linear(4, 8), tnn.ReLU(), tnn.Linear(8, 2)),
     lambda: nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), [(3, 4)]),
]


@pytest.mark.parametrize("case", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_matches_torch(rng, case):
    _, make_theirs, make_ours, shapes = case
    theirs, ours = make_theirs(), make_ours()
    # random (not torch's default 1/0) affine parameters and running statistics, so they matter
    with torch.no_grad():
        for name, t in theirs.state_dict().items():
            if t.dtype.is_floating_point:
                t.copy_(torch.tensor(rng.uniform(0.5, 1.5, tuple(t.shape)).astype(np.float32)))
    copy_weights(ours, theirs)
    run_both(ours, theirs, [rand(rng, *s) for s in shapes], rng)
    # train-mode BatchNorm moved its running statistics the same way
    for k, v in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[k].numpy(), v.numpy(), **OUT_TOL, err_msg=k)


@pytest.mark.parametrize("padding_idx", [None, 0, -2])
def test_embedding(rng, padding_idx):
    theirs = tnn.Embedding(10, 4, padding_idx=padding_idx)
    ours = nn.Embedding(10, 4, padding_idx=padding_idx)
    if padding_idx is not None:  # starts at zero in both
        np.testing.assert_array_equal(ours.weight.numpy()[padding_idx], np.zeros(4, np.float32))
    copy_weights(ours, theirs)
    idx = rng.integers(0, 10, size=(3, 5)).astype(np.int64)
    idx[0, :2] = (padding_idx or 0) % 10  # the padding row is used: it must get no gradient
    run_both(ours, theirs, [idx], rng)


def test_embedding_rejects_float_indices():
    # the module is the C++ layer: its message names it as C++'s does (tests/nn/module_test.cpp)
    with pytest.raises(DTypeError, match="Embedding: indices must be integers, got float32"):
        nn.Embedding(4, 2)(Tensor([0.0, 1.0]))
    with pytest.raises(DTypeError, match="embedding: indices must be integers, got float32"):
        nn.functional.embedding(Tensor([0.0, 1.0]), Tensor.ones(4, 2))


def test_rms_norm(rng):
    """torch 1.13 has no RMSNorm: its formula in torch ops is the oracle."""
    ours = nn.RMSNorm(6, eps=1e-6)
    w = rng.uniform(0.5, 1.5, 6).astype(np.float32)
    ours.load_state_dict({"weight": w})
    assert list(ours.state_dict()) == ["weight"]

    class TorchRMS(tnn.Module):
        def __init__(self):
            super().__init__()
            self.weight = tnn.Parameter(torch.tensor(w))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight

    run_both(ours, TorchRMS(), [rand(rng, 2, 3, 6)], rng)
    with pytest.raises(ShapeError, match=r"rms_norm: input of shape \(2, 5\) does not end in normalized_shape \(6,\)"):
        ours(Tensor(rand(rng, 2, 5)))


MHA_CASES = [
    ("seq-first", dict(), dict()),
    ("batch-first", dict(batch_first=True), dict()),
    ("no-bias", dict(bias=False), dict()),
    ("per-head-weights", dict(), dict(average_attn_weights=False)),
    ("no-weights", dict(), dict(need_weights=False)),
    ("bool-attn-mask", dict(), dict(attn_mask="bool")),
    ("float-attn-mask", dict(batch_first=True), dict(attn_mask="float")),
    ("3d-attn-mask", dict(), dict(attn_mask="bool3d")),
    ("key-padding-mask", dict(), dict(key_padding_mask=True)),
    ("both-masks", dict(batch_first=True), dict(key_padding_mask=True, attn_mask="bool")),
]


@pytest.mark.parametrize("case", MHA_CASES, ids=[c[0] for c in MHA_CASES])
def test_multihead_attention(rng, case):
    _, ctor, kw = case
    E, H, L, S, N = 8, 2, 3, 4, 2
    theirs, ours = tnn.MultiheadAttention(E, H, **ctor), nn.MultiheadAttention(E, H, **ctor)
    with torch.no_grad():  # torch starts the biases at zero; random ones test them
        for p in theirs.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    copy_weights(ours, theirs)
    bf = ctor.get("batch_first", False)
    q, k, v = (rand(rng, N, n, E) if bf else rand(rng, n, N, E) for n in (L, S, S))
    masks = {}
    if kw.get("attn_mask") == "bool":
        masks["attn_mask"] = np.triu(np.ones((L, S), bool), 2)
    elif kw.get("attn_mask") == "float":
        masks["attn_mask"] = rand(rng, L, S)
    elif kw.get("attn_mask") == "bool3d":
        m = rng.uniform(size=(N * H, L, S)) < 0.3
        m[..., 0] = False  # every row keeps a key (a fully masked row is NaN in both)
        masks["attn_mask"] = m
    if kw.get("key_padding_mask"):
        masks["key_padding_mask"] = np.array([[False] * S, [False] * (S - 1) + [True]])
    opts = {k2: v2 for k2, v2 in kw.items() if k2 not in masks and k2 not in ("attn_mask", "key_padding_mask")}

    def call(m, q_, k_, v_):
        conv = Tensor if m is ours else torch.tensor
        return m(q_, k_, v_, **{n: conv(a) for n, a in masks.items()}, **opts)

    run_both(ours, theirs, [q, k, v], rng, call=call)


def test_multihead_attention_unbatched_and_self(rng):
    theirs, ours = tnn.MultiheadAttention(4, 2), nn.MultiheadAttention(4, 2)
    copy_weights(ours, theirs)
    x = rand(rng, 3, 4)
    run_both(ours, theirs, [x, x, x], rng)
    with pytest.raises(ShapeError, match="embed_dim = 4"):
        ours(Tensor(rand(rng, 3, 1, 5)), Tensor(rand(rng, 3, 1, 5)), Tensor(rand(rng, 3, 1, 5)))


LOSSES = [
    ("cross_entropy", tnn.CrossEntropyLoss, nn.CrossEntropyLoss, dict(), "class"),
    ("cross_entropy-weight-smooth", lambda **k: tnn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]),
                                                                     label_smoothing=0.1),
     lambda **k: nn.CrossEntropyLoss(weight=Tensor([1.0, 2.0, 0.5]), label_smoothing=0.1), dict(), "class"),
    ("nll", tnn.NLLLoss, nn.NLLLoss, dict(reduction="sum"), "class"),
    ("mse", tnn.MSELoss, nn.MSELoss, dict(), "float"),
    ("l1", tnn.L1Loss, nn.L1Loss, dict(reduction="none"), "float"),
    ("bce_with_logits", tnn.BCEWithLogitsLoss, nn.BCEWithLogitsLoss, dict(), "prob"),
]


@pytest.mark.parametrize("case", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_modules(rng, case):
    _, make_theirs, make_ours, kw, target = case
    theirs, ours = make_theirs(**kw), make_ours(**kw)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = rand(rng, 4, 3)
    t = {"class": rng.integers(0, 3, 4).astype(np.int64), "float": rand(rng, 4, 3),
         "prob": rng.uniform(size=(4, 3)).astype(np.float32)}[target]
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    o, w = ours(ox, Tensor(t)), theirs(tx, torch.tensor(t))
    np.testing.assert_allclose(o.numpy(), w.detach().numpy(), **OUT_TOL)
    g = rng.standard_normal(tuple(w.shape)).astype(np.float32)
    (o * Tensor(g)).sum().backward()
    (w * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), **GRAD_TOL)


# ---- train / eval


def test_dropout_train_and_eval(rng):
    x = rng.uniform(1, 2, size=(64, 32)).astype(np.float32)
    d = nn.Dropout(0.25)
    ox = Tensor(x, requires_grad=True)
    y = d(ox)
    out = y.numpy()
    kept = out != 0
    assert 0.6 < kept.mean() < 0.9  # about 3/4 kept
    np.testing.assert_allclose(out[kept], x[kept] / 0.75, rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), kept / 0.75, rtol=1e-6)
    d.eval()
    np.testing.assert_array_equal(d(Tensor(x)).numpy(), x)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        nn.Dropout(1.5)


@pytest.mark.parametrize("momentum", [0.1, 0.5, None])
def test_batchnorm_running_stats_follow_torch(rng, momentum):
    theirs, ours = tnn.BatchNorm2d(3, momentum=momentum), nn.BatchNorm2d(3, momentum=momentum)
    for step in range(4):
        x = rng.uniform(-2, 3, size=(4, 3, 5, 5)).astype(np.float32)
        np.testing.assert_allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), **OUT_TOL)
    for k, v in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[k].numpy(), v.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
    assert ours.num_batches_tracked.dtype == dtypes.int64 and ours.num_batches_tracked.item() == 4
    # eval: the running statistics, unchanged by the call
    theirs.eval(), ours.eval()
    x = rand(rng, 2, 3, 5, 5)
    np.testing.assert_allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), **OUT_TOL)
    assert ours.num_batches_tracked.item() == 4


def test_batchnorm_rank_errors():
    with pytest.raises(ShapeError, match=r"BatchNorm2d: expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(Tensor.zeros(2, 3, 4))
    with pytest.raises(ShapeError, match=r"BatchNorm1d: expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(Tensor.zeros(2, 3, 4, 4))


def test_train_eval_reach_children():
    net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout(), nn.BatchNorm1d(2)))
    assert all(m.training for m in net.modules())
    assert net.eval() is net and not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())


# ---- the Module API and state dicts


def add_block_members(m, lib, tensor):
    """The same members on an onegrad or a torch module (lib: onegrad.nn or torch.nn)."""
    m.conv = lib.Conv2d(1, 2, 3)
    m.bn = lib.BatchNorm2d(2)
    m.head = lib.Sequential(lib.Flatten(), lib.Linear(8, 3))
    m.scale = lib.Parameter(tensor(np.ones(3, np.float32)))
    m.register_buffer("offset", tensor(np.zeros(3, np.float32)))
    m.attn = lib.MultiheadAttention(4, 2)
    m.emb = lib.Embedding(5, 4)


def block_forward(m, x):
    return m.head(m.bn(m.conv(x)).relu()) * m.scale + m.offset


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        add_block_members(self, nn, Tensor)

    forward = block_forward


class TorchBlock(tnn.Module):
    def __init__(self):
        super().__init__()
        add_block_members(self, tnn, torch.tensor)

    forward = block_forward


def test_state_dict_keys_equal_torchs():
    theirs, ours = TorchBlock(), Block()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    for k, v in theirs.state_dict().items():
        assert ours.state_dict()[k].shape == tuple(v.shape), k
        assert ours.state_dict()[k].dtype == dtypes.from_numpy(v.numpy().dtype), k
    copy_weights(ours, theirs)
    x = np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), **OUT_TOL)


def test_load_state_dict_errors_name_keys_and_shapes():
    m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    good = {k: v.numpy() for k, v in m.state_dict().items()}
    before = m[0].weight.numpy()

    missing = dict(good)
    del missing["2.bias"]
    with pytest.raises(StateDictError, match=r'Missing key\(s\) in state_dict: "2.bias"\.') as e:
        m.load_state_dict(missing)
    assert e.value.missing_keys == ["2.bias"] and "Error(s) in loading state_dict for Sequential" in str(e.value)

    with pytest.raises(StateDictError, match=r'Unexpected key\(s\) in state_dict: "extra", "1.weight"\.'):
        m.load_state_dict({**good, "extra": np.zeros(1), "1.weight": np.zeros(1)})

    bad = {**good, "0.weight": np.zeros((3, 5), np.float32)}
    with pytest.raises(StateDictError, match=r"size mismatch for 0.weight: copying a param with shape \(3, 5\) from "
                                             r"checkpoint, the shape in current model is \(3, 4\)\."):
        m.load_state_dict(bad)
    with pytest.raises(StateDictError, match="size mismatch for 0.weight"):
        m.load_state_dict(bad, strict=False)  # shapes are checked even when not strict
    np.testing.assert_array_equal(m[0].weight.numpy(), before)  # nothing was written

    res = m.load_state_dict({"0.weight": np.ones((3, 4)), "junk": np.zeros(2)}, strict=False)
    assert res.missing_keys == ["0.bias", "2.weight", "2.bias"] and res.unexpected_keys == ["junk"]
    np.testing.assert_array_equal(m[0].weight.numpy(), np.ones((3, 4), np.float32))
    assert m[0].weight.dtype == dtypes.float32


def test_load_state_dict_is_in_place_for_optimizers(rng):
    m = nn.Linear(3, 2)
    opt = optim.SGD(m.parameters(), lr=1.0)
    w = rand(rng, 2, 3)
    m.load_state_dict({"weight": w, "bias": np.zeros(2, np.float32)})
    x = Tensor(np.ones((1, 3), np.float32))
    m(x).sum().backward()
    opt.step()  # the optimizer's handles are the loaded tensors: w - 1 * grad (grad = 1)
    np.testing.assert_allclose(m.weight.numpy(), w - 1, rtol=1e-6)


def test_module_api():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.w = nn.Parameter(Tensor.ones(2))
            self.plain = Tensor.zeros(2)  # a plain tensor attribute is not registered

        def forward(self, x):
            return self.fc(x) * self.w

    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["w", "fc.weight", "fc.bias"]
    assert isinstance(net.w, nn.Parameter) and net.w.requires_grad
    assert not isinstance(net.w * 2, nn.Parameter)  # ops on a parameter give tensors
    assert list(net.children()) == [net.fc]
    net(Tensor([[1.0, 2.0]])).sum().backward()
    assert net.w.grad is not None
    net.zero_grad()
    np.testing.assert_array_equal(net.w.grad.numpy(), np.zeros(2, np.float32))
    net.zero_grad(set_to_none=True)
    assert net.w.grad is None
    with pytest.raises(TypeError, match="cannot assign 'int' object to parameter 'w'"):
        net.w = 3
    net.w = None
    assert [n for n, _ in net.named_parameters()] == ["fc.weight", "fc.bias"]
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        net.nope
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        nn.Module()(1)
    shared = nn.Linear(2, 2)
    twice = nn.Sequential(shared, shared)
    assert len(list(twice.parameters())) == 2  # listed once
    assert list(twice.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]  # torch keeps both keys
    assert "Linear(in_features=2, out_features=2, bias=True)" in repr(twice)


def test_default_init_distributions():
    """torch's defaults: kaiming_uniform(a=sqrt(5)) = U(±1/sqrt(fan_in)) for weights and biases."""
    onegrad.manual_seed(1)
    w = nn.Linear(400, 300).weight.numpy()
    b = 1 / math.sqrt(400)
    assert np.abs(w).max() <= b and np.abs(w).max() > 0.99 * b
    assert abs(w.std() - b / math.sqrt(3)) < 0.01 * b
    c = nn.Conv2d(8, 16, 3)
    b = 1 / math.sqrt(8 * 9)
    assert np.abs(c.weight.numpy()).max() <= b and np.abs(c.bias.numpy()).max() <= b
    t = nn.ConvTranspose2d(8, 4, 3)
    assert np.abs(t.weight.numpy()).max() <= 1 / math.sqrt(4 * 9)
    e = nn.Embedding(200, 50).weight.numpy()
    assert abs(e.mean()) < 0.03 and abs(e.std() - 1) < 0.03
    a = nn.MultiheadAttention(16, 4)
    assert np.abs(a.in_proj_weight.numpy()).max() <= math.sqrt(6 / (16 + 48))
    assert not a.in_proj_bias.numpy().any() and not a.out_proj.bias.numpy().any()
    onegrad.manual_seed(1)
    np.testing.assert_array_equal(nn.Linear(400, 300).weight.numpy(), w)  # seeded: reproducible


# ---- training


def cnn(lib):
    return lib.Sequential(lib.Conv2d(1, 4, 3, padding=1), lib.ReLU(), lib.MaxPool2d(2),
                          lib.Conv2d(4, 8, 3, padding=1), lib.ReLU(), lib.MaxPool2d(2),
                          lib.Flatten(), lib.Linear(8 * 2 * 2, 16), lib.ReLU(), lib.Linear(16, 10))


def test_cnn_trains_like_torch_for_5_adam_steps(rng):
    theirs, ours = cnn(tnn), cnn(nn)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_weights(ours, theirs)
    # Adam's first step is lr * g / (|g| + eps). With the default eps (1e-8) a gradient that cancels
    # to near zero makes rounding visible: seed 804900491 gives one of 9.weight's 8.77e-8 here and
    # 7.88e-8 in torch (each sums in its own order), steps of 8.98e-3 and 8.87e-3. eps = 1e-3 bounds
    # the step's sensitivity to g at lr / eps.
    topt = torch.optim.Adam(theirs.parameters(), lr=1e-2, eps=1e-3)
    oopt = optim.Adam(ours.parameters(), lr=1e-2, eps=1e-3)
    tloss_fn, oloss_fn = tnn.CrossEntropyLoss(), nn.CrossEntropyLoss()
    for step in range(5):
        x = rand(rng, 6, 1, 8, 8)
        y = rng.integers(0, 10, 6).astype(np.int64)
        oopt.zero_grad(), topt.zero_grad()
        oloss, tloss = oloss_fn(ours(Tensor(x)), Tensor(y)), tloss_fn(theirs(torch.tensor(x)), torch.tensor(y))
        np.testing.assert_allclose(oloss.item(), tloss.item(), rtol=1e-4, atol=1e-5, err_msg=f"loss, step {step}")
        oloss.backward(), tloss.backward()
        oopt.step(), topt.step()
        for k, v in theirs.state_dict().items():
            np.testing.assert_allclose(ours.state_dict()[k].numpy(), v.numpy(), rtol=1e-4, atol=1e-5,
                                       err_msg=f"{k}, step {step}")


# ---- optimizer state dicts


def train_steps(model, opt, batches):
    for x, y in batches:
        opt.zero_grad()
        ((model(Tensor(x)) - Tensor(y)) ** 2).mean().backward()
        opt.step()


@pytest.mark.parametrize("name,kw", [("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
                                     ("Adam", dict(lr=1e-2, amsgrad=True)), ("AdamW", dict(lr=1e-2))])
def test_optimizer_state_dict_resumes_training(rng, name, kw):
    batches = [(rand(rng, 5, 3), rand(rng, 5, 2)) for _ in range(6)]
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    opt = getattr(optim, name)(model.parameters(), **kw)
    train_steps(model, opt, batches[:3])
    saved_model = {k: v.numpy() for k, v in model.state_dict().items()}
    saved_opt = opt.state_dict()
    # the format: torch's layout
    assert sorted(saved_opt) == ["param_groups", "state"] and saved_opt["param_groups"][0]["params"] == [0, 1, 2, 3]
    assert saved_opt["param_groups"][0]["lr"] == kw["lr"]
    if name != "SGD":
        assert saved_opt["param_groups"][0]["betas"] == (0.9, 0.999)
        assert set(saved_opt["state"][0]) >= {"step", "exp_avg", "exp_avg_sq"} and saved_opt["state"][0]["step"] == 3
    else:
        assert set(saved_opt["state"][0]) == {"step", "momentum_buffer"} and saved_opt["param_groups"][0]["nesterov"]
    saved_opt = {"state": {i: {k: (v.numpy() if isinstance(v, Tensor) else v) for k, v in s.items()}
                           for i, s in saved_opt["state"].items()},
                 "param_groups": saved_opt["param_groups"]}
    train_steps(model, opt, batches[3:])
    continued = {k: v.numpy() for k, v in model.state_dict().items()}

    fresh = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    fresh.load_state_dict(saved_model)
    fresh_opt = getattr(optim, name)(fresh.parameters(), lr=123.0)  # the lr comes from the state dict
    fresh_opt.load_state_dict(saved_opt)
    assert fresh_opt.param_groups[0]["lr"] == kw["lr"]
    train_steps(fresh, fresh_opt, batches[3:])
    for k, v in fresh.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), continued[k], err_msg=k)


def test_optimizer_state_dict_loads_torchs_and_rejects_mismatches(rng):
    """A torch Adam state dict (tensors, step as a tensor, torch-only options) drives our Adam to
    torch's next step."""
    init = [rand(rng, 3, 2), rand(rng, 2)]
    tp = [torch.tensor(a, requires_grad=True) for a in init]
    topt = torch.optim.Adam(tp, lr=0.05)
    for _ in range(3):
        for p in tp:
            p.grad = torch.tensor(rand(rng, *p.shape))
        topt.step()
    op = [Tensor(p.detach().numpy(), requires_grad=True) for p in tp]
    oopt = optim.Adam(op)
    oopt.load_state_dict(topt.state_dict())
    g = [rand(rng, *p.shape) for p in tp]
    for p, q, gi in zip(op, tp, g):
        p.grad, q.grad = Tensor(gi), torch.tensor(gi)
    oopt.step(), topt.step()
    for p, q in zip(op, tp):
        np.testing.assert_allclose(p.numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6)

    sd = oopt.state_dict()
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        optim.Adam([Tensor(init[0], requires_grad=True)]).load_state_dict(sd)
    wrong = {"state": {0: {**sd["state"][0], "exp_avg": np.zeros((5,), np.float32)}}, "param_groups": sd["param_groups"]}
    with pytest.raises(ShapeError, match=r'state "exp_avg" of parameter 0 has shape \(5,\), the parameter has shape '
                                         r"\(3, 2\)"):
        optim.Adam(op).load_state_dict(wrong)


def test_sequential_and_module_list_indexing():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    seq = nn.Sequential(a, b).append(c)
    assert len(seq) == 3 and list(seq) == [a, b, c] and seq[-1] is c
    assert list(seq[1:]) == [b, c] and isinstance(seq[1:], nn.Sequential)
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    ml = nn.ModuleList([a]).extend([c])
    assert len(ml) == 2 and ml[1] is c and [n for n, _ in ml.named_parameters()] == ["0.weight", "0.bias",
                                                                                     "1.weight", "1.bias"]
    from collections import OrderedDict
    named = nn.Sequential(OrderedDict([("fc", a), ("act", b)]))
    assert list(named.state_dict()) == ["fc.weight", "fc.bias"]


LAYER_ERRORS = [
    (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError, "Conv2d: in_channels must be divisible by groups"),
    (lambda: nn.ConvTranspose2d(2, 3, 3, groups=2), ValueError, "ConvTranspose2d: out_channels must be divisible by groups"),
    (lambda: nn.Conv2d(2, 2, 3, padding_mode="reflect"), NotImplementedError, "padding_mode 'reflect' is not supported"),
    (lambda: nn.GroupNorm(3, 4), ValueError, r"GroupNorm: num_channels \(4\) must be divisible by num_groups \(3\)"),
    (lambda: nn.MultiheadAttention(5, 2), ValueError, r"embed_dim \(5\) must be divisible by num_heads \(2\)"),
    (lambda: nn.MultiheadAttention(4, 2, kdim=3), NotImplementedError, "kdim/vdim != embed_dim"),
    (lambda: nn.Embedding(4, 2, padding_idx=4), ValueError, "padding_idx must be within num_embeddings = 4, got 4"),
    (lambda: nn.Embedding(4, 2, max_norm=1.0), NotImplementedError, "max_norm"),
    # the C++ layers' own messages (tests/nn/module_test.cpp checks the same text)
    (lambda: nn.GELU("fast"), ValueError, 'GELU: approximate must be "none" or "tanh", got "fast"'),
    (lambda: nn.Linear(3, 2)(Tensor.zeros(2, 4)), ShapeError,
     r"Linear: input of shape \(2, 4\) does not end in in_features = 3"),
    (lambda: nn.Module().register_buffer("b", 3), TypeError, "cannot assign 'int' object to buffer 'b'"),
    (lambda: nn.Module().register_parameter("a.b", None), KeyError, "parameter name must not contain"),
    (lambda: nn.MultiheadAttention(4, 2)(*[Tensor.zeros(3, 2, 4)] * 3, attn_mask=Tensor.zeros(2, 2)), ShapeError,
     r"attn_mask must have shape \(3, 3\) or \(4, 3, 3\), got \(2, 2\)"),
]


@pytest.mark.parametrize("make,exc,msg", LAYER_ERRORS, ids=[str(i) for i in range(len(LAYER_ERRORS))])
def test_layer_errors(make, exc, msg):
    with pytest.raises(exc, match=msg):
        make()


def test_subclass_must_call_super_init():
    class Bad(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"Bad: call super\(\).__init__\(\) before assigning"):
        Bad()


def test_optimizer_load_state_dict_argument_errors():
    opt = optim.SGD([Tensor.zeros(2).requires_grad_()], lr=0.1)
    with pytest.raises(ValueError, match="expected a dict with 'state' and 'param_groups'"):
        opt.load_state_dict({"x": 1})
    sd = opt.state_dict()
    sd["param_groups"][0]["betas"] = (0.9, 0.99)
    del sd["param_groups"][0]["momentum"]
    with pytest.raises(ValueError, match="SGD.load_state_dict: the options of parameter group 0 differ: unexpected beta1 "
                                         "unexpected beta2 missing momentum"):
        opt.load_state_dict(sd)
