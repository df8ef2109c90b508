"""Kernel inspection: the kernels a tensor program would run, and what opts make of them.

    import onegrad
    from onegrad import Opt
    a, b = onegrad.rand(64, 64), onegrad.rand(64, 64)
    k, = onegrad.kernels(a @ b)          # nothing runs: the schedule realize would build
    k.name, k.shape                      # 'r_64_64_64', 'L64 L64 R64'
    k.default_opts()                     # the hand-coded opts the engine would apply
    k.optimize([Opt.split(1, 4, "UPCAST")])      # 'L64 L16 u4 R64'
    print(k.source([Opt.split(1, 4, "UPCAST")]))  # the C the backend would compile

An opt that does not apply raises onegrad.OptError naming the opt, the kernel's shape and the rule.
docs/kernel_opts.md describes the opts and the AxisType letters of a shape.
"""

from dataclasses import dataclass

from . import _C
from .tensor import Tensor


@dataclass(frozen=True)
class Opt:
    """One OptOp (spec: Kernel Optimizations). `axis` is a position in the kernel's shape at the
    moment the opt applies, so a list of opts composes left to right."""

    op: str
    axis: int = 0
    arg: int = 0
    target: str = "LOOP"
    top: bool = False

    @staticmethod
    def split(axis, k, target, top=False):
        """Split `axis` by `k`; the new sub-axis (inner, or outer with top) gets AxisType `target`."""
        return Opt("SPLIT", axis, k, target, top)

    @staticmethod
    def swap(a, b):
        return Opt("SWAP", a, b)

    @staticmethod
    def padto(axis, multiple):
        return Opt("PADTO", axis, multiple)

    @staticmethod
    def nolocals():
        return Opt("NOLOCALS")

    def _tuple(self):
        return (self.op, int(self.axis), int(self.arg), self.target, bool(self.top))

    def __str__(self):
        if self.op == "SPLIT":
            return f"SPLIT({self.axis}, {self.arg}, {self.target}{', top' if self.top else ''})"
        if self.op == "SWAP":
            return f"SWAP({self.axis}, {self.arg})"
        if self.op == "PADTO":
            return f"PADTO({self.axis}, {self.arg})"
        return self.op


def _opts(t):
    return [Opt(*x) for x in t]


def _tuples(opts):
    out = []
    for o in opts:
        if not isinstance(o, Opt):
            raise TypeError(f"an opt must be an onegrad.Opt, not {type(o).__name__}")
        out.append(o._tuple())
    return out


class Kernel:
    """One kernel of a schedule, in kernel form before any opt."""

    def __init__(self, k):
        self._k = k

    @property
    def name(self):
        return self._k.name

    @property
    def device(self):
        """The device it runs on."""
        return self._k.device

    @property
    def reason(self):
        """Why the value it computes is realized (what DEBUG=1 prints)."""
        return self._k.reason

    @property
    def shape(self):
        """Its ranges as AxisType letters and bounds, e.g. 'L64 L64 R64'."""
        return self._k.shape

    def default_opts(self):
        """The opts the engine applies: the hand-coded heuristics, or none with NOOPT=1."""
        return _opts(self._k.default_opts())

    def optimize(self, opts):
        """The kernel's shape after `opts` (OptError when one does not apply)."""
        return self._k.optimize(_tuples(opts))

    def source(self, opts=None):
        """The C source the CPU backend compiles, with `opts` (default: default_opts())."""
        return self._k.lower(_tuples(self.default_opts() if opts is None else opts))[2]

    def __repr__(self):
        return f"<Kernel {self.name} {self.shape}>"


@dataclass(frozen=True)
class Copy:
    """A copy between devices in a realize's order (a .to(device) of a computed value)."""

    source_device: str
    device: str
    nbytes: int

    @property
    def name(self):
        return f"copy {self.source_device} -> {self.device}"  # as DEBUG=1 prints it

    def __repr__(self):
        return f"<Copy {self.source_device} -> {self.device} {self.nbytes} bytes>"


def kernels(*tensors):
    """The kernels and copies between devices realizing `tensors` together would run, in order
    (a Copy after its source's kernels); nothing runs."""
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"onegrad.kernels takes Tensors, not {type(t).__name__}")
    return [Copy(k.copy_from, k.device, k.copy_bytes) if k.copy_from else Kernel(k)
            for k in _C.schedule_kernels([t._t for t in tensors])]
