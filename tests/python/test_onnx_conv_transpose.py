"""ONNX ConvTranspose against a brute-force numpy loop of its definition (every input element times
every tap, added at i*stride + k*dilation - pad_begin): symmetric and asymmetric pads (which the
import hands to the Tensor op, cropping only what one end pads more), output_padding, dilations,
groups, auto_pad and output_shape, 1-D and 2-D."""
import numpy as np
import pytest

import onegrad

onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

if getattr(onegrad._C, "onnx", None) is None:
    pytest.skip("this build has no ONNX import (libprotobuf-dev, protobuf-compiler)", allow_module_level=True)


def reference(x, w, strides, pads, dil, out_pad, group, out_size):
    """out_size: the output's spatial dims; pads: the begin pads (the end follows from out_size)."""
    n, cin = x.shape[:2]
    rcout, ks = w.shape[1], w.shape[2:]
    nd = len(ks)
    y = np.zeros((n, rcout * group) + tuple(out_size), np.float64)
    cin_g = cin // group
    for idx in np.ndindex(*x.shape[2:]):
        for kidx in np.ndindex(*ks):
            o = tuple(idx[j] * strides[j] + kidx[j] * dil[j] - pads[j] for j in range(nd))
            if any(o[j] < 0 or o[j] >= out_size[j] for j in range(nd)):
                continue
            for g in range(group):
                xs = x[(slice(None), slice(g * cin_g, (g + 1) * cin_g)) + idx]  # (n, cin_g)
                ws = w[(slice(g * cin_g, (g + 1) * cin_g), slice(None)) + kidx]  # (cin_g, rcout)
                y[(slice(None), slice(g * rcout, (g + 1) * rcout)) + o] += xs @ ws
    return y


def model(attrs, xshape, w):
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct", **attrs)
    g = helper.make_graph([node], "ct", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(xshape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(w, "w")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


CASES = [  # (input spatial, kernel, strides, pads begin+end, dilations, output_padding, group)
    ((7, 6), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), (0, 0), 1),
    ((7, 6), (3, 3), (2, 2), (1, 0, 2, 1), (1, 1), (0, 0), 1),
    ((5, 5), (2, 2), (2, 2), (0, 0, 0, 0), (1, 1), (1, 1), 1),
    ((5, 6), (3, 2), (3, 2), (2, 1, 1, 0), (1, 1), (2, 1), 1),
    ((6, 5), (3, 3), (2, 1), (2, 2, 2, 2), (2, 2), (1, 0), 2),
    ((6, 5), (4, 4), (1, 1), (1, 2, 3, 0), (1, 1), (0, 0), 1),
    ((9,), (4,), (3,), (2, 1), (1,), (1,), 1),
]


@pytest.mark.parametrize("xs,ks,strides,pads,dil,out_pad,group", CASES)
def test_conv_transpose_pads_match_the_loop(xs, ks, strides, pads, dil, out_pad, group):
    rng = np.random.default_rng(len(xs) * 100 + sum(pads))
    nd, cin, rcout = len(xs), 4, 3
    x = rng.standard_normal((2, cin) + xs).astype(np.float32)
    w = rng.standard_normal((cin, rcout) + ks).astype(np.float32)
    attrs = dict(strides=list(strides), pads=list(pads), dilations=list(dil), output_padding=list(out_pad), group=group)
    out = [strides[j] * (xs[j] - 1) + out_pad[j] + (ks[j] - 1) * dil[j] + 1 - pads[j] - pads[nd + j] for j in range(nd)]
    y = onegrad.onnx.load_bytes(model(attrs, x.shape, w).SerializeToString(), ".")(x)["y"].numpy()
    want = reference(x, w, strides, pads[:nd], dil, out_pad, group, out)
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("auto_pad", ["SAME_UPPER", "SAME_LOWER"])
def test_conv_transpose_auto_pad_and_output_shape(auto_pad):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 5, 4)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    full = [2 * (5 - 1) + 3, 2 * (4 - 1) + 3]  # 11, 9
    for attrs, want_out in ((dict(strides=[2, 2], auto_pad=auto_pad), [10, 8]),
                            (dict(strides=[2, 2], output_shape=[10, 7]), [10, 7])):
        total = [full[j] - want_out[j] for j in range(2)]
        lower = attrs.get("auto_pad") == "SAME_LOWER"
        begin = [t - t // 2 if lower else t // 2 for t in total]
        y = onegrad.onnx.load_bytes(model(attrs, x.shape, w).SerializeToString(), ".")(x)["y"].numpy()
        want = reference(x, w, (2, 2), begin, (1, 1), (0, 0), 1, want_out)
        np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)
