"""copy.deepcopy, copy.copy and pickle of modules and tensors (docs/nn.md "Copies and pickles"): a
deep copy or an unpickled module has its own tensors with the same values, its own C++ layer
(built without moving the random generator), the same outputs; changing the copy leaves the
original alone; weights tied inside the module stay tied in the copy. torch 1.13 is the oracle for
the outputs of an unpickled module loaded with torch's weights, and for what a tensor's copy keeps."""

import copy
import pickle

import numpy as np
import pytest
import torch
import torch.nn as tnn

import onegrad
from onegrad import Tensor, _C, nn, optim


def values(m):
    return {k: v.numpy() for k, v in m.state_dict().items()}


def assert_same_values(a, b):
    va, vb = values(a), values(b)
    assert list(va) == list(vb)
    for k in va:
        np.testing.assert_array_equal(va[k], vb[k], err_msg=k)


class Net(nn.Module):
    """A user's Python module holding C++ layers, a Python parameter and a tied weight."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Linear(12, 5)
        self.head = nn.Linear(12, 5)
        self.head.weight = self.fc.weight  # tied
        self.scale = nn.Parameter(Tensor(np.float32([2.0])))

    def forward(self, x):
        h = self.bn(self.conv(x)).relu().max_pool2d(2).flatten(1)
        return (self.fc(h) + self.head(h)) * self.scale


def modules():
    return {
        "Linear": (lambda: nn.Linear(4, 3), lambda: Tensor.randn(2, 4)),
        "BatchNorm1d": (lambda: nn.BatchNorm1d(4), lambda: Tensor.randn(5, 4)),
        "Bilinear": (lambda: nn.Bilinear(4, 2, 3), lambda: (Tensor.randn(2, 4), Tensor.randn(2, 2))),
        "LSTM": (lambda: nn.LSTM(4, 3, num_layers=2), lambda: Tensor.randn(5, 2, 4)),
        "MultiheadAttention": (lambda: nn.MultiheadAttention(4, 2), lambda: (Tensor.randn(3, 2, 4),) * 3),
        "Net": (Net, lambda: Tensor.randn(2, 2, 4, 4)),
        "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0),
                                    lambda: Tensor.randn(3, 2, 4)),
    }


def first(out):
    return out[0] if isinstance(out, tuple) else out


def run(m, inputs):
    return first(m(*inputs) if isinstance(inputs, tuple) else m(inputs)).numpy()


@pytest.mark.parametrize("name", list(modules()))
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_has_the_values_and_outputs_and_is_independent(name, how):
    make, make_inputs = modules()[name]
    onegrad.manual_seed(3)
    m = make()
    m.eval()
    inputs = make_inputs()
    c = copy.deepcopy(m) if how == "deepcopy" else pickle.loads(pickle.dumps(m))
    assert type(c) is type(m) and not c.training
    assert_same_values(m, c)
    np.testing.assert_array_equal(run(c, inputs), run(m, inputs))
    assert all(a is not b and a._t is not b._t for a, b in zip(m.parameters(), c.parameters()))
    before = values(m)
    # change every tensor of the copy: the original keeps its values and outputs
    c.load_state_dict({k: np.full(v.shape, 0.5, v.dtype) for k, v in values(c).items()})
    for k, v in values(m).items():
        np.testing.assert_array_equal(v, before[k], err_msg=k)
    assert not np.array_equal(run(c, inputs), run(m, inputs))


def test_copying_does_not_move_the_random_generator():
    onegrad.manual_seed(7)
    m = nn.Sequential(nn.Linear(3, 4), nn.MultiheadAttention(4, 2))
    counter = _C.rng_counter()
    copy.deepcopy(m)
    pickle.loads(pickle.dumps(m))
    assert _C.rng_counter() == counter


def test_tied_weights_stay_tied_in_the_copy_and_training_the_copy_leaves_the_original():
    onegrad.manual_seed(0)
    m = Net()
    c = copy.deepcopy(m)
    assert c.head.weight is c.fc.weight and c.fc.weight is not m.fc.weight
    assert len(list(c.parameters())) == len(list(m.parameters()))
    before = values(m)
    opt = optim.SGD(c.parameters(), lr=0.1, momentum=0.9)
    x = Tensor.randn(2, 2, 4, 4)
    for _ in range(2):
        opt.zero_grad()
        c(x).square().sum().backward()
        opt.step()
    for k, v in values(m).items():
        np.testing.assert_array_equal(v, before[k], err_msg=k)
    np.testing.assert_array_equal(c.head.weight.numpy(), c.fc.weight.numpy())
    assert not np.array_equal(c.fc.weight.numpy(), m.fc.weight.numpy())
    # the running statistics the copy's BatchNorm moved are the copy's own
    assert not np.array_equal(c.bn.running_mean.numpy(), m.bn.running_mean.numpy())


def test_shallow_copy_shares_the_tensors():
    m = nn.Linear(3, 2)
    c = copy.copy(m)
    assert c.weight is m.weight
    with onegrad.no_grad():
        c.weight.assign(Tensor.zeros(2, 3))
    np.testing.assert_array_equal(m(Tensor.ones(1, 3)).numpy(), m.bias.numpy()[None])


def test_a_child_wrapped_from_a_cpp_layer_copies_on_its_own():
    mha = nn.MultiheadAttention(4, 2)
    out_proj = copy.deepcopy(mha.out_proj)
    assert isinstance(out_proj, nn.Linear) and out_proj.in_features == 4
    x = Tensor.randn(3, 4)
    np.testing.assert_array_equal(out_proj(x).numpy(), mha.out_proj(x).numpy())


def test_an_unpickled_module_loads_torch_weights_and_matches_torch(rng):
    torch.manual_seed(0)
    theirs = tnn.Sequential(tnn.Conv2d(2, 3, 3), tnn.BatchNorm2d(3), tnn.ReLU(), tnn.Flatten(), tnn.Linear(12, 4))
    ours = pickle.loads(pickle.dumps(nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(),
                                                   nn.Linear(12, 4))))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = rng.standard_normal((2, 2, 4, 4)).astype(np.float32)
    ox, tx = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    y, ty = ours(ox), theirs(tx)
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), atol=1e-5)
    y.square().sum().backward()
    ty.square().sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), atol=1e-4)
    for (k, p), tp in zip(ours.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), tp.grad.numpy(), atol=1e-4, err_msg=k)


def test_tensor_copies_keep_what_torch_keeps():
    for ours_p, theirs_p in [(nn.Parameter(Tensor([1.0, 2.0])), torch.nn.Parameter(torch.tensor([1.0, 2.0]))),
                             (Tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0], requires_grad=True))]:
        ours_p.grad, theirs_p.grad = Tensor([3.0, 4.0]), torch.tensor([3.0, 4.0])
        for f in (copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))):
            o, t = f(ours_p), f(theirs_p)
            assert type(o).__name__ == type(t).__name__ and o.requires_grad == t.requires_grad
            assert (o.grad is None) == (t.grad is None)  # deepcopy keeps the gradient, pickle drops it
            if o.grad is not None:
                np.testing.assert_array_equal(o.grad.numpy(), t.grad.numpy())
            np.testing.assert_array_equal(o.numpy(), t.detach().numpy())
    for dt in ("int64", "bool", "bfloat16", "float16"):
        x = Tensor([1, 0, 3]).cast(dt)
        for y in (copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
            assert y.dtype == x.dtype
            np.testing.assert_array_equal(y.numpy(), x.numpy())


def test_a_module_holding_a_lambda_does_not_pickle_as_in_torch():
    m = nn.TransformerEncoderLayer(4, 2, 8, activation=lambda t: t.relu())
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(m)
    c = copy.deepcopy(m)  # deepcopy keeps the function itself
    x = Tensor.randn(3, 2, 4)
    m.eval(), c.eval()
    np.testing.assert_array_equal(c(x).numpy(), m(x).numpy())
