"""The memory plan (docs/memory_plan.md) from Python: onegrad.device_memory_stats() and
reset_peak_memory() count exactly what buffers take, and a training step gives the same bits with
MEMPLAN=1 and MEMPLAN=0 while its peak is lower with the plan."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, nn


@pytest.fixture
def memplan(monkeypatch):
    """Sets MEMPLAN for the test (the engine reads it on every realize) and restores it after."""
    def set_plan(on):
        monkeypatch.setenv("MEMPLAN", "1" if on else "0")
    return set_plan


def test_stats_count_a_realized_buffer_exactly():
    s0 = onegrad.device_memory_stats()
    assert set(s0) == {"current_bytes", "peak_bytes", "allocations", "frees"}
    t = (Tensor.arange(1000, dtype=onegrad.dtypes.float32) * 2.0).realize()  # one kernel, no input buffer
    s1 = onegrad.device_memory_stats()
    assert s1["current_bytes"] - s0["current_bytes"] == 4000
    assert s1["allocations"] - s0["allocations"] == 1
    del t
    s2 = onegrad.device_memory_stats()
    assert s2["current_bytes"] == s0["current_bytes"]
    assert s2["frees"] - s0["frees"] == 1


def test_reset_peak_starts_at_the_current_level():
    big = (Tensor.ones(50000) * 3.0).realize()
    assert onegrad.device_memory_stats()["peak_bytes"] >= 200000
    del big
    onegrad.reset_peak_memory()
    s = onegrad.device_memory_stats()
    assert s["peak_bytes"] == s["current_bytes"]


def test_unknown_device_is_a_device_error():
    with pytest.raises(onegrad.DeviceError, match="unknown device .NOPE."):
        onegrad.device_memory_stats("NOPE")
    with pytest.raises(onegrad.DeviceError, match="unknown device .NOPE."):
        onegrad.reset_peak_memory("NOPE")


def chain(x, ws):
    for w in ws:
        x = (x @ w).softmax(-1) * 4.0
    return x


def peak_of(fn):
    onegrad.reset_peak_memory()
    base = onegrad.device_memory_stats()["current_bytes"]
    out = fn()
    return out, onegrad.device_memory_stats()["peak_bytes"] - base


def test_plan_gives_identical_results_and_a_lower_peak(memplan, rng):
    x = Tensor(rng.standard_normal((48, 80), dtype=np.float32)).realize()
    ws = [Tensor(rng.standard_normal((80, 80), dtype=np.float32) * 0.1).realize() for _ in range(4)]
    memplan(True)
    chain(x, ws).numpy()  # compiles and moves the inputs to the device before anything is measured
    memplan(False)
    off, peak_off = peak_of(lambda: chain(x, ws).numpy())
    memplan(True)
    on, peak_on = peak_of(lambda: chain(x, ws).numpy())
    assert on.tobytes() == off.tobytes()
    # oracle: numpy in float64
    want = x.numpy().astype(np.float64)
    for w in ws:
        z = want @ w.numpy().astype(np.float64)
        z = np.exp(z - z.max(-1, keepdims=True))
        want = z / z.sum(-1, keepdims=True) * 4.0
    np.testing.assert_allclose(on, want, rtol=1e-4, atol=1e-5)
    assert peak_on < peak_off


def cnn():
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(8 * 4 * 4, 10))


def test_training_step_is_bitwise_the_same_with_and_without_the_plan(memplan, rng):
    models = [cnn(), cnn()]
    models[1].load_state_dict(models[0].state_dict())
    opts = [onegrad.optim.Adam(m.parameters(), 1e-2) for m in models]
    peaks = [[], []]
    for _ in range(3):
        x = rng.standard_normal((16, 1, 16, 16), dtype=np.float32)
        y = rng.integers(0, 10, 16).astype(np.int64)
        losses = []
        for on in (0, 1):
            memplan(on)

            def step():
                opts[on].zero_grad()
                loss = models[on](Tensor(x)).cross_entropy(Tensor(y))
                loss.backward()
                opts[on].step()
                return loss.item()
            loss, peak = peak_of(step)
            losses.append(loss)
            peaks[on].append(peak)
        assert np.float32(losses[0]).tobytes() == np.float32(losses[1]).tobytes()
    for p0, p1 in zip(models[0].parameters(), models[1].parameters()):
        assert p0.numpy().tobytes() == p1.numpy().tobytes()
    assert peaks[1][-1] < peaks[0][-1]
