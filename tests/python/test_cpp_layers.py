"""One module system (docs/nn.md "One module system"): Python layers are the C++ layers of src/nn
built through the layer table, sharing their tensors. A layer that only C++ defines (Bilinear) is
usable from Python with torch's keys and values; a Python subclass of nn.Module holding C++ layers
trains as torch does; the parameters are the C++ members (writes on either side show on both);
train/eval, assignment, dtype, reset_parameters and the argument errors. torch 1.13 is the oracle."""

import numpy as np
import pytest
import torch
import torch.nn as tnn

import onegrad
from onegrad import Tensor, _C, dtypes, nn, optim
from onegrad.autograd import no_grad
from onegrad.errors import ShapeError


def load_from(ours, theirs):
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def test_a_layer_only_cpp_defines_is_usable_from_python(rng):
    # Bilinear has no Python class: onegrad.nn finds it in the C++ layer table
    assert "Bilinear" in _C.nn.layer_names()
    assert "Bilinear" not in vars(nn)
    ours, theirs = nn.Bilinear(3, 4, 5), tnn.Bilinear(3, 4, 5)
    assert isinstance(ours, nn.Module) and isinstance(ours, nn.CppLayer)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight", "bias"]
    assert [tuple(p.shape) for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    assert repr(ours) == "Bilinear(in1_features=3, in2_features=4, out_features=5)"
    load_from(ours, theirs)
    a, b = rng.standard_normal((6, 3)).astype(np.float32), rng.standard_normal((6, 4)).astype(np.float32)
    oa, ob = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    y, ty = ours(oa, ob), theirs(ta, tb)
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), atol=1e-5)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    for o, t in [(oa, ta), (ob, tb), (ours.weight, theirs.weight), (ours.bias, theirs.bias)]:
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)
    # bias=False: torch's None attribute and keys
    no_bias = nn.Bilinear(2, 2, 1, bias=False)
    assert list(no_bias.state_dict()) == ["weight"]
    with pytest.raises(ShapeError, match=r"bilinear: inputs of shapes \(6, 3\) and \(6, 3\) do not fit"):
        ours(oa, oa)


