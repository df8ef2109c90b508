"""str(t) and repr(t) as PyTorch 1.13 prints a tensor: `tensor([[1., 2.], [3., 4.]])` with its
number formatting (4 decimals, integer-valued floats as `1.`, scientific notation for wide ranges),
80-column lines, and tensors over 1000 elements summarized to 3 items at each edge with `...`.

Only what is shown is realized: a summarized tensor is cut to its corners (the first and last 3
along every long axis) lazily, and that small tensor is the one computed, so printing a slice of a
huge lazy expression costs what the printed elements cost.
"""

import math

import numpy as np

from .dtype import dtypes
from .errors import Error

THRESHOLD = 1000  # more elements than this are summarized (torch's print options)
EDGEITEMS = 3
LINEWIDTH = 80
PRECISION = 4


def corners(t):
    """(numpy values of t's corners, per-axis flags: was the axis cut). An axis longer than
    2*EDGEITEMS keeps its first and last EDGEITEMS entries when t is summarized."""
    summarize = t.numel() > THRESHOLD
    cut = [summarize and n > 2 * EDGEITEMS for n in t.shape]
    x = t
    for axis, c in enumerate(cut):
        if c:
            n = x.shape[axis]
            head = x.shrink(tuple((0, EDGEITEMS) if a == axis else None for a in range(x.ndim)))
            tail = x.shrink(tuple((n - EDGEITEMS, n) if a == axis else None for a in range(x.ndim)))
            x = head.cat(tail, dim=axis)
    return x.numpy(), cut


class _Formatter:
    """One width and style for every element (torch's _Formatter): ints and bools as str();
    floats in int mode (`3.`), fixed (`0.5000`) or scientific (`1.0000e+10`) by their range."""

    def __init__(self, values: np.ndarray, is_float: bool):
        self.is_float, self.int_mode, self.sci_mode, self.width = is_float, True, False, 1
        flat = values.reshape(-1)
        if not is_float:
            self.width = max([1] + [len(str(v)) for v in flat.tolist()])
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return
        mags = np.abs(finite)
        lo, hi = mags.min(), mags.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        wide = hi / lo > 1000.0 or hi > 1.0e8
        self.sci_mode = wide if self.int_mode else (wide or lo < 1.0e-4)
        if self.sci_mode:
            texts = [f"{v:.{PRECISION}e}" for v in finite.tolist()]
        elif self.int_mode:
            texts = [f"{v:.0f}." for v in finite.tolist()]
        else:
            texts = [f"{v:.{PRECISION}f}" for v in finite.tolist()]
        self.width = max(len(s) for s in texts)

    def format(self, v) -> str:
        if not self.is_float:
            text = str(v)
        elif self.sci_mode:
            text = f"{v:{self.width}.{PRECISION}e}"
        elif self.int_mode:
            text = f"{v:.0f}" + ("" if math.isinf(v) or math.isnan(v) else ".")
        else:
            text = f"{v:.{PRECISION}f}"
        return " " * (self.width - len(text)) + text


def _vector(values: list, cut: bool, indent: int, fmt: _Formatter) -> str:
    per_line = max(1, (LINEWIDTH - indent) // (fmt.width + 2))
    if cut:
        items = [fmt.format(v) for v in values[:EDGEITEMS]] + [" ..."] + [fmt.format(v) for v in values[EDGEITEMS:]]
    else:
        items = [fmt.format(v) for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(values, cut: list, indent: int, fmt: _Formatter) -> str:
    if not cut:
        return fmt.format(values)
    if len(cut) == 1:
        return _vector(values, cut[0], indent, fmt)
    rows = [_nested(v, cut[1:], indent + 1, fmt) for v in values]
    if cut[0]:
        rows = rows[:EDGEITEMS] + ["..."] + rows[EDGEITEMS:]
    return "[" + ("," + "\n" * (len(cut) - 1) + " " * (indent + 1)).join(rows) + "]"


def _with_suffixes(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last_line + len(s) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + s)
            last_line = indent + len(s)
        else:
            parts.append(", " + s)
            last_line += len(s) + 2
    return "".join(parts) + ")"


def tensor_repr(t) -> str:
    """torch's repr: `tensor(...)` with dtype= for dtypes other than float32, int64 and bool
    (written `onegrad.int32`), device= off the CPU, and requires_grad=True."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if t.device != "CPU":
        suffixes.append(f"device='{t.device}'")
    if t.numel() == 0:
        if t.ndim != 1:
            suffixes.append(f"size={t.shape}")
        if t.dtype != dtypes.float32:
            suffixes.append(f"dtype=onegrad.{t.dtype.name}")
        body = "[]"
    else:
        if t.dtype not in (dtypes.float32, dtypes.int64, dtypes.bool):
            suffixes.append(f"dtype=onegrad.{t.dtype.name}")
        try:
            values, cut = corners(t)
        except Error as e:  # e.g. a value traced inside @function, which cannot run yet
            return f"<Tensor shape={t.shape} dtype={t.dtype.name} device={t.device} (not computable: {e})>"
        if t.dtype.is_float:
            values = values.astype(np.float32) if t.dtype.itemsize < 4 else values  # torch prints halves as floats
        fmt = _Formatter(values, t.dtype.is_float)
        body = _nested(values.tolist(), cut, indent, fmt)
    if t.requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + body, suffixes, indent)
