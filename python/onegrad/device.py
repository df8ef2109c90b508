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
    Device.opencl_unavailable() says why there are none ("" when there are); Device.has_dtype(dt)
    whether a device's kernels may hold dtype dt (float16 on CL needs cl_khr_fp16, float64
    cl_khr_fp64: without it, a kernel holding one raises TargetError)."""

    @staticmethod
    def opencl() -> list:
        return list(_C.opencl_devices())

    @staticmethod
    def opencl_unavailable() -> str:
        return _C.opencl_unavailable_reason()

    @staticmethod
    def has_dtype(dtype, device=None) -> bool:
        """Whether kernels on `device` (default: Device.DEFAULT) may hold `dtype` (a DType or its name)."""
        return Device.lacks(dtype, device) == ""

    @staticmethod
    def lacks(dtype, device=None) -> str:
        """"" when `device` (default: Device.DEFAULT) holds `dtype`; otherwise why not, as its
        TargetError says it ("target 'CL (OpenCL C on ...; no cl_khr_fp16)' has no float16")."""
        name = dtype if isinstance(dtype, str) else dtype.name
        target, held = _C.device_dtypes(str(device or Device.DEFAULT))
        return "" if not held or name in held else f"target '{target}' has no {name}"
