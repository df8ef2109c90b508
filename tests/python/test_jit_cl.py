"""@onegrad.jit on the CL device (docs/jit.md): the MLP of test_jit.py trained 100 steps on CL equals
the same training without the JIT bit for bit; copies between devices inside a jitted function are
captured and replayed with its kernels (DEBUG=1 prints each copy between the schedules that write
and read it), between CPU and CL and between two CL devices (PoCL's POCL_DEVICES makes two); inputs
of another shape, dtype or device are typed errors. Oracles: the function
without the JIT, numpy. Skips, naming why, without an OpenCL platform."""
import json
import os
import re
import subprocess
import sys
from contextlib import contextmanager

import numpy as np
import pytest

import onegrad
from onegrad import Device, Tensor, _C
from onegrad.errors import DTypeError, ShapeError
from test_jit import mlp, train

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")


@contextmanager
def default_device(name):
    old = Device.DEFAULT
    Device.DEFAULT = name
    try:
        yield
    finally:
        Device.DEFAULT = old


def test_jitted_mlp_training_on_cl_matches_plain_bit_for_bit_over_100_steps():
    with default_device("CL"):
        assert {p.device for p in mlp(1).parameters()} == {"CL"}
        plain_losses, plain_weights, _ = train("sgd", jitted=False)
        jit_losses, jit_weights, run = train("sgd", jitted=True)
    _, _, cpu_run = train("sgd", jitted=True, steps=3)
    # the schedule does not depend on the device: the same kernels, none of them a copy
    assert run.captured and run.calls == 100 and run.kernels == cpu_run.kernels > 0 and run.copies == 0
    assert jit_losses == plain_losses
    assert np.mean(plain_losses[-10:]) < 0.7 * np.mean(plain_losses[:10])  # it trains
    for a, b in zip(jit_weights, plain_weights):
        np.testing.assert_array_equal(a, b)


def test_a_jitted_function_replays_its_copies_between_devices():
    def f(x):
        return ((x * 2.0).to("CL").exp() + 1.0).to("CPU").sum(0)

    jf = onegrad.jit(f)
    rng = np.random.default_rng(1)
    for call in range(5):
        x = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
        before = _C.engine_stats()
        got = jf(x)
        after = _C.engine_stats()
        if call >= 2:  # a replay runs the captured copies, not a realize's
            assert after["copies_run"] == before["copies_run"]
            assert after["schedule_hits"] == before["schedule_hits"]
        assert got.device == "CPU"
        before = _C.engine_stats()
        want = f(x).numpy()  # plain: the realize runs both copies and the three kernels
        after = _C.engine_stats()
        assert after["copies_run"] - before["copies_run"] == 2
        assert after["kernels_run"] - before["kernels_run"] == 3
        np.testing.assert_array_equal(got.numpy(), want)
    assert jf.copies == 2 and jf.kernels == 3


def test_inputs_that_differ_from_the_captured_call_on_cl_raise_typed_errors():
    jf = onegrad.jit(lambda x: x * 2.0)
    x = Tensor(np.ones((2, 4), np.float32), device="CL")
    jf(x)
    np.testing.assert_array_equal(jf(x).numpy(), np.full((2, 4), 2.0))
    with pytest.raises(ShapeError, match=r"jit: input 0 has shape \(3, 4\), the captured call's had \(2, 4\)"):
        jf(Tensor(np.ones((3, 4), np.float32), device="CL"))
    with pytest.raises(DTypeError, match="jit: input 0 has dtype int32, the captured call's had float32"):
        jf(Tensor(np.ones((2, 4), np.int32), device="CL"))
    with pytest.raises(onegrad.DeviceError, match="jit: input 0 is on CPU, the captured call's was on CL"):
        jf(Tensor(np.ones((2, 4), np.float32), device="CPU"))
    np.testing.assert_array_equal(jf(x * 3.0).numpy(), np.full((2, 4), 6.0))  # still replays


def test_debug_prints_each_copy_between_the_schedules_that_write_and_read_it():
    script = ("from onegrad import Tensor\n"
              "x = Tensor([1.0, -2.0, 3.0])\n"
              "print(((x * 3.0).to('CL').relu() + 1.0).numpy().tolist())\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env={**os.environ, "DEBUG": "1"}, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[4.0, 1.0, 10.0]"
    lines = [l for l in r.stderr.splitlines() if re.match(r"\*\*\* (schedule|copy)", l)]
    assert [re.sub(r"[,:].*", "", l) for l in lines] == [
        "*** schedule", "*** copy CPU -> CL", "*** schedule"], r.stderr
    assert "on CPU" in lines[0] and "on CL" in lines[2]
    assert lines[1] == "*** copy CPU -> CL: 3 float32 (12 bytes)"


TWO_DEVICES = """
import json, numpy as np, onegrad
from onegrad import Device, Tensor, _C
if len(Device.opencl()) < 2:
    print(json.dumps({"skip": f"one OpenCL device only: {Device.opencl()}"}))
    raise SystemExit(0)
a = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
before = _C.engine_stats()["copies_run"]
y = ((Tensor(a, device="CL") * 2.0).to("CL:1").exp() + 1.0).to("CL") - 1.0
got = y.numpy()
copies = _C.engine_stats()["copies_run"] - before
want = (((Tensor(a, device="CPU") * 2.0).exp() + 1.0) - 1.0).numpy()
jf = onegrad.jit(lambda t: (t.to("CL:1") * 3.0).to("CL").sum(0))
replays = [jf(Tensor(a + i, device="CL")).numpy().tolist() for i in range(4)]
print(json.dumps({"device": y.device, "equal": bool(np.array_equal(got, want)), "copies": copies,
                  "jit_copies": jf.copies, "replays": replays}))
"""


def test_copies_between_two_cl_devices_run_and_replay():
    # PoCL makes two devices of the CPU when asked (POCL_DEVICES); each CL device has its own
    # context, so a copy between them goes through host memory
    r = subprocess.run([sys.executable, "-c", TWO_DEVICES], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "POCL_DEVICES": "pthread pthread"})
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    if "skip" in got:
        pytest.skip(got["skip"])
    assert got["device"] == "CL" and got["equal"] and got["copies"] == 2 and got["jit_copies"] == 2
    a = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    for i, row in enumerate(got["replays"]):
        np.testing.assert_array_equal(np.array(row, np.float32), ((a + i) * np.float32(3.0)).sum(0))
