"""Window taps that read only padding are cut from a conv's kernel (tensor/conv_taps.h): a 5x5 window
over 2 rows padded by 2 sums 3x5 taps over the rows padded by 1, a 3x3 window over one row padded by 1
is a 1x3 one (a 1-D conv over one position, a matrix product). Values against torch (forward, and
the gradients of the input and of every weight tap), the kernels' names for the cut windows and
copies, conv_transpose over few rows, and ONNX Conv (asymmetric pads, named dims whose sizes change
between calls) against torch."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import _C, Tensor

from helpers import assert_conv_grads_match_torch, conv_nd as conv

rng = np.random.default_rng(0)

# (input shape, weight shape, torch conv kwargs): cut rows, cut columns, both, stride, dilation,
# a window whose every tap but one reads padding, 1-D and 3-D, and convs with nothing to cut
CASES = [
    ((2, 8, 2, 20), (8, 1, 5, 5), dict(padding=2, groups=8)),
    ((2, 4, 1, 7), (6, 4, 3, 3), dict(padding=1)),
    ((1, 3, 1, 1), (5, 3, 3, 3), dict(padding=1)),
    ((1, 3, 3, 9), (4, 3, 5, 5), dict(padding=2, stride=(2, 1))),
    ((1, 2, 2, 6), (2, 2, 3, 3), dict(padding=3)),
    ((1, 2, 1, 6), (2, 2, 3, 3), dict(padding=(2, 1), dilation=(2, 1))),
    ((1, 2, 3, 4), (3, 2, 5, 3), dict(padding=(4, 1), stride=2, dilation=(1, 2))),
    ((2, 4, 1), (6, 4, 3), dict(padding=1)),
    ((2, 4, 2), (6, 4, 5), dict(padding=2, stride=2)),
    ((1, 2, 1, 2, 5), (3, 2, 3, 3, 3), dict(padding=1)),
    ((1, 2, 4, 4), (3, 2, 3, 3), dict(padding=1, stride=2)),
    ((1, 3, 11, 13), (8, 3, 3, 3), dict(padding=1)),
]



@pytest.mark.parametrize("xs,ws,kw", CASES)
def test_values_and_gradients_match_torch(xs, ws, kw):
    # the cut taps' gradients are the zeros torch computes for them too
    assert_conv_grads_match_torch(rng, xs, ws, kw)


def kernel_names(xs, ws, kw):
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    return [k.name for k in onegrad.kernels(conv(Tensor(x), Tensor(w), kw))]


def test_a_5x5_window_over_two_rows_sums_three_tap_rows_over_a_copy_padded_by_one():
    # 3 x 5 taps (not 5 x 5); the columns keep all 5 taps. The rows' padding is a view over the
    # copy (tensor/conv_pads.h), which holds the 2 rows and the padded columns
    assert kernel_names((2, 8, 2, 20), (8, 1, 5, 5), dict(padding=2, groups=8)) == ["E_2_8_2_24", "r_2_8_2_20_3_5"]
    # 3 rows: every tap row reaches a row at some output, nothing is cut
    assert kernel_names((2, 8, 3, 20), (8, 1, 5, 5), dict(padding=2, groups=8)) == ["E_2_8_3_24", "r_2_8_3_20_5_5"]


def test_a_window_over_one_position_is_a_pointwise_conv():
    # one row padded by 1: only the middle tap row reads it, and the columns keep their copy
    assert kernel_names((2, 4, 1, 7), (6, 4, 3, 3), dict(padding=1)) == ["E_2_4_9", "r_2_6_7_4_3"]
    # a 1-D conv over one position: no padded copy, the conv is a matrix product over the channels
    assert kernel_names((2, 4, 1), (6, 4, 3), dict(padding=1)) == ["r_2_6_4"]


onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


@pytest.mark.skipif(getattr(_C, "onnx", None) is None, reason="this build has no ONNX import")
def test_onnx_conv_with_asymmetric_pads_matches_torch():
    # pads (top 3, left 1, bottom 1, right 2): rows 2 and 1 of the window read only padding at the top
    # and bottom of 2 input rows; a named batch dim, the rows and columns fixed
    for groups, cin, cout, k, h in ((1, 3, 5, 5, 2), (4, 4, 4, 5, 1), (1, 2, 3, 3, 4)):
        w = rng.standard_normal((cout, cin // groups, k, k)).astype(np.float32)
        b = rng.standard_normal((cout,)).astype(np.float32)
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[3, 1, 1, 2], group=groups)
        g = helper.make_graph([node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", cin, h, 7])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
        m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
        for batch in (2, 2, 3):
            x = rng.standard_normal((batch, cin, h, 7)).astype(np.float32)
            xp = torch.nn.functional.pad(torch.from_numpy(x), (1, 2, 3, 1))
            want = torch.nn.functional.conv2d(xp, torch.from_numpy(w), torch.from_numpy(b), groups=groups).numpy()
            np.testing.assert_allclose(m(x)["y"].numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(getattr(_C, "onnx", None) is None, reason="this build has no ONNX import")
def test_onnx_conv_with_named_rows_and_columns_cuts_per_call_shape():
    # the rows change between calls (2 rows: a cut; 5: none; 1: all but the middle tap row), and each
    # call repeats (the plain call, the capture, replays)
    w = rng.standard_normal((4, 1, 5, 5)).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w"], ["y"], pads=[2, 2, 2, 2], group=4)
    g = helper.make_graph([node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4, "h", "w_"])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(w, "w")])
    m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
    for h, cols in ((2, 9), (2, 9), (2, 9), (5, 9), (5, 9), (1, 9), (1, 9), (2, 9), (3, 4), (3, 4)):
        x = rng.standard_normal((2, 4, h, cols)).astype(np.float32)
        want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), padding=2, groups=4).numpy()
        np.testing.assert_allclose(m(x)["y"].numpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("xs,ws,kw", [((1, 2, 1, 3), (2, 3, 3, 3), dict(padding=1)),
                                      ((2, 3, 2, 4), (3, 2, 5, 5), dict(padding=2, groups=1)),
                                      ((1, 2, 1, 2), (2, 2, 3, 3), dict(padding=1, stride=2))])
def test_conv_transpose_over_few_rows_matches_torch(xs, ws, kw):
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    want = torch.nn.functional.conv_transpose2d(tx, tw, **kw)
    gy = rng.standard_normal(tuple(want.shape), dtype=np.float32)
    want.backward(torch.tensor(gy))
    ox, ow = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
    y = ox.conv_transpose2d(ow, **kw)
    np.testing.assert_allclose(y.numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-4)
    (y * Tensor(gy)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ow.grad.numpy(), tw.grad.numpy(), rtol=1e-4, atol=1e-4)