class Net(nn.Module):
    """A user's model: a Python subclass holding C++ layers and a Python parameter."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Linear(3 * 4 * 4, 4)
        self.scale = nn.Parameter(Tensor.ones(4))

    def forward(self, x):
        h = self.bn(self.conv(x)).relu().max_pool2d(2)
        return self.fc(h.flatten(1)) * self.scale


class TorchNet(tnn.Module):
    def __init__(self):
        super().__init__()
        self.conv = tnn.Conv2d(1, 3, 3, padding=1)
        self.bn = tnn.BatchNorm2d(3)
        self.fc = tnn.Linear(3 * 4 * 4, 4)
        self.scale = tnn.Parameter(torch.ones(4))

    def forward(self, x):
        h = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return self.fc(h.flatten(1)) * self.scale


def test_a_python_subclass_of_cpp_layers_trains_as_torch(rng):
    ours, theirs = Net(), TorchNet()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    load_from(ours, theirs)
    assert [n for n, _ in ours.named_children()] == ["conv", "bn", "fc"]
    opt, topt = optim.SGD(ours.parameters(), lr=0.1, momentum=0.9), torch.optim.SGD(theirs.parameters(), lr=0.1,
                                                                                   momentum=0.9)
    x = rng.standard_normal((8, 1, 8, 8)).astype(np.float32)
    y = rng.integers(0, 4, size=8).astype(np.int64)
    losses = []
    for step in range(6):
        opt.zero_grad()
        topt.zero_grad()
        loss = ours(Tensor(x)).cross_entropy(Tensor(y))
        tloss = torch.nn.functional.cross_entropy(theirs(torch.tensor(x)), torch.tensor(y))
        loss.backward()
        tloss.backward()
        np.testing.assert_allclose(loss.item(), tloss.item(), rtol=1e-4, atol=1e-5)
        for (name, p), tp in zip(ours.named_parameters(), theirs.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), tp.grad.numpy(), rtol=1e-3, atol=1e-4, err_msg=name)
        opt.step()
        topt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.8 * losses[0]
    # the running statistics the C++ BatchNorm moved are torch's
    for k in ("bn.running_mean", "bn.running_var", "bn.num_batches_tracked"):
        np.testing.assert_allclose(ours.state_dict()[k].numpy(), theirs.state_dict()[k].numpy(), rtol=1e-4,
                                   atol=1e-5, err_msg=k)
    # eval reaches the C++ layers: running statistics used, not moved
    ours.eval()
    theirs.eval()
    before = ours.bn.running_mean.numpy().copy()
    np.testing.assert_allclose(ours(Tensor(x)).numpy(), theirs(torch.tensor(x)).detach().numpy(), rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_array_equal(ours.bn.running_mean.numpy(), before)


def test_parameters_are_the_cpp_members():
    fc = nn.Linear(2, 1)
    # a write through the Python handle is what the C++ forward reads
    with no_grad():
        fc.weight.assign(Tensor([[2.0, 3.0]]))
        fc.bias.assign(Tensor([1.0]))
    assert fc(Tensor([[1.0, 1.0]])).tolist() == [[6.0]]
    # assigning a Parameter re-points the C++ member (shared, as torch's attribute assignment)
    shared = nn.Parameter(Tensor([[1.0, -1.0]]))
    fc.weight = shared
    assert fc.weight is shared
    assert fc(Tensor([[3.0, 1.0]])).tolist() == [[3.0]]
    with no_grad():
        shared.assign(Tensor([[0.0, 1.0]]))
    assert fc(Tensor([[3.0, 1.0]])).tolist() == [[2.0]]
    # the wrong shape is refused before anything changes
    with pytest.raises(ShapeError, match=r"Linear: weight has shape \(1, 2\), got \(2, 2\)"):
        fc.weight = nn.Parameter(Tensor.zeros(2, 2))
    assert fc.weight is shared
    with pytest.raises(TypeError, match="'bias' belongs to the C\\+\\+ layer"):
        fc.bias = None
    with pytest.raises(TypeError, match="cannot assign 'Tensor' object to parameter 'weight'"):
        fc.weight = Tensor.zeros(1, 2)
    # weight tying: two layers train one tensor
    a, b = nn.Linear(2, 2, bias=False), nn.Linear(2, 2, bias=False)
    b.weight = a.weight
    model = nn.Sequential(a, b)
    assert len(list(model.parameters())) == 1
    model(Tensor.ones(1, 2)).sum().backward()
    assert a.weight.grad is not None


def test_train_eval_reaches_the_cpp_layer():
    drop = nn.Dropout(0.5)
    x = Tensor.ones(1000)
    assert (drop(x).numpy() == 0).any()
    model = nn.Sequential(nn.Linear(1000, 1000), drop)
    model.eval()
    assert not drop.training
    np.testing.assert_array_equal(drop(x).numpy(), np.ones(1000, np.float32))
    model.train()
    assert (drop(x).numpy() == 0).any()


def test_every_table_layer_is_an_nn_class():
    for name in _C.nn.layer_names():
        cls = getattr(nn, name)
        assert issubclass(cls, nn.CppLayer), name
        assert cls._cpp_name == name
    with pytest.raises(AttributeError, match="module 'onegrad.nn' has no attribute 'Lineer'"):
        nn.Lineer


def test_subclass_of_a_cpp_layer():
    class Scaled(nn.Linear):
        def forward(self, x):
            return super().forward(x) * 2

    m = Scaled(3, 2)
    assert list(m.state_dict()) == ["weight", "bias"]
    x = Tensor.ones(1, 3)
    np.testing.assert_allclose(m(x).numpy(), 2 * nn.functional.linear(x, m.weight, m.bias).numpy(), rtol=1e-6)


def test_dtype_and_reset_parameters():
    onegrad.manual_seed(0)
    fc = nn.Linear(4, 3, dtype=dtypes.float64)
    assert fc.weight.dtype == dtypes.float64 and fc.bias.dtype == dtypes.float64
    assert fc(Tensor.ones(2, 4, dtype=dtypes.float64)).dtype == dtypes.float64
    bn = nn.BatchNorm1d(3, dtype=dtypes.float64)
    assert bn.running_mean.dtype == dtypes.float64 and bn.num_batches_tracked.dtype == dtypes.int64
    # reset_parameters draws again, in place (the same handles), within torch's bound
    handle = fc.weight
    before = fc.weight.numpy().copy()
    fc.reset_parameters()
    assert fc.weight is handle and not np.array_equal(fc.weight.numpy(), before)
    assert np.abs(fc.weight.numpy()).max() <= 0.5


def test_same_seed_same_weights_in_both_languages():
    # C++ draws a layer's initialisation; so the Python layer equals a _C layer made directly
    onegrad.manual_seed(7)
    py = nn.Conv2d(2, 3, 3)
    onegrad.manual_seed(7)
    cpp = _C.nn.make_layer("Conv2d", [("in_channels", 2), ("out_channels", 3), ("kernel_size", 3)])
    for (n, p), (m, t) in zip(py.named_parameters(), cpp.parameters()):
        assert n == m
        np.testing.assert_array_equal(p.numpy(), Tensor._wrap(t).numpy())


@pytest.mark.parametrize("make,exc,msg", [
    (lambda: nn.Bilinear(3, 4), TypeError, "Bilinear: missing required argument 'out_features'"),
    (lambda: nn.Bilinear(3, 4, 5, True, 1), TypeError, "Bilinear: takes at most 4 positional arguments, got 5"),
    (lambda: nn.Bilinear(3, 4, 5, bias_init=1), TypeError, "Bilinear: got an unexpected keyword argument 'bias_init'"),
    (lambda: nn.Bilinear(3, 4, 5, in1_features=3), TypeError, "Bilinear: got multiple values for argument"),
    (lambda: nn.Bilinear(3.5, 4, 5), ValueError, "Bilinear: argument 'in1_features' must be an int"),
    (lambda: nn.Bilinear(0, 4, 5), ValueError, "Bilinear: sizes must be positive, got in1_features 0"),
    (lambda: nn.Bilinear(3, 4, 5)(Tensor.ones(2, 3)), ValueError, "Bilinear: forward takes 2 input tensors, got 1"),
    (lambda: nn.Linear(3, 4)([1.0, 2.0, 3.0]), TypeError, "Linear: expected Tensor inputs, got list"),
])
def test_argument_errors(make, exc, msg):
    with pytest.raises(exc, match=msg):
        make()


def test_copied_layers_have_their_own_cpp_layers():
    # TransformerEncoder deep-copies its layer: each copy's C++ children are its own
    layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.5)
    stack = nn.TransformerEncoder(layer, num_layers=2)
    first, second = stack.layers[0].linear1, stack.layers[1].linear1
    np.testing.assert_array_equal(first.weight.numpy(), second.weight.numpy())
    x = Tensor.ones(3, 4)
    before = first(x).numpy()
    with no_grad():
        second.weight.assign(second.weight * 2)
    np.testing.assert_array_equal(first(x).numpy(), before)
    np.testing.assert_allclose(second(x).numpy(), 2 * before - first.bias.numpy(), rtol=1e-5, atol=1e-6)
    stack.layers[1].eval()
    assert not stack.layers[1].dropout._cpp.is_training() and stack.layers[0].dropout._cpp.is_training()


def test_a_cpp_layers_children_are_python_modules_of_their_class(rng):
    # MultiheadAttention's out_proj is the C++ layer's child Linear, wrapped as nn.Linear
    ours, theirs = nn.MultiheadAttention(4, 2), tnn.MultiheadAttention(4, 2)
    assert isinstance(ours.out_proj, nn.Linear) and ours.out_proj.in_features == 4
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert "(out_proj): Linear(in_features=4, out_features=4, bias=True)" in repr(ours)
    load_from(ours, theirs)
    q = rng.standard_normal((3, 2, 4)).astype(np.float32)
    out, w = ours(Tensor(q), Tensor(q), Tensor(q))
    tout, tw = theirs(torch.tensor(q), torch.tensor(q), torch.tensor(q))
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), atol=1e-5)
    np.testing.assert_allclose(w.numpy(), tw.detach().numpy(), atol=1e-5)
    # the child's handle is the C++ member the parent's forward reads
    with no_grad():
        ours.out_proj.weight.assign(ours.out_proj.weight * 0)
        ours.out_proj.bias.assign(Tensor.ones(4))
    np.testing.assert_array_equal(ours(Tensor(q), Tensor(q), Tensor(q))[0].numpy(), np.ones((3, 2, 4), np.float32))
    # dtype reaches the children
    wide = nn.MultiheadAttention(4, 2, dtype=dtypes.float64)
    assert {p.dtype for p in wide.parameters()} == {dtypes.float64}


def test_copied_attention_layers_are_independent():
    layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)
    stack = nn.TransformerEncoder(layer, num_layers=2)
    a, b = stack.layers[0].self_attn, stack.layers[1].self_attn
    assert a.out_proj.weight is not b.out_proj.weight
    np.testing.assert_array_equal(a.out_proj.weight.numpy(), b.out_proj.weight.numpy())
    x = Tensor.ones(3, 1, 4)
    before = a(x, x, x)[0].numpy()
    with no_grad():
        b.out_proj.weight.assign(b.out_proj.weight * 3)
        b.in_proj_weight.assign(b.in_proj_weight * 2)
    np.testing.assert_array_equal(a(x, x, x)[0].numpy(), before)
    assert not np.allclose(b(x, x, x)[0].numpy(), before)
