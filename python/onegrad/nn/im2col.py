"""torch.nn.functional.unfold (im2col) and fold (col2im) and their modules, torch's arguments:
kernel_size, dilation, padding, stride, each one int or a pair.

unfold takes (N, C, H, W) or unbatched (C, H, W) and gives (N, C·kh·kw, L), L the number of window
positions, channels ordered (c, ki, kj) as torch's; it is padding and sliding windows (movement ops
only, Tensor.pool_windows). fold is its adjoint, the sum of each column back into its window: a
transposed convolution whose weight is the one-hot identity over the kh·kw offsets (groups = C), so
overlapping windows add up and the gradient of fold is unfold's."""

from ..errors import ShapeError
from ..tensor import Tensor
from .module import Module


def _pair(v, what, op):
    vals = tuple(v) if isinstance(v, (tuple, list)) else (v, v)
    if len(vals) != 2 or not all(isinstance(x, int) for x in vals):
        raise ValueError(f"{op}: {what} must be an int or a pair of ints, got {v!r}")
    return vals


def _args(op, kernel_size, dilation, padding, stride):
    k, d, p, s = (_pair(v, n, op) for v, n in ((kernel_size, "kernel_size"), (dilation, "dilation"),
                                                (padding, "padding"), (stride, "stride")))
    for name, vals, low in (("kernel_size", k, 1), ("dilation", d, 1), ("stride", s, 1), ("padding", p, 0)):
        if min(vals) < low:
            raise ValueError(f"{op}: {name} must be {'positive' if low else 'non-negative'}, got {vals}")
    return k, d, p, s


def _blocks(op, size, k, d, p, s):
    """The number of window positions along each spatial axis (torch's formula)."""
    blocks = tuple((size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))
    if min(blocks) < 1:
        raise ShapeError(f"{op}: spatial size {tuple(size)} with kernel_size={k}, dilation={d}, padding={p} leaves "
                         f"{blocks} window positions; each must be at least 1")
    return blocks


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C·kh·kw, L): every kh×kw window (dilated, strided, over the zero-padded
    input) as a column."""
    op = "unfold"
    k, d, p, s = _args(op, kernel_size, dilation, padding, stride)
    if input.ndim not in (3, 4):
        raise ShapeError(f"unfold: expected a 3-D (C, H, W) or 4-D (N, C, H, W) input, got shape {input.shape}")
    batched = input.ndim == 4
    x = input if batched else input.unsqueeze(0)
    n, c = x.shape[0], x.shape[1]
    oh, ow = _blocks(op, x.shape[2:], k, d, p, s)
    if p != (0, 0):
        x = x.pad((p[1], p[1], p[0], p[0]))  # torch's flat form: the last axis first
    w = Tensor._wrap(x._t.pool_windows(list(k), list(s), list(d)))  # (N, C, oh, ow, kh, kw)
    cols = w.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k[0] * k[1], oh * ow)
    return cols if batched else cols.reshape(c * k[0] * k[1], oh * ow)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C·kh·kw, L) -> (N, C, H, W), (H, W) = output_size: each column added back into its
    window; overlaps sum."""
    op = "fold"
    k, d, p, s = _args(op, kernel_size, dilation, padding, stride)
    size = _pair(output_size, "output_size", op)
    if input.ndim not in (2, 3):
        raise ShapeError(f"fold: expected a 2-D (C·kh·kw, L) or 3-D (N, C·kh·kw, L) input, got shape {input.shape}")
    batched = input.ndim == 3
    x = input if batched else input.unsqueeze(0)
    kk = k[0] * k[1]
    if x.shape[1] % kk:
        raise ShapeError(f"fold: input dimension 1 ({x.shape[1]}) must be divisible by the product of kernel_size "
                         f"{k} ({kk})")
    oh, ow = _blocks(op, size, k, d, p, s)
    if x.shape[2] != oh * ow:
        raise ShapeError(f"fold: output_size={size}, kernel_size={k}, dilation={d}, padding={p}, stride={s} give "
                         f"{oh} * {ow} = {oh * ow} window positions, but input dimension 2 is {x.shape[2]}")
    n, c = x.shape[0], x.shape[1] // kk
    # weight (C·kk, 1, kh, kw): channel c·kk + j puts its value at offset j of channel c's window
    eye = Tensor.eye(kk, dtype=x.dtype, device=x.device).reshape(1, kk, k[0], k[1])
    weight = eye.expand(c, kk, k[0], k[1]).reshape(c * kk, 1, k[0], k[1])
    # the transposed convolution's natural size falls short of output_size by the rows and columns
    # no window reaches; output_padding adds them (always less than the stride)
    extra = [size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1 - ((oh, ow)[i] - 1) * s[i] for i in range(2)]
    out = x.reshape(n, c * kk, oh, ow).conv_transpose2d(weight, None, stride=list(s), padding=list(p),
                                                         output_padding=extra, groups=c, dilation=list(d))
    return out if batched else out.reshape(c, size[0], size[1])


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, stride={self.stride}"


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
