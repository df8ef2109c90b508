"""A conv's rows of few outputs and taps keep their padding as a view over the realized input
(tensor/conv_pads.h): the copy pads only the columns, and the conv, its output rows and tap rows
unrolled whole (codegen/heuristics.cpp, decided_gate_axes), reads the padding through gates that
fold away. Values against torch (forward and gradients; depthwise and dense, cut taps, stride,
asymmetric pads, a kernel padded along the rows only, 3-D), the copies' and convs' kernel names at
and past the limit, the conv's generated C without a gated load, and ONNX Conv against torch."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import _C, Tensor

from helpers import assert_conv_grads_match_torch, conv_nd as conv

rng = np.random.default_rng(0)

CASES = [
    ((2, 8, 3, 20), (8, 1, 5, 5), dict(padding=2, groups=8)),  # 3 rows x 5 taps
    ((2, 8, 2, 20), (8, 1, 5, 5), dict(padding=2, groups=8)),  # cut to 3 tap rows
    ((2, 8, 3, 20), (8, 1, 5, 5), dict(padding=2, stride=(2, 1), groups=8)),  # 2 rows out
    ((2, 4, 2, 12), (6, 4, 3, 3), dict(padding=1)),  # dense
    ((1, 3, 2, 9), (4, 3, 3, 5), dict(padding=(1, 2), dilation=(1, 2))),
    ((2, 4, 3, 10), (4, 1, 5, 1), dict(padding=(2, 0), groups=4)),  # rows padded, columns not
    ((1, 2, 2, 3, 9), (3, 2, 3, 3, 3), dict(padding=1)),  # 3-D: two axes read through the view
    ((2, 4, 6, 12), (4, 1, 3, 3), dict(padding=1, groups=4)),  # 18 > 16: the rows are copied
]


@pytest.mark.parametrize("xs,ws,kw", CASES)
def test_values_and_gradients_match_torch(xs, ws, kw):
    # a computed input: realized before the view pads it
    assert_conv_grads_match_torch(rng, xs, ws, kw, lambda t: t * 2 + 1)


def conv_kernels(xs, ws, kw):
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    return onegrad.kernels(conv(Tensor(x), Tensor(w), kw))


def test_the_copy_pads_only_the_columns_of_few_rows():
    names = lambda *a: [k.name for k in conv_kernels(*a)]  # noqa: E731
    # 3 rows x 5 taps = 15: the copy holds the 3 rows (not 3 + 2 + 2), 4 + 20 columns
    assert names((2, 8, 3, 20), (8, 1, 5, 5), dict(padding=2, groups=8)) == ["E_2_8_3_24", "r_2_8_3_20_5_5"]
    assert names((2, 8, 2, 20), (8, 1, 5, 5), dict(padding=2, groups=8)) == ["E_2_8_2_24", "r_2_8_2_20_3_5"]
    # 4 rows x 5 taps = 20 and 6 rows x 3 taps = 18: over the limit, the rows are copied padded
    assert names((2, 8, 4, 20), (8, 1, 5, 5), dict(padding=2, groups=8)) == ["E_2_8_8_24", "r_2_8_4_20_5_5"]
    assert names((2, 4, 6, 12), (4, 1, 3, 3), dict(padding=1, groups=4)) == ["E_2_4_8_14", "r_2_4_6_12_3_3"]
    # a buffer padded along its rows only needs no copy at all
    assert names((2, 4, 3, 10), (4, 1, 5, 1), dict(padding=(2, 0), groups=4)) == ["r_2_4_3_10_5"]
    # the columns (the last axis, read as vectors) keep their copy: a 1-D conv is unchanged
    assert names((2, 4, 3), (6, 4, 5), dict(padding=2)) == ["E_2_4_7", "r_2_6_3_4_5"]


@pytest.mark.parametrize("xs,ws,kw,rows,taps", [((16, 88, 3, 96), (88, 1, 5, 5), dict(padding=2, groups=88), 3, 5),
                                                ((16, 200, 2, 96), (200, 1, 5, 5), dict(padding=2, groups=200), 2, 3),
                                                ((16, 104, 3, 96), (104, 1, 5, 5), dict(padding=2, stride=(2, 1), groups=104), 2, 5)])
def test_the_conv_unrolls_its_rows_and_taps_and_loads_without_gates(xs, ws, kw, rows, taps):
    # PaddleOCR cls's depthwise convs at batch 16: the tap rows unrolled whole, the output rows
    # blocked whole, and no load of the generated C keeps a gate (`cond ? load : 0`)
    k = conv_kernels(xs, ws, kw)[-1]
    opts = k.default_opts()
    assert any(o.target == "UNROLL" and o.axis == 4 and o.arg == taps for o in opts), opts
    assert any(o.target == "UPCAST" and o.axis == 2 and o.arg == rows for o in opts), opts
    src = k.source()
    assert " ? " not in src
    assert "for (int64_t" in src


def test_a_gate_on_more_rows_than_the_limit_is_not_unrolled():
    # a 4-row output under a 5-row window read through the view (as a user's own pad makes it):
    # 20 combinations, over kDecidedGateCopies, so the tap rows stay a loop
    x, w = rng.standard_normal((2, 8, 4, 24), dtype=np.float32), rng.standard_normal((8, 1, 5, 5), dtype=np.float32)
    k = onegrad.kernels(Tensor(x).pad((0, 0, 2, 2)).conv2d(Tensor(w), groups=8))[-1]
    assert not any(o.target == "UNROLL" and o.arg == 5 for o in k.default_opts())


onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


@pytest.mark.skipif(getattr(_C, "onnx", None) is None, reason="this build has no ONNX import")
def test_onnx_conv_after_an_activation_matches_torch():
    # a Relu before each conv: the copy computes it; depthwise 5x5 on 3 and 2 rows, stride (2, 1),
    # asymmetric row pads, and a dense 3x3 on 2 rows
    for groups, cin, cout, k, h, strides, pads in ((8, 8, 8, 5, 3, (1, 1), (2, 2, 2, 2)), (8, 8, 8, 5, 2, (1, 1), (2, 2, 2, 2)),
                                                   (8, 8, 8, 5, 3, (2, 1), (2, 2, 2, 2)), (4, 4, 4, 3, 3, (1, 1), (2, 1, 0, 1)),
                                                   (1, 3, 5, 3, 2, (1, 1), (1, 1, 1, 1))):
        w = rng.standard_normal((cout, cin // groups, k, k)).astype(np.float32)
        b = rng.standard_normal((cout,)).astype(np.float32)
        nodes = [helper.make_node("Relu", ["x"], ["r"]),
                 helper.make_node("Conv", ["r", "w", "b"], ["y"], pads=list(pads), group=groups, strides=list(strides))]
        g = helper.make_graph(nodes, "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", cin, h, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
        m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
        for batch in (2, 2, 3):
            x = rng.standard_normal((batch, cin, h, 16)).astype(np.float32)
            xp = torch.nn.functional.pad(torch.from_numpy(x).relu(), (pads[1], pads[3], pads[0], pads[2]))
            want = torch.nn.functional.conv2d(xp, torch.from_numpy(w), torch.from_numpy(b), stride=strides, groups=groups).numpy()
            np.testing.assert_allclose(m(x)["y"].numpy(), want, rtol=1e-4, atol=1e-4)
