"""Device memory: the allocator's exact accounting, to measure what a step needs at its peak.

    onegrad.reset_peak_memory()
    loss = step(x, y)                       # realizes: kernels run, buffers come and go
    onegrad.device_memory_stats()["peak_bytes"]

Bytes are those the buffers asked for (before the allocator rounds them up to its alignment). The
memory plan (docs/memory_plan.md; MEMPLAN=0 turns it off) lowers the peak by letting a schedule's
intermediate buffers share storage.
"""

from . import _C


def device_memory_stats(device="CPU"):
    """{'current_bytes', 'peak_bytes', 'allocations', 'frees'} of `device`'s allocator. The peak is
    the most held at once since the last reset_peak_memory(); allocations and frees count since the
    process started. An unknown device raises onegrad.DeviceError."""
    return _C.device_memory_stats(device)


def reset_peak_memory(device="CPU"):
    """Starts a new peak at what `device` holds now."""
    _C.reset_peak_memory(device)
