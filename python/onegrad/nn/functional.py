"""Stateless neural-network ops under torch.nn.functional's names and argument orders. Each is a
thin front over a Tensor method (the C++ composition in src/tensor/), so the graph and the error
messages are the same from C++ and Python."""


# ---- shape ops: pad (src/tensor/pad_modes.cpp)


def pad(input, pad, mode="constant", value=None):
    """torch.nn.functional.pad: `pad` is flat, from the last axis backwards ((left, right, top,
    bottom, ...)); negative amounts crop. Modes constant, reflect, replicate, circular on any rank
    (PyTorch 1.13 takes the non-constant modes on 2-D to 5-D inputs only)."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"pad: unknown padding mode {mode!r} (known: constant, reflect, replicate, circular)")
    if not isinstance(pad, (tuple, list)) or not all(isinstance(p, int) or hasattr(p, "__index__") for p in pad):
        raise TypeError(f"pad: expected a tuple of ints, got {pad!r}")
    return input._pad_mode(tuple(pad), mode, value)
# ---- end shape ops
