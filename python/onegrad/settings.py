"""Settings: the integers onegrad reads from environment variables (DEBUG, NOOPT, VECTORIZE,
CPU_THREADS, CHECK_INDEX, ...; src/uop/settings.h), with scoped overrides in code:

    with onegrad.settings.override(CHECK_INDEX=0):   # no index checks inside the block
        y = emb(idx).numpy()
    onegrad.settings.get("CHECK_INDEX", 1)           # the override, else the variable, else 1

An override applies to the whole process while the block runs (the C++ ScopedSetting), and nested
blocks restore the outer value. A setting is read when it is used: CHECK_INDEX when an op builds its
graph, DEBUG when a realize runs.
"""

import contextlib

from . import _C


def get(name, fallback=0):
    """The value of setting `name`: an override if one is active, else the environment variable,
    else `fallback`."""
    return _C.setting(name, fallback)


@contextlib.contextmanager
def override(**values):
    """Sets the named settings (integers; True/False count as 1/0) until the block ends."""
    with contextlib.ExitStack() as stack:
        for name, value in values.items():
            stack.enter_context(_C.SettingOverride(name, int(value)))
        yield
