"""Stateless neural-network ops under torch.nn.functional's names and argument orders. Each is a
thin front over a Tensor method (the C++ composition in src/tensor/), so the graph and the error
messages are the same from C++ and Python."""

# ---- neural-net ops (nn ops area): convolutions, pools, normalizations, attention, interpolate. Each
# takes the input tensor first, as torch.nn.functional does (onegrad/_nn.py).
from .._nn import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool1d,  # noqa: E402
                   adaptive_max_pool2d, adaptive_max_pool3d, avg_pool1d, avg_pool2d, avg_pool3d, batch_norm,
                   conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, group_norm,
                   interpolate, layer_norm, max_pool1d, max_pool2d, max_pool3d, scaled_dot_product_attention)
# ---- end of neural-net ops
