# pytest puts this folder on sys.path (rootdir-relative "prepend" import mode), so the test files
# import their shared helpers with `from helpers import ...`. onegrad itself comes from PYTHONPATH
# (build/python) or an installed package.

import os
import secrets

import numpy as np
import pytest

# One seed per run for the tests that draw random inputs (the `rng` fixture): a fresh seed each run
# finds what a fixed one would not, and the header prints it so a failure can be replayed with
# ONEGRAD_TEST_SEED=<seed>.
RUN_SEED = int(os.environ.get("ONEGRAD_TEST_SEED") or secrets.randbits(32))


def pytest_report_header(config):
    return f"onegrad random-input seed: {RUN_SEED} (replay with ONEGRAD_TEST_SEED={RUN_SEED})"


@pytest.fixture
def rng(request):
    """A numpy Generator seeded by the run seed and the test's id, so each test draws its own
    inputs independently of which other tests run."""
    import zlib
    return np.random.default_rng([RUN_SEED, zlib.crc32(request.node.nodeid.encode())])


def pytest_terminal_summary(terminalreporter):
    # Printed under -q too (the header is not), next to the failures it explains.
    terminalreporter.write_line(f"onegrad random-input seed: {RUN_SEED} (replay with ONEGRAD_TEST_SEED={RUN_SEED})")


def pytest_collection_modifyitems(config, items):
    # DEV=CL runs the suite on the CL device: without an OpenCL platform every test is skipped,
    # saying why (the ICD loader's answer), rather than failing.
    if os.environ.get("DEV", "").upper().split(":")[0] != "CL":
        return
    import onegrad
    why = onegrad.Device.opencl_unavailable()
    if why:
        skip = pytest.mark.skip(reason="DEV=CL: " + why)
        for item in items:
            item.add_marker(skip)
