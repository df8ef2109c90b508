"""Checkpoints (onegrad.nn.save_checkpoint / load_checkpoint, src/nn/checkpoint.h): resumed training
matches uninterrupted training bit for bit; the model part loads into torch as a state dict; errors."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor, nn
from onegrad.safetensors import load_file, load_metadata


def model():
    return nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 3))


def step(m, opt, seed):
    rng = np.random.default_rng(seed)
    opt.zero_grad()
    loss = m(Tensor(rng.standard_normal((2, 1, 4, 4), dtype=np.float32))).cross_entropy(Tensor(np.array([0, 2])))
    loss.backward()
    opt.step()


def values(m):
    return [p.numpy() for p in m.parameters()]


def test_resumed_training_matches(tmp_path):
    a = model()
    opt_a = onegrad.optim.Adam(a.parameters(), lr=0.01)
    step(a, opt_a, 0)
    step(a, opt_a, 1)
    nn.save_checkpoint(tmp_path / "ck.safetensors", a, opt_a)
    b = model()
    opt_b = onegrad.optim.Adam(b.parameters(), lr=0.5)
    nn.load_checkpoint(tmp_path / "ck.safetensors", b, opt_b)
    assert opt_b.param_groups[0]["lr"] == 0.01
    for x, y in zip(values(a), values(b)):
        np.testing.assert_array_equal(x, y)
    step(a, opt_a, 2)
    step(b, opt_b, 2)
    for x, y in zip(values(a), values(b)):
        np.testing.assert_array_equal(x, y)


def test_the_model_part_loads_into_torch(tmp_path):
    m = model()
    opt = onegrad.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    step(m, opt, 0)
    nn.save_checkpoint(tmp_path / "ck.safetensors", m, opt)
    assert load_metadata(tmp_path / "ck.safetensors")["format"] == "onegrad.checkpoint.v1"
    entries = load_file(tmp_path / "ck.safetensors")
    weights = {k: torch.from_numpy(v.numpy()) for k, v in entries.items() if not k.startswith("optimizer.")}
    t = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(),
                            torch.nn.Linear(2 * 4 * 4, 3))
    t.load_state_dict(weights)  # strict: the same keys and shapes as torch's
    x = np.random.default_rng(5).standard_normal((2, 1, 4, 4), dtype=np.float32)
    np.testing.assert_allclose(m(Tensor(x)).numpy(), t(torch.from_numpy(x)).detach().numpy(), atol=1e-5)


def test_errors(tmp_path):
    m = model()
    nn.save_checkpoint(tmp_path / "w.safetensors", m)
    with pytest.raises(onegrad.FormatError, match="no optimizer state"):
        nn.load_checkpoint(tmp_path / "w.safetensors", m, onegrad.optim.Adam(m.parameters()))
    with pytest.raises(TypeError, match="expected an onegrad.optim optimizer"):
        nn.save_checkpoint(tmp_path / "x.safetensors", m, object())
    with pytest.raises(onegrad.FileError, match="absent.safetensors"):
        nn.load_checkpoint(tmp_path / "absent.safetensors", m)
    other = nn.Sequential(nn.Linear(3, 3))
    with pytest.raises(onegrad.errors.StateDictError, match="size mismatch for 0.weight"):
        nn.load_checkpoint(tmp_path / "w.safetensors", other)
