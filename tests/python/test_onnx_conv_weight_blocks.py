"""ONNX Conv's constant weight in blocks of the output channels its kernel blocks (docs/onnx.md):
a dense conv with a window, stride 1 along its rows, folds its weight as (cout / b, cin, k..., b)
where the kernel blocks b channels beside a row of columns, so each block of channels reads one
contiguous run of weights; other convs keep the output channels innermost. Checked on the weight's
address in the conv's C (its steps per range: a window column steps b floats blocked, cout
innermost), the values against torch, and the sum bit for bit against the channels-innermost
layout. A weight view read as (c / m, c % m) makes the heuristics block the channels by m."""
import re

import numpy as np
import pytest
import torch

import onegrad
from onegrad import _C, Tensor

onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

pytestmark = pytest.mark.skipif(getattr(_C, "onnx", None) is None, reason="this build has no ONNX import")


def conv_model(tmp_path, xs, w, **attrs):
    g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], **attrs)], "conv",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(xs))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(w, "w")])
    path = tmp_path / "conv.onnx"
    path.write_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
    return onegrad.onnx.load(str(path))


def conv_kernel(m, x):
    ks = [k for k in onegrad.kernels(m.run_lazy({"x": x})["y"]) if k.name.startswith("r_")]
    assert len(ks) == 1, [k.name for k in ks]
    return ks[0]


def weight_steps(src, param):
    """The constant steps of the address the kernel reads the weight (buffer `param`) at."""
    at = re.search(rf"b{param}\[\(?(alu\d+)", src).group(1)
    steps = []
    while at:  # an address may be another address plus a tap's constant offset (unrolled taps)
        expr = re.search(rf"int64_t {at} = (.*);", src).group(1)
        assert "/" not in expr and "%" not in expr, expr
        steps = [int(s) for s in re.findall(r"\* (\d+)\)", expr)] + steps
        base = re.match(r"\(+(alu\d+) \+", expr)
        at = base.group(1) if base else None
    return steps


def torch_conv(x, w, attrs):
    pads = attrs.get("pads", [0] * (2 * (w.ndim - 2)))
    nd = w.ndim - 2
    assert pads[:nd] == pads[nd:]
    f = torch.nn.functional.conv1d if nd == 1 else torch.nn.functional.conv2d
    return f(torch.from_numpy(x).double(), torch.from_numpy(w).double(), stride=attrs.get("strides", 1), padding=pads[:nd]).numpy()


# (input, weight, attrs, block): det's 96 -> 24 channel 3x3 convs on 80x80 (16 columns x 6
# channels) and 40x40 (8 x 12), a 1-D conv of 128 channels (16 x 8); kept innermost (block None):
# a stride-2 conv (the channels take the vector lanes), rows of 3 columns (too short for a
# vector: the channels take the lanes), a 1x1 conv (a matrix product).
CASES = [
    ((1, 96, 80, 80), (24, 96, 3, 3), dict(pads=[1, 1, 1, 1]), 6),
    ((1, 96, 40, 40), (24, 96, 3, 3), dict(pads=[1, 1, 1, 1]), 12),
    ((2, 128, 64), (128, 128, 3), dict(pads=[1, 1]), 8),
    ((1, 3, 64, 64), (16, 3, 3, 3), dict(pads=[1, 1, 1, 1], strides=[2, 2]), None),
    ((1, 8, 3, 3), (16, 8, 3, 3), dict(pads=[1, 1, 1, 1]), None),
    ((1, 96, 20, 20), (24, 96, 1, 1), {}, None),
]


@pytest.mark.parametrize("xs,ws,attrs,block", CASES)
def test_weight_blocks_follow_the_kernels_channel_block(tmp_path, xs, ws, attrs, block):
    rng = np.random.default_rng(sum(ws))
    x = rng.standard_normal(xs, dtype=np.float32)
    w = (rng.standard_normal(ws) * 0.1).astype(np.float32)
    m = conv_model(tmp_path, xs, w, **attrs)
    src = conv_kernel(m, x).source()
    cout, taps = ws[0], int(np.prod(ws[2:]))
    steps = weight_steps(src, 2)
    if block is None:
        # the innermost reduce range (a window column, or the input channel of a 1x1) steps cout
        assert steps[-1] == cout, steps
    else:
        # a window column steps one block; a block of channels, all cin x taps runs of the block
        assert steps[-1] == block and ws[1] * taps * block in steps and cout not in steps, steps
    np.testing.assert_allclose(m({"x": x})["y"].numpy(), torch_conv(x, w, attrs), rtol=1e-4, atol=1e-4)


def blocked_view(w, b):
    """w (cout, cin, k, k) kept as (cout / b, cin, k, k, b) and viewed back, as ONNX Conv folds it."""
    cout, cin, kh, kw = w.shape
    folded = np.ascontiguousarray(w.reshape(cout // b, b, cin, kh, kw).transpose(0, 2, 3, 4, 1))
    return Tensor(folded).permute(0, 4, 1, 2, 3).reshape(cout, cin, kh, kw)


def channels_inner_view(w):
    return Tensor(np.ascontiguousarray(w.transpose(1, 2, 3, 0))).permute(3, 0, 1, 2)


# On 40x40 the heuristics alone block 12 channels; a weight blocked by 6 makes them block 6 (12
# would read it as (c / 6, c % 6) per load), and the sums stay those of the innermost layout.
@pytest.mark.parametrize("b", [6, 12])
def test_a_blocked_weight_view_sets_the_channel_block(b):
    rng = np.random.default_rng(b)
    x = rng.standard_normal((1, 96, 42, 42), dtype=np.float32)
    w = (rng.standard_normal((24, 96, 3, 3)) * 0.1).astype(np.float32)
    y = Tensor(x).conv2d(blocked_view(w, b))
    k, = [k for k in onegrad.kernels(y) if k.name.startswith("r_")]
    assert f"SPLIT(0, {b}, UPCAST)" in [str(o) for o in k.default_opts()]
    steps = weight_steps(k.source(), 2)
    assert steps[-1] == b and 96 * 9 * b in steps, steps
    np.testing.assert_array_equal(y.numpy(), Tensor(x).conv2d(channels_inner_view(w)).numpy())


# A width named in the model changes between calls (80 columns, 40, 3: blocks of 6, 12, none when
# each call's width chose the layout); every call matches torch.
def test_a_width_that_changes_between_calls_matches_torch(tmp_path):
    rng = np.random.default_rng(7)
    w = (rng.standard_normal((24, 16, 3, 3)) * 0.1).astype(np.float32)
    m = conv_model(tmp_path, (1, 16, 4, "W"), w, pads=[1, 1, 1, 1])
    for width in (80, 40, 3, 80):
        x = rng.standard_normal((1, 16, 4, width), dtype=np.float32)
        np.testing.assert_allclose(m({"x": x})["y"].numpy(), torch_conv(x, w, dict(pads=[1, 1, 1, 1])), rtol=1e-4, atol=1e-4)
