"""Tensors on the CL device from Python: device=, to(), numpy() from any device, Device.DEFAULT,
the two-device error and gradients through to(). Skips, naming why, without an OpenCL platform."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import Device, Tensor

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")


def test_tensor_on_cl_and_back():
    a = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    x = Tensor(a, device="CL")
    assert x.device == "CL"
    y = (x.relu() * 2).to("CPU")
    assert y.device == "CPU"
    np.testing.assert_array_equal(y.numpy(), np.maximum(a, 0) * 2)
    np.testing.assert_array_equal((x + 1).numpy(), a + 1)  # numpy() straight from CL
    assert Tensor(y, device="cl").device == "CL"


def test_default_device_follows_device_default():
    old = Device.DEFAULT
    try:
        Device.DEFAULT = "cl"
        assert Device.DEFAULT == "CL"
        assert Tensor([1.0, 2.0]).device == "CL"
        assert onegrad.zeros(2).device == "CL"
        with pytest.raises(onegrad.DeviceError, match="Device.DEFAULT: unknown device 'TPU'"):
            Device.DEFAULT = "TPU"
    finally:
        Device.DEFAULT = old
    assert Tensor([1.0]).device == old


def test_ops_on_two_devices_name_both():
    with pytest.raises(onegrad.DeviceError, match="add: tensors on different devices: CPU and CL"):
        Tensor([1.0], device="CPU") + Tensor([1.0], device="CL")


def test_gradients_flow_back_through_to():
    w0 = np.array([0.5, -1.5, 2.0], dtype=np.float32)
    w = Tensor(w0, device="CPU", requires_grad=True)
    loss = (w.to("CL").exp() * 3).sum()
    loss.backward()
    tw = torch.tensor(w0, requires_grad=True)
    (tw.exp() * 3).sum().backward()
    assert w.grad.device == "CPU"
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-6)


def test_half_without_cl_khr_fp16_names_the_dtype_and_device():
    # the device query decides: PoCL on the CPU has no cl_khr_fp16
    x = Tensor(np.ones(4, np.float16), device="CL")
    try:
        (x * 2).numpy()
    except onegrad.Error as e:
        assert "has no float16" in str(e) and "CL (OpenCL C on" in str(e)
    else:  # a device with cl_khr_fp16 computes it
        np.testing.assert_array_equal((x * 2).numpy(), np.full(4, 2, np.float16))
