"""C++ bugs found by the Python tests, each reduced to a minimal repro and marked xfail(strict):
when one is fixed its test passes, strict turns that into a failure, and the marker (and the
workaround named in the reason) can go."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes


@pytest.mark.xfail(strict=True, raises=onegrad.DeviceError,
                   reason="runtime ProgramCache keys loaded programs by source, not by buffer count "
                          "(worked around in helpers.values)")
def test_folded_kernel_gets_the_program_of_a_constant_kernel():
    Tensor.ones(2, 3, dtype=dtypes.bool).numpy()  # E_2_3 with 1 buffer: b0[i] = 1
    # bool < 3 folds to true: the same source, but this kernel is launched with its input too
    out = (Tensor(np.array([[True, False, True], [False, True, True]])) < 3).numpy()
    assert out.all()


@pytest.mark.xfail(strict=True, raises=onegrad.InternalError,
                   reason="linearize: the loops around a size-0 reduce axis do not nest (C++ bug)")
def test_reduce_of_a_size_0_middle_axis():
    out = Tensor(np.zeros((2, 0, 3), np.float32)).sum(1).numpy()
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


@pytest.mark.xfail(strict=True, raises=onegrad.InternalError,
                   reason="linearize: the loops around a size-0 reduce axis do not nest (C++ bug)")
def test_matmul_with_an_empty_inner_dim():
    out = (Tensor(np.ones((3, 0), np.float32)) @ Tensor(np.ones((0, 2), np.float32))).numpy()
    np.testing.assert_array_equal(out, np.zeros((3, 2), np.float32))


@pytest.mark.xfail(strict=True, reason="C++ DeviceError for an unknown device does not name the op")
def test_unknown_device_message_names_the_op():
    with pytest.raises(onegrad.DeviceError, match="zeros"):
        Tensor.zeros(2, device="TPU")


@pytest.mark.xfail(strict=True, reason="C++ zeros/ones with a negative dim report the op as 'full'")
def test_negative_dim_message_names_the_op():
    with pytest.raises(onegrad.ShapeError, match="^zeros"):
        Tensor.zeros(2, -1)
