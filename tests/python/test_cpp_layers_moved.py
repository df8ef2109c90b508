"""The layers that moved to the C++ layer table (docs/nn.md "One module system"): Softmax and
LogSoftmax, the pools, the losses, the transformer layers and their stacks. Each Python class is a
thin CppLayer over the C++ layer; torch 1.13 is the oracle for the outputs, the input and parameter
gradients and the state-dict keys (with torch's weights loaded); a deep copy of each is independent
of the original; a Python callable activation still works in the transformer layers."""

import copy
import pickle
import warnings

import numpy as np
import pytest
import torch
import torch.nn as tnn
import torch.nn.functional as TF
from test_torch_modules import copy_weights, rand, run_both

from onegrad import Tensor, _C, nn
from onegrad.nn import functional as F

MOVED = ["Softmax", "LogSoftmax", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
         "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
         "AdaptiveMaxPool3d", "L1Loss", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss",
         "SmoothL1Loss", "HuberLoss", "KLDivLoss", "CosineEmbeddingLoss", "TransformerEncoderLayer",
         "TransformerDecoderLayer"]


def test_every_moved_layer_is_its_cpp_layer():
    names = _C.nn.layer_names()
    for name in MOVED:
        assert name in names, name
        cls = getattr(nn, name)
        assert issubclass(cls, nn.CppLayer) and cls._cpp_name == name, name


# (id, torch module, our module, input shapes)
STATELESS = [
    ("softmax", lambda: tnn.Softmax(1), lambda: nn.Softmax(1), [(3, 4, 2)]),
    ("softmax-neg", lambda: tnn.Softmax(-1), lambda: nn.Softmax(dim=-1), [(3, 5)]),
    ("log_softmax", lambda: tnn.LogSoftmax(0), lambda: nn.LogSoftmax(0), [(4, 3)]),
    ("max1d", lambda: tnn.MaxPool1d(3, 2, 1), lambda: nn.MaxPool1d(3, 2, 1), [(2, 3, 9)]),
    ("max2d-dil-ceil", lambda: tnn.MaxPool2d(2, 2, 0, 2, ceil_mode=True),
     lambda: nn.MaxPool2d(2, 2, 0, 2, ceil_mode=True), [(1, 2, 7, 8)]),
    ("max3d", lambda: tnn.MaxPool3d(2), lambda: nn.MaxPool3d(2), [(1, 2, 4, 4, 6)]),
    ("max2d-indices", lambda: tnn.MaxPool2d(3, 2, 1, return_indices=True),
     lambda: nn.MaxPool2d(3, 2, 1, return_indices=True), [(2, 2, 7, 6)]),
    ("max1d-indices", lambda: tnn.MaxPool1d(2, return_indices=True), lambda: nn.MaxPool1d(2, return_indices=True),
     [(2, 3, 8)]),
    ("avg1d", lambda: tnn.AvgPool1d(3, 2, 1, count_include_pad=False),
     lambda: nn.AvgPool1d(3, 2, 1, count_include_pad=False), [(2, 3, 9)]),
    ("avg2d-divisor", lambda: tnn.AvgPool2d(2, divisor_override=3), lambda: nn.AvgPool2d(2, divisor_override=3),
     [(2, 2, 6, 6)]),
    ("avg2d-ceil", lambda: tnn.AvgPool2d(3, 2, 1, ceil_mode=True), lambda: nn.AvgPool2d(3, 2, 1, ceil_mode=True),
     [(1, 2, 6, 7)]),
    ("avg3d", lambda: tnn.AvgPool3d((2, 1, 2)), lambda: nn.AvgPool3d((2, 1, 2)), [(1, 2, 4, 3, 4)]),
    ("adaptive-avg1d", lambda: tnn.AdaptiveAvgPool1d(3), lambda: nn.AdaptiveAvgPool1d(3), [(2, 3, 10)]),
    ("adaptive-avg2d-none", lambda: tnn.AdaptiveAvgPool2d((None, 3)), lambda: nn.AdaptiveAvgPool2d((None, 3)),
     [(2, 3, 5, 7)]),
    ("adaptive-avg3d", lambda: tnn.AdaptiveAvgPool3d(2), lambda: nn.AdaptiveAvgPool3d(2), [(1, 2, 5, 4, 6)]),
    ("adaptive-max2d-indices", lambda: tnn.AdaptiveMaxPool2d((2, 3), return_indices=True),
     lambda: nn.AdaptiveMaxPool2d((2, 3), return_indices=True), [(2, 3, 7, 8)]),
    ("adaptive-max1d", lambda: tnn.AdaptiveMaxPool1d(4), lambda: nn.AdaptiveMaxPool1d(4), [(2, 3, 10)]),
    ("adaptive-max3d-indices", lambda: tnn.AdaptiveMaxPool3d((2, 1, 3), return_indices=True),
     lambda: nn.AdaptiveMaxPool3d((2, 1, 3), return_indices=True), [(1, 2, 4, 3, 6)]),
]


