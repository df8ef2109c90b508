# ctest: long (cold, PoCL builds the job's ~100 kernels: 183 s on 2 loaded cores)
"""The main job (examples/train_fashion_mnist.py) on the CL device, its step under onegrad.jit,
trains exactly as on the CPU: the same losses and accuracies, printed to 4 and 2 decimals, on a tiny
data set in Fashion-MNIST's file layout. Skips, naming why, without an OpenCL platform."""
import os
import re
import subprocess
import sys

import pytest

from onegrad import Device
from test_examples import ROOT, write_split

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")


def run_example(tmp_path, *extra):
    env = dict(os.environ, ONEGRAD_FASHION_MNIST=str(tmp_path))
    env.pop("DEV", None)
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "train_fashion_mnist.py"), "--epochs", "2",
                        "--batch", "16", "--lr", "0.01", "--checkpoint", str(tmp_path / "ck.safetensors"), *extra],
                       capture_output=True, text=True, env=env, timeout=1200)
    assert r.returncode == 0, r.stderr
    return re.findall(r"epoch \d: train loss .*", r.stdout)


def test_the_main_job_on_cl_under_the_jit_trains_as_on_the_cpu(tmp_path):
    write_split(tmp_path, "train", 64)
    write_split(tmp_path, "t10k", 20)
    cpu = run_example(tmp_path, "--device", "CPU")
    cl = run_example(tmp_path, "--device", "CL")
    assert len(cpu) == 2 and cl == cpu
