"""The pointwise activation modules (onegrad/nn/activation.py's _Pointwise: ReLU, Tanh, Sigmoid,
SiLU, LeakyReLU, ELU, Softplus) take torch's arguments, positional or by name, and print as torch's.
Their values against torch are test_torch_nn_api.py's; these check the argument handling."""

import pytest
import torch.nn as tnn

from onegrad import nn

SAME_ARGS = [
    ("ReLU", (), {}), ("Tanh", (), {}), ("Sigmoid", (), {}), ("SiLU", (), {}),
    ("LeakyReLU", (0.2,), {}), ("LeakyReLU", (), {"negative_slope": 0.3}), ("LeakyReLU", (0.2, True), {}),
    ("ELU", (), {"alpha": 0.5}), ("ELU", (2.0,), {"inplace": False}),
    ("Softplus", (2.0, 3.0), {}), ("Softplus", (), {"threshold": 5.0}),
]


@pytest.mark.parametrize("name,args,kwargs", SAME_ARGS, ids=[f"{n}{a}{k}" for n, a, k in SAME_ARGS])
def test_arguments_and_repr_are_torchs(name, args, kwargs):
    ours, theirs = getattr(nn, name)(*args, **kwargs), getattr(tnn, name)(*args, **kwargs)
    for attr in ("negative_slope", "alpha", "beta", "threshold"):
        if hasattr(theirs, attr):
            assert getattr(ours, attr) == getattr(theirs, attr)
    if not kwargs.get("inplace") and True not in args:  # torch prints inplace=True; onegrad ignores it
        assert repr(ours) == repr(theirs)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError, match="ELU: takes at most 2 arguments, got 3"):
        nn.ELU(1.0, False, 3)
    with pytest.raises(TypeError, match="LeakyReLU: unexpected or repeated argument 'slope'"):
        nn.LeakyReLU(slope=0.1)
    with pytest.raises(TypeError, match="Softplus: unexpected or repeated argument 'beta'"):
        nn.Softplus(2.0, beta=3.0)
    with pytest.raises(TypeError, match="Tanh: takes at most 0 arguments, got 1"):
        nn.Tanh(1)