@pytest.mark.parametrize("name,tf,of,shapes", STATELESS, ids=[s[0] for s in STATELESS])
def test_stateless_layers_match_torch(rng, name, tf, of, shapes):
    ours, theirs = of(), tf()
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == []
    run_both(ours, theirs, [rand(rng, *s) for s in shapes], rng)


def test_softmax_without_dim_picks_torchs_axis_and_warns(rng):
    for shape in [(5,), (3, 4), (2, 3, 4), (2, 3, 4, 2)]:
        x = rand(rng, *shape)
        for ours, theirs in [(nn.Softmax(), tnn.Softmax()), (nn.LogSoftmax(), tnn.LogSoftmax())]:
            with pytest.warns(UserWarning, match="Implicit dimension choice for (log_)?softmax has been deprecated"):
                got = ours(Tensor(x)).numpy()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = theirs(torch.tensor(x)).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _targets(rng, kind, shape):
    if kind == "class":
        return rng.integers(0, shape[1], shape[:1] + shape[2:]).astype(np.int64)
    if kind == "prob":
        return rng.random(shape).astype(np.float32)
    if kind == "sign":
        return np.where(rng.random(shape[:1]) < 0.5, -1.0, 1.0).astype(np.float32)
    return rand(rng, *shape)


W3 = np.float32([0.5, 2.0, 1.0])
# (id, torch loss, our loss, input shape, target kind, input transform for both)
LOSSES = [
    ("l1-sum", lambda: tnn.L1Loss(reduction="sum"), lambda: nn.L1Loss(reduction="sum"), (3, 4), "real"),
    ("mse-legacy-size_average", lambda: tnn.MSELoss(size_average=False), lambda: nn.MSELoss(size_average=False),
     (3, 4), "real"),
    ("mse-legacy-reduce", lambda: tnn.MSELoss(reduce=False), lambda: nn.MSELoss(reduce=False), (3, 4), "real"),
    ("nll-weight", lambda: tnn.NLLLoss(torch.tensor(W3), ignore_index=1),
     lambda: nn.NLLLoss(Tensor(W3), ignore_index=1), (5, 3), "class"),
    ("cross_entropy-weight-smoothing", lambda: tnn.CrossEntropyLoss(weight=torch.tensor(W3), label_smoothing=0.2),
     lambda: nn.CrossEntropyLoss(weight=Tensor(W3), label_smoothing=0.2), (4, 3, 2), "class"),
    ("cross_entropy-legacy", lambda: tnn.CrossEntropyLoss(None, False), lambda: nn.CrossEntropyLoss(None, False),
     (4, 3), "class"),
    ("bce-weight", lambda: tnn.BCELoss(torch.tensor(W3)), lambda: nn.BCELoss(Tensor(W3)), (4, 3), "prob"),
    ("bce_logits-pos_weight", lambda: tnn.BCEWithLogitsLoss(pos_weight=torch.tensor(W3), reduction="sum"),
     lambda: nn.BCEWithLogitsLoss(pos_weight=Tensor(W3), reduction="sum"), (4, 3), "prob"),
    ("bce_logits-both", lambda: tnn.BCEWithLogitsLoss(torch.tensor(W3), pos_weight=torch.tensor(W3)),
     lambda: nn.BCEWithLogitsLoss(Tensor(W3), pos_weight=Tensor(W3)), (4, 3), "prob"),
    ("smooth_l1", lambda: tnn.SmoothL1Loss(beta=0.4), lambda: nn.SmoothL1Loss(beta=0.4), (3, 4), "real"),
    ("huber", lambda: tnn.HuberLoss("sum", 0.7), lambda: nn.HuberLoss("sum", 0.7), (3, 4), "real"),
    ("kl_div", lambda: tnn.KLDivLoss(reduction="batchmean", log_target=True),
     lambda: nn.KLDivLoss(reduction="batchmean", log_target=True), (3, 4), "real"),
]


