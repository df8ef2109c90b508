"""OpenCL vector types and BEAM on the CL device (docs/codegen.md "OpenCL vectors", docs/kernel_opts.md
"BEAM search"). Tensor programs whose kernels the opts upcast run on CL with float4/int4 vectors
(vload/vstore, select, convert_) and equal the CPU backend's results bit for bit, on shapes that are
not multiples of 4; BEAM=2 on a CL tensor times its candidates on the device, picks opts that run,
gives the same results, and caches them under the CL device's key. Skips, naming why, without an
OpenCL platform."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from onegrad import Device, Tensor

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")


def both(make):
    """make(device) on the CPU and on CL, as numpy arrays."""
    return make("CPU").numpy(), make("CL").numpy()


def assert_bits_equal(cpu, cl):
    assert cpu.dtype == cl.dtype and cpu.shape == cl.shape
    if cpu.dtype.kind == "f":
        assert np.array_equal(np.isnan(cpu), np.isnan(cl))
        ok = ~np.isnan(cpu)
        np.testing.assert_array_equal(cpu.view(f"u{cpu.itemsize}")[ok], cl.view(f"u{cl.itemsize}")[ok])
    else:
        np.testing.assert_array_equal(cpu, cl)


rng = np.random.default_rng(7)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "int8", "uint8", "int16", "uint32"])
def test_matmul_and_column_sums_match_the_cpu(dtype):
    a = (rng.standard_normal((37, 50)) * 9).astype(dtype)
    b = (rng.standard_normal((50, 30)) * 9).astype(dtype)
    c = (rng.standard_normal((33, 70)) * 9).astype(dtype)
    assert_bits_equal(*both(lambda d: Tensor(a, device=d) @ Tensor(b, device=d)))
    assert_bits_equal(*both(lambda d: Tensor(c, device=d).sum(0)))
    assert_bits_equal(*both(lambda d: Tensor(c, device=d).max(0)[0]))


def test_float_programs_match_the_cpu():
    x = rng.standard_normal((13, 37)).astype(np.float32)
    x[0, :5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    w = rng.standard_normal((6, 3, 3, 3)).astype(np.float32)
    img = rng.standard_normal((2, 3, 11, 13)).astype(np.float32)
    assert_bits_equal(*both(lambda d: Tensor(x, device=d).softmax(-1)))
    assert_bits_equal(*both(lambda d: (Tensor(x, device=d).T @ Tensor(x, device=d)).relu()))
    assert_bits_equal(*both(lambda d: Tensor(img, device=d).conv2d(Tensor(w, device=d), padding=1)))
    assert_bits_equal(*both(lambda d: ((Tensor(x, device=d) > 0.5).where(Tensor(x, device=d), -1.0) * 3).sum(0)))
    assert_bits_equal(*both(lambda d: Tensor(x, device=d).cast("int32").sum(0)))


def test_cl_kernels_use_vector_types():
    program = ("import numpy as np\nfrom onegrad import Tensor\n"
               "a = Tensor(np.ones((64, 48), np.float32), device='CL')\n"
               "b = Tensor(np.ones((48, 32), np.float32), device='CL')\n"
               "(a @ b).numpy()\n")
    out = subprocess.run([sys.executable, "-c", program], env=dict(os.environ, DEBUG="4"), capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    # the device's preferred vector (float16 on PoCL with AVX-512, float4 where it names none)
    assert re.search(r"float(4|8|16) val\d+ = vload(4|8|16)\(0, ", out.stderr), out.stderr[-3000:]
    assert re.search(r"vstore(4|8|16)\(", out.stderr), out.stderr[-3000:]


BEAM_PROGRAM = """
import numpy as np, sys
from onegrad import Tensor
dev = sys.argv[1]
a = (np.arange(256, dtype=np.float32) % 7 - 3).reshape(16, 16)
got = (Tensor(a, device=dev) * 2 + 1).sum(1).numpy()
assert np.array_equal(got, (a * 2 + 1).sum(1)), (got, (a * 2 + 1).sum(1))
print("ok")
"""


def beam_run(cache_dir, device):
    env = dict(os.environ, BEAM="2", DEBUG="2", ONEGRAD_CACHE_DIR=str(cache_dir))
    out = subprocess.run([sys.executable, "-c", BEAM_PROGRAM, device], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")
    return [line for line in out.stderr.splitlines() if line.startswith("BEAM r_16_16")]


def test_beam_on_cl_searches_replays_and_keys_by_device(tmp_path):
    first = beam_run(tmp_path, "CL")
    assert len(first) == 1 and "timed in" in first[0], first
    second = beam_run(tmp_path, "CL")
    assert len(second) == 1 and second[0].endswith("from the cache"), second
    assert first[0].split(": ")[1].split("]")[0] == second[0].split(": ")[1].split("]")[0]
    # the CPU's search is its own: the CL row is not replayed for it
    cpu = beam_run(tmp_path, "CPU")
    assert len(cpu) == 1 and "timed in" in cpu[0], cpu
