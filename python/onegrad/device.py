"""Devices: onegrad.Device.DEFAULT is where tensors are made when no device is named ("CPU", or
$DEV at start: DEV=CL). Assigning it changes the default for Python and C++ alike."""
from . import _C


class _DeviceMeta(type):
    @property
    def DEFAULT(cls) -> str:
        return _C.default_device()

    @DEFAULT.setter
    def DEFAULT(cls, name) -> None:
        _C.set_default_device(str(name))  # DeviceError for an unknown device


class Device(metaclass=_DeviceMeta):
    """Device.DEFAULT (read and assign); Device.opencl() lists the CL devices found, and
    Device.opencl_unavailable() says why there are none ("" when there are)."""

    @staticmethod
    def opencl() -> list:
        return list(_C.opencl_devices())

    @staticmethod
    def opencl_unavailable() -> str:
        return _C.opencl_unavailable_reason()