@pytest.mark.parametrize("name,tf,of,shape,kind", LOSSES, ids=[l[0] for l in LOSSES])
def test_losses_match_torch(rng, name, tf, of, shape, kind):
    ours, theirs = of(), tf()
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert ours.reduction == theirs.reduction
    x = rand(rng, *shape)
    if name.startswith("bce-"):
        x = 1 / (1 + np.exp(-x))  # probabilities
    target = _targets(rng, kind, shape)
    # torch has no gradient for a BCE target: the target is a constant in both
    run_both(ours, theirs, [x, target], rng, call=lambda m, a, t: m(a, t.detach()))


def test_cosine_embedding_loss_matches_torch(rng):
    ours, theirs = nn.CosineEmbeddingLoss(0.2, reduction="sum"), tnn.CosineEmbeddingLoss(0.2, reduction="sum")
    run_both(ours, theirs, [rand(rng, 4, 5), rand(rng, 4, 5), _targets(rng, "sign", (4, 5))], rng,
             call=lambda m, a, b, t: m(a, b, t.detach()))


def test_a_losss_class_weight_is_its_cpp_buffer():
    w = Tensor(W3)
    loss = nn.CrossEntropyLoss(weight=w)
    assert dict(loss.named_buffers()).keys() == {"weight"}
    x, t = Tensor(np.zeros((2, 3), np.float32)), Tensor(np.int64([0, 1]))
    loss.load_state_dict({"weight": np.float32([1.0, 1.0, 1.0])})
    np.testing.assert_allclose(loss(x, t).numpy(), np.log(3), rtol=1e-6)  # the C++ forward reads the new weight
    assert nn.CrossEntropyLoss().weight is None and "weight" not in nn.CrossEntropyLoss().state_dict()


def test_argument_errors_of_the_moved_layers():
    with pytest.raises(ValueError,
                       match=r"AdaptiveAvgPool2d: output_size must be one int or 2 values, got \(1, 2, 3\)"):
        nn.AdaptiveAvgPool2d((1, 2, 3))
    with pytest.raises(ValueError, match="CrossEntropyLoss: argument 'weight' must be a Tensor or None"):
        nn.CrossEntropyLoss(weight=3)
    with pytest.raises(ValueError, match="MaxPool2d: argument 'kernel_size' must be an int or a sequence of ints"):
        nn.MaxPool2d("2")
    with pytest.raises(TypeError, match="Softmax: expected Tensor inputs, got ndarray"):
        nn.Softmax(0)(np.zeros(3))


# ---- transformer layers

@pytest.mark.parametrize("kind", ["TransformerEncoderLayer", "TransformerDecoderLayer"])
@pytest.mark.parametrize("act", ["gelu-name", "gelu-function", "python-function", "module"])
def test_transformer_layers_take_python_activations(rng, kind, act):
    torch.manual_seed(0)
    t_act, o_act = {"gelu-name": ("gelu", "gelu"), "gelu-function": (TF.gelu, F.gelu),
                    "python-function": (lambda x: torch.tanh(x) * 2, lambda x: x.tanh() * 2),
                    "module": (tnn.PReLU(), nn.PReLU())}[act]
    theirs = getattr(tnn, kind)(8, 2, 16, dropout=0.0, activation=t_act, norm_first=True).eval()
    ours = getattr(nn, kind)(8, 2, 16, dropout=0.0, activation=o_act, norm_first=True).eval()
    assert list(ours.state_dict()) == list(theirs.state_dict())  # a module activation: "activation.weight"
    if act == "module":
        theirs.activation.weight.data.fill_(0.3)
    copy_weights(ours, theirs)
    inputs = [rand(rng, 5, 3, 8)] + ([rand(rng, 4, 3, 8)] if kind == "TransformerDecoderLayer" else [])
    run_both(ours, theirs, inputs, rng)
    # a deep copy and a pickle keep the activation (a module activation is copied with the layer)
    for c in [copy.deepcopy(ours)] + ([] if act == "python-function" else [pickle.loads(pickle.dumps(ours))]):
        x = [Tensor(a) for a in inputs]
        np.testing.assert_array_equal(c(*x).numpy(), ours(*x).numpy())
        if act == "module":
            assert c.activation is not ours.activation
            with_changed = copy.deepcopy(c)
            with_changed.activation.load_state_dict({"weight": np.float32([-1.0])})
            assert not np.array_equal(with_changed(*x).numpy(), ours(*x).numpy())
            np.testing.assert_array_equal(c(*x).numpy(), ours(*x).numpy())


