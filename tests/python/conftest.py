# pytest puts this folder on sys.path (rootdir-relative "prepend" import mode), so the test files
# import their shared helpers with `from helpers import ...`. onegrad itself comes from PYTHONPATH
# (build/python) or an installed package.

import os
import secrets
import sys

import numpy as np
import pytest

# One seed per run for the tests that draw random inputs (the `rng` fixture): a fresh seed each run
# finds what a fixed one would not, and the header prints it so a failure can be replayed with
# ONEGRAD_TEST_SEED=<seed>.
RUN_SEED = int(os.environ.get("ONEGRAD_TEST_SEED") or secrets.randbits(32))


def pytest_report_header(config):
    return f"onegrad random-input seed: {RUN_SEED} (replay with ONEGRAD_TEST_SEED={RUN_SEED})"


def _test_seed(request):
    import zlib
    return [RUN_SEED, zlib.crc32(request.node.nodeid.encode())]


@pytest.fixture
def rng(request):
    """A numpy Generator seeded by the run seed and the test's id, so each test draws its own
    inputs independently of which other tests run."""
    return np.random.default_rng(_test_seed(request))


@pytest.fixture(autouse=True)
def _seed_module_init(request):
    """torch's and onegrad's global generators (module initialisation, dropout masks) seeded from
    the run seed and the test's id too, so ONEGRAD_TEST_SEED replays those draws as well. torch is
    seeded only where the test file imported it: importing it here would cost every test process
    torch's start-up."""
    seed = int(np.random.SeedSequence(_test_seed(request)).generate_state(1)[0])
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seed)
    if "onegrad" in sys.modules:
        sys.modules["onegrad"].manual_seed(seed)


def pytest_terminal_summary(terminalreporter):
    # Printed under -q too (the header is not), next to the failures it explains.
    terminalreporter.write_line(f"onegrad random-input seed: {RUN_SEED} (replay with ONEGRAD_TEST_SEED={RUN_SEED})")


def _dtype_name(value):
    """The onegrad dtype name a parametrized value stands for (a DType, a numpy scalar type or dtype,
    a torch dtype, or a dtype's name), or None when it is not a dtype."""
    from onegrad import DType, dtypes
    names = {d.name for d in dtypes.all}
    if isinstance(value, DType):
        return value.name
    if isinstance(value, str):
        return value if value in names else None
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        name = np.dtype(value).name
        return name if name in names else None
    if type(value).__module__ == "torch" and type(value).__name__ == "dtype":
        name = str(value)[len("torch."):]
        return name if name in names else None
    return None


def _dtypes_in(value):
    if isinstance(value, (tuple, list)):
        return [n for v in value for n in _dtypes_in(v)]
    name = _dtype_name(value)
    return [name] if name else []


def pytest_collection_modifyitems(config, items):
    import onegrad
    # DEV=CL runs the suite on the CL device: without an OpenCL platform every test is skipped,
    # saying why (the ICD loader's answer), rather than failing.
    if os.environ.get("DEV", "").upper().split(":")[0] == "CL":
        why = onegrad.Device.opencl_unavailable()
        if why:
            skip = pytest.mark.skip(reason="DEV=CL: " + why)
            for item in items:
                item.add_marker(skip)
            return
    # A case parametrized by a dtype the default device lacks (float16 on an OpenCL device without
    # cl_khr_fp16, float64 without cl_khr_fp64) is skipped, naming the device and the dtype: the
    # device refuses it with a TargetError (test_devices.py checks that refusal), so running it
    # would test the device's extensions, not the op. Tests that make such a dtype themselves call
    # helpers.require_dtypes.
    lacking = {}
    for item in items:
        params = getattr(item, "callspec", None)
        for name in _dtypes_in(list(params.params.values()) if params else []):
            if name not in lacking:
                lacking[name] = onegrad.Device.lacks(name)
            if lacking[name]:
                item.add_marker(pytest.mark.skip(reason=f"{lacking[name]} (a TargetError: test_devices.py)"))
                break
