"""float32 transcendentals computed in float32 (docs/codegen.md, "Transcendental decompositions"):
exp2 and log2 within the stated ulps of the float64 reference over every exponent and the edge
values, and what is built from them (exp, log, sigmoid, tanh, silu, softmax, gelu) within a stated
bound of torch in float64; on the CPU backend and, where an OpenCL platform exists, on CL (which
must equal the CPU bit for bit: the same primitives in the same order). Float32 kernels hold no
double."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from onegrad import Device, Tensor

DEVICES = ["CPU"] + ([] if Device.opencl_unavailable() else ["CL"])
rng = np.random.default_rng(11)


def edge_values():
    f = np.float32
    tiny, big = np.finfo(f).tiny, np.finfo(f).max
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 0.5, tiny, -tiny, big, -big,
                1e-45, -1e-45, 127.0, 127.99999, 128.0, 129.0, -126.0, -149.0, -149.5, -150.0, -151.0, -1e30, 1e30]
    powers = [np.ldexp(f(1), e) for e in range(-149, 128)]
    near = [np.nextafter(p, f(np.inf)) for p in powers] + [np.nextafter(p, f(0)) for p in powers]
    bands = list(np.arange(-152, 130, 1 / 64, dtype=np.float64))  # exp2 across underflow and overflow
    near_one = list(np.arange(0.5, 2.0, 1 / 8192))                 # log2 around 1
    bits = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([np.array(specials + powers + near + bands + near_one, np.float32), bits, -bits])


def ulp_error(got, want64):
    """|got - want| in float32 ulps at want (subnormal spacing 2^-149); specials must match exactly."""
    want32 = want64.astype(np.float32)
    special = ~np.isfinite(want32) | ~np.isfinite(got) | (want64 == 0)
    same = (np.isnan(want32) & np.isnan(got)) | ((want32 == got) & (np.signbit(want32) == np.signbit(got)))
    assert same[special].all(), list(zip(got[special & ~same][:5], want64[special & ~same][:5]))
    w = want64[~special]
    exp = np.maximum(np.floor(np.log2(np.abs(w))), -126)
    return np.abs(got[~special].astype(np.float64) - w) / np.ldexp(1.0, (exp - 23).astype(int))


@pytest.mark.parametrize("device", DEVICES)
def test_exp2_and_log2_within_their_ulps(device):
    x = edge_values()
    with np.errstate(all="ignore"):
        for op, ref, bound in (("exp2", np.exp2, 1.5), ("log2", np.log2, 1.0)):
            got = getattr(Tensor(x, device=device), op)().numpy()
            err = ulp_error(got, ref(x.astype(np.float64)))
            assert err.max() <= bound, f"{device} {op}: {err.max():.3f} ulp (bound {bound})"


@pytest.mark.parametrize("dtype", ["float16"])
def test_half_exp2_log2_every_value_within_one_ulp(dtype):
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        for op, ref in (("exp2", np.exp2), ("log2", np.log2)):
            got = getattr(Tensor(x), op)().numpy().astype(np.float64)
            want = ref(x.astype(np.float64))
            want16 = want.astype(np.float16).astype(np.float64)
            finite = np.isfinite(want16) & (want != 0)
            assert ((np.isnan(got) == np.isnan(want16)) | finite).all()
            assert (got[~finite & ~np.isnan(want16)] == want16[~finite & ~np.isnan(want16)]).all()
            spacing = np.ldexp(1.0, np.maximum(np.floor(np.log2(np.abs(want[finite]))), -14).astype(int) - 10)
            assert (np.abs(got[finite] - want[finite]) / spacing).max() <= 1.0, op


# (op on a Tensor, op on a torch tensor, relative bound where |result| > 1e-3, absolute bound below).
# The bounds are the compositions' (measured 2026-11-28, identical with the former float64 EXP2):
# exp(x) = exp2(x * log2 e) rounds the product to float32 (2^-24 * |x log2 e| of the exponent),
# tanh and gelu are built from sigmoid/tanh formulas that lose bits near 0 and in the tails.
COMPOSITES = {
    "exp": (lambda t: t.exp(), torch.exp, 5e-6, 1e-9),
    "log": (lambda t: t.abs().log(), lambda t: t.abs().log(), 2e-7, 1e-10),
    "sigmoid": (lambda t: t.sigmoid(), torch.sigmoid, 1e-6, 1e-9),
    "tanh": (lambda t: t.tanh(), torch.tanh, 2e-5, 3e-8),
    "silu": (lambda t: t.silu(), torch.nn.functional.silu, 1e-6, 1e-9),
    "softmax": (lambda t: t.softmax(-1), lambda t: torch.softmax(t, -1), 1.5e-6, 1e-9),
    "gelu": (lambda t: t.gelu(), torch.nn.functional.gelu, 3e-4, 3e-7),
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
@pytest.mark.parametrize("device", DEVICES)
def test_composites_against_torch_float64(name, device):
    ours, theirs, rel, small = COMPOSITES[name]
    x = np.concatenate([rng.standard_normal(4000) * s for s in (0.01, 1, 4, 20)] +
                       [np.array([0.0, -0.0, 1e-30, -1e-30, 80.0, -80.0, 87.0, -87.0, 100.0, -100.0])]).astype(np.float32)
    x = x[: (x.size // 64) * 64].reshape(-1, 64)
    got = ours(Tensor(x, device=device)).numpy().astype(np.float64)
    want = theirs(torch.from_numpy(x.astype(np.float64))).numpy()
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite], want[~finite])
    g, w = got[finite], want[finite]
    big = np.abs(w) > 1e-3
    worst_rel = np.max(np.abs(g - w)[big] / np.abs(w[big]))
    worst_abs = np.max(np.abs(g - w)[~big], initial=0.0)
    assert worst_rel <= rel and worst_abs <= small, f"{device} {name}: relative {worst_rel:.3g}, absolute {worst_abs:.3g}"


@pytest.mark.skipif(len(DEVICES) < 2, reason="no OpenCL platform: " + str(Device.opencl_unavailable()))
def test_cl_equals_cpu_bit_for_bit():
    x = edge_values()
    for op in ("exp2", "log2", "sigmoid", "tanh"):
        with np.errstate(all="ignore"):
            a, b = getattr(Tensor(x), op)().numpy(), getattr(Tensor(x, device="CL"), op)().numpy()
        assert np.array_equal(np.isnan(a), np.isnan(b))
        ok = ~np.isnan(a)
        assert np.array_equal(a[ok].view(np.uint32), b[ok].view(np.uint32)), op


def test_float32_exp_kernel_holds_no_double():
    program = ("import numpy as np\nfrom onegrad import Tensor\n"
               "Tensor(np.ones(1000, np.float32)).sigmoid().log2().numpy()\n")
    out = subprocess.run([sys.executable, "-c", program], env=dict(os.environ, DEBUG="4"), capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    source = out.stderr[out.stderr.find("void "):]
    assert "double" not in source, source[-3000:]
