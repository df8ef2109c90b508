"""onegrad.kernels lists the copies between devices too (docs/kernel_opts.md "Inspecting kernels"):
in the order a realize runs them, as DEBUG=1 prints them, each copy after its source's kernels and
before its readers, with its devices and size. Skips, naming why, without an OpenCL platform."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import onegrad
from onegrad import Device, Tensor
from onegrad.kernel import Copy, Kernel

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")

PROGRAM = """
import numpy as np, onegrad
from onegrad import Tensor
a = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
out = (((a * 2).to("CL") + 1).sum(1).to("CPU") * 3).exp()
if {listing}:
    for k in onegrad.kernels(out):
        print("ITEM", k.name, k.device)
else:
    print("VALUE", out.numpy().tolist())
"""


def run(listing, debug):
    env = dict(os.environ, DEBUG=str(debug))
    r = subprocess.run([sys.executable, "-c", PROGRAM.format(listing=listing)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


def test_copies_are_listed_in_the_order_realize_runs_them():
    listed = re.findall(r"^ITEM (\S+(?: \S+ -> \S+)?) (\S+)$", run(True, 0), re.M)
    ran = run(False, 1)
    # DEBUG=1: "kernel 0 E_3_4 ..." under each schedule, "*** copy CPU -> CL: ..." for a copy
    order = re.findall(r"^\s+kernel \d+ (\S+)|^\*\*\* (copy \S+ -> \S+):", ran, re.M)
    assert [k or c for k, c in order] == [name for name, _ in listed]
    assert [name for name, _ in listed][1] == "copy CPU -> CL" and "copy CL -> CPU" in [n for n, _ in listed]
    assert listed[0][1] == "CPU" and listed[2][1] == "CL" and listed[-1][1] == "CPU"


def test_a_copy_names_its_devices_and_bytes():
    a = Tensor(np.ones((5, 7), np.float32))
    items = onegrad.kernels((a * 2).to("CL") + 1)
    assert [type(k) for k in items] == [Kernel, Copy, Kernel]
    copy = items[1]
    assert (copy.source_device, copy.device, copy.nbytes) == ("CPU", "CL", 5 * 7 * 4)
    assert copy.name == "copy CPU -> CL" and repr(copy) == "<Copy CPU -> CL 140 bytes>"
    assert [items[0].device, items[2].device] == ["CPU", "CL"]
    # a realized tensor's copy needs no kernel before it; listing allocates and runs nothing
    b = Tensor(np.ones(3, np.float64)).realize()
    assert [type(k) for k in onegrad.kernels(b.to("CL") * 2)] == [Copy, Kernel]
    assert onegrad.kernels(b.to("CL"))[0].nbytes == 24


def test_no_copy_on_one_device():
    a = Tensor(np.ones((4, 4), np.float32), device="CL")
    items = onegrad.kernels((a * 2).sum())
    assert all(isinstance(k, Kernel) and k.device == "CL" for k in items)