@pytest.mark.parametrize("kind", ["Encoder", "Decoder"])
def test_stacks_run_the_cpp_stack_and_match_torch(rng, kind):
    torch.manual_seed(0)
    layer_t = getattr(tnn, f"Transformer{kind}Layer")(8, 2, 16, dropout=0.0)
    layer_o = getattr(nn, f"Transformer{kind}Layer")(8, 2, 16, dropout=0.0)
    theirs = getattr(tnn, f"Transformer{kind}")(layer_t, 2, norm=tnn.LayerNorm(8)).eval()
    ours = getattr(nn, f"Transformer{kind}")(layer_o, 2, norm=nn.LayerNorm(8)).eval()
    assert ours._cpp_stack(getattr(nn, f"Transformer{kind}Layer")) is not None
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_weights(ours, theirs)
    inputs = [rand(rng, 5, 3, 8)] + ([rand(rng, 4, 3, 8)] if kind == "Decoder" else [])
    run_both(ours, theirs, inputs, rng)


def test_a_stack_of_python_layers_runs_the_python_loop(rng):
    class Scaled(nn.TransformerEncoderLayer):
        def forward(self, src, src_mask=None, src_key_padding_mask=None):
            return super().forward(src, src_mask, src_key_padding_mask) * 2

    stack = nn.TransformerEncoder(Scaled(8, 2, 16, dropout=0.0), 2)
    assert stack._cpp_stack(nn.TransformerEncoderLayer) is None
    x = Tensor(rand(rng, 5, 3, 8))
    want = stack.layers[1](stack.layers[0](x))
    np.testing.assert_allclose(stack(x).numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("make", [lambda: nn.CrossEntropyLoss(weight=Tensor(W3)), lambda: nn.MaxPool2d(2),
                                  lambda: nn.TransformerEncoderLayer(8, 2, 16),
                                  lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)],
                         ids=["loss", "pool", "encoder-layer", "encoder"])
def test_deep_copies_of_moved_layers_are_independent(make):
    m = make()
    c = copy.deepcopy(m)
    before = {k: v.numpy() for k, v in m.state_dict().items()}
    assert list(c.state_dict()) == list(before)
    c.load_state_dict({k: np.full(v.shape, 0.25, v.dtype) for k, v in before.items()})
    for k, v in m.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), before[k], err_msg=k)


def test_assigning_a_transformer_layers_activation_reaches_the_cpp_layer(rng):
    torch.manual_seed(0)
    theirs = tnn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu").eval()
    ours = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0).eval()  # relu
    copy_weights(ours, theirs)
    x = rand(rng, 5, 3, 8)
    assert not np.allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), atol=1e-4)
    for act in (F.gelu, lambda t: t.gelu()):
        ours.activation = act
        assert ours.activation is act
        np.testing.assert_allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), atol=1e-5)


def test_the_cpp_stack_refuses_mixed_or_no_layers():
    enc, dec = nn.TransformerEncoderLayer(8, 2, 16), nn.TransformerDecoderLayer(8, 2, 16)
    with pytest.raises(ValueError, match="TransformerEncoder: every layer must be a TransformerEncoderLayer, "
                                         "got TransformerDecoderLayer"):
        _C.nn.transformer_stack([enc._cpp, dec._cpp], None)
    with pytest.raises(ValueError, match="transformer_stack: no layers"):
        _C.nn.transformer_stack([], None)
    with pytest.raises(ValueError, match="ReLU: not a transformer encoder"):
        nn.ReLU()._cpp.encoder_forward(Tensor.zeros(2, 8)._t, None, None)
    with pytest.raises(ValueError, match="ReLU: not a transformer layer"):
        nn.ReLU()._cpp.set_activation("relu")
