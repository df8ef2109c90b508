"""Stateless neural-network ops under torch.nn.functional's names and argument orders. Each is a
thin front over a Tensor method (the C++ composition in src/tensor/), so the graph and the error
messages are the same from C++ and Python."""


# ---- random: dropout (src/tensor/random.h)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeros each element with probability p (THREEFRY bits) and scales the survivors by 1/(1-p);
    the input itself when not training. `inplace` is not supported (tensors are immutable)."""
    if inplace:
        raise NotImplementedError("dropout: inplace=True is not supported (onegrad tensors are immutable)")
    return input.dropout(p, training)
