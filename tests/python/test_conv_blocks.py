"""The register blocks the heuristics give convolutions (docs/kernel_opts.md, "Hand-coded
heuristics"): the block along a conv's output row is whole vectors of 8 and 4 lanes, taking a 10-wide
row with the next one (20 = 8 + 8 + 4) where input and output walk on from row to row (a 1x1 conv),
and a 20-wide row whole; a pointwise conv realized as its own buffer blocks its pixels as one axis;
results against torch."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def conv_kernel(x, w, groups=1):
    ks = [k for k in onegrad.kernels(Tensor(x).conv2d(Tensor(w), groups=groups)) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


def upcasts(k):
    return [str(o) for o in k.default_opts() if o.op == "SPLIT" and o.target == "UPCAST"]


def data(ci, co, hw, kk, groups=1, seed=0):
    rng = np.random.default_rng(seed)
    h, w = hw if isinstance(hw, tuple) else (hw, hw)
    x = rng.standard_normal((1, ci, h, w), dtype=np.float32)
    w = rng.standard_normal((co, ci // groups, kk, kk), dtype=np.float32)
    return x, w


def test_1x1_conv_on_10x10_blocks_two_rows_of_pixels():
    x, w = data(64, 48, 10, 1)
    k = conv_kernel(x, w)
    assert k.shape == "L48 L10 L10 R64"
    # the 10-wide row whole, two rows of it (20 pixels: 8 + 8 + 4 lanes, 3 registers), 4 output
    # channels: 12 accumulator registers
    assert upcasts(k) == ["SPLIT(2, 10, UPCAST)", "SPLIT(1, 2, UPCAST)", "SPLIT(0, 4, UPCAST)"]
    src = k.source()
    assert "og_store_f32x8(&b0[" in src and "og_store_f32x4(&b0[" in src
    assert "float acc" not in src  # no scalar accumulator: every pixel is a vector lane


def test_1x1_conv_with_a_cout_inner_weight_blocks_two_rows():
    # the ONNX loader keeps a constant weight with its output channels innermost (src/onnx/op_nn.cpp)
    x, w = data(96, 40, 10, 1, seed=1)
    wt = Tensor(np.ascontiguousarray(w.transpose(2, 3, 1, 0))).permute(3, 2, 0, 1)
    ks = [k for k in onegrad.kernels(Tensor(x).conv2d(wt)) if k.name.startswith("r_")]
    assert len(ks) == 1
    assert upcasts(ks[0]) == ["SPLIT(2, 10, UPCAST)", "SPLIT(1, 2, UPCAST)", "SPLIT(0, 4, UPCAST)"]
    got = Tensor(x).conv2d(wt).numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_3x3_conv_on_10x10_keeps_one_row():
    # its windows read 12-wide padded rows: two output rows are not one run of the input
    x, w = data(16, 24, 12, 3)
    k = conv_kernel(x, w)
    assert k.shape == "L24 L10 L10 R16 R3 R3"
    ups = upcasts(k)
    assert ups[0] == "SPLIT(2, 10, UPCAST)" and not any(u.startswith("SPLIT(1,") for u in ups)


def test_20_wide_rows_are_blocked_whole():
    x, w = data(32, 24, 20, 1)
    assert upcasts(conv_kernel(x, w)) == ["SPLIT(2, 20, UPCAST)", "SPLIT(0, 4, UPCAST)"]
    # a depthwise 5x5: the weight is shared along the rows and columns, 20 columns x 4 rows
    x, w = data(16, 16, 24, 5, groups=16)
    k = conv_kernel(x, w, groups=16)
    assert k.shape == "L16 L20 L20 R5 R5"
    assert upcasts(k)[0] == "SPLIT(2, 20, UPCAST)"


def test_rows_that_cannot_make_whole_vectors_are_not_joined():
    # 7 columns: 2 x 7 = 14 and 4 x 7 = 28 are no multiple of 4 within the caps (8 x 7 = 56 > 40)
    x, w = data(16, 24, 7, 1)
    ups = upcasts(conv_kernel(x, w))
    assert ups[0] == "SPLIT(2, 7, UPCAST)" and not any(u.startswith("SPLIT(1,") for u in ups)


def test_second_block_fills_twelve_accumulator_registers():
    # a 3x3 conv 96 -> 24 on 80x80: 16 columns (two 8-lane vectors) x 6 output channels = 12
    # accumulators (16 x 8 spilled: 5.5-6.3 ms per call against 3.4-3.7)
    x, w = data(96, 24, (82, 82), 3)
    assert upcasts(conv_kernel(x, w)) == ["SPLIT(2, 16, UPCAST)", "SPLIT(0, 6, UPCAST)"]
    # on 40x40: 8 columns (one vector) x 12 channels
    x, w = data(96, 24, (42, 42), 3)
    assert upcasts(conv_kernel(x, w)) == ["SPLIT(2, 8, UPCAST)", "SPLIT(0, 12, UPCAST)"]
    # a matmul whose rows have no 6 or 12 keeps 16 x 8 (16 accumulators; 16 x 4 ran twice as long)
    k, = onegrad.kernels(Tensor(np.ones((64, 32), np.float32)) @ Tensor(np.ones((32, 64), np.float32)))
    assert upcasts(k) == ["SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]


def test_a_depthwise_conv_on_few_rows_widens_its_columns_to_twelve_registers():
    # 2 output rows x 16 columns is 4 accumulators: too few chains to hide the fused multiply-adds'
    # latency. Whole rows taken, the columns widen to fill 12 registers: 2 x 48 and 3 x 32.
    x, w = data(24, 24, (6, 100), 5, groups=24)
    k = conv_kernel(x, w, groups=24)
    assert k.shape == "L24 L2 L96 R5 R5"
    assert upcasts(k) == ["SPLIT(2, 48, UPCAST)", "SPLIT(1, 2, UPCAST)"]
    assert k.source().count("og_f32x8 acc") == 12
    x, w = data(24, 24, (7, 100), 5, groups=24)
    assert upcasts(conv_kernel(x, w, groups=24)) == ["SPLIT(2, 32, UPCAST)", "SPLIT(1, 3, UPCAST)"]
    # 6 rows of 16 columns fill the 12 registers already
    x, w = data(24, 24, (10, 100), 5, groups=24)
    assert upcasts(conv_kernel(x, w, groups=24)) == ["SPLIT(2, 16, UPCAST)", "SPLIT(1, 6, UPCAST)"]


@pytest.mark.parametrize("ci,co,hw,kk,groups", [
    (96, 24, 18, 3, 1),     # 16 columns x 6 channels
    (96, 24, 10, 3, 1),     # 8 columns x 12 channels
    (64, 48, 10, 1, 1),     # two rows of 10
    (48, 40, (8, 5), 1, 1), # 8 rows of 5 (40 pixels: 5 vectors)
    (24, 16, 6, 1, 1),      # 2 rows of 6 (12 pixels: 8 + 4)
    (32, 24, 20, 1, 1),     # a 20-wide row whole
    (16, 24, 12, 3, 1),     # 3x3 windows on 10x10
    (16, 24, 22, 3, 1),     # 3x3 windows on 20x20
    (16, 16, 24, 5, 16),    # depthwise 5x5 on 20x20
    (24, 24, (6, 100), 5, 24),  # depthwise 5x5 on 2x96: 2 rows x 48 columns
    (24, 24, (7, 100), 5, 24),  # on 3x96: 3 rows x 32 columns
    (16, 24, 7, 1, 1),      # 7 columns: not joined
])
def test_blocked_convs_match_torch(ci, co, hw, kk, groups):
    x, w = data(ci, co, hw, kk, groups, seed=ci + kk)
    b = np.random.default_rng(2).standard_normal(co, dtype=np.float32)
    got = Tensor(x).conv2d(Tensor(w), Tensor(b), groups=groups).relu().numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), groups=groups).relu().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def fused_epilogue(y):
    for _ in range(6):  # 18 ops per output after the reduction: 80 copies of them exceed the budget
        y = (y * 0.5 + 0.25).relu()
    return y


def test_a_large_fused_epilogue_shrinks_the_channels_not_the_vectors():
    x, w = data(64, 48, 10, 1, seed=3)
    ks = [k for k in onegrad.kernels(fused_epilogue(Tensor(x).conv2d(Tensor(w)))) if k.name.startswith("r_")]
    assert len(ks) == 1
    # the expansion budget shrinks the output channels' block (4 -> 2); the two rows of 10 stay
    assert upcasts(ks[0]) == ["SPLIT(2, 10, UPCAST)", "SPLIT(1, 2, UPCAST)", "SPLIT(0, 2, UPCAST)"]
    got = fused_epilogue(Tensor(x).conv2d(Tensor(w))).numpy()
    t = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w))
    for _ in range(6):
        t = (t * 0.5 + 0.25).relu()
    np.testing.assert_allclose(got, t.numpy(), rtol=1e-4, atol=1e-4)


def onnx_conv1x1_kernel(ci, co, hw, seed=0):
    # as the ONNX loader keeps a constant weight: output channels innermost
    x, w = data(ci, co, hw, 1, seed=seed)
    wt = Tensor(np.ascontiguousarray(w.transpose(2, 3, 1, 0))).permute(3, 2, 0, 1)
    ks = [k for k in onegrad.kernels(Tensor(x).conv2d(wt)) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0], x, w, wt


def unrolls(k):
    return [str(o) for o in k.default_opts() if o.op == "SPLIT" and o.target == "UNROLL"]


def test_a_block_of_sixteen_accumulator_registers_unrolls_the_reduce_by_two():
    # PaddleOCR rec's 1x1 conv 128 -> 128 on 12x160: 128 has no 6 or 12, so 16 columns x 8 channels
    # (16 registers, 3 spilled); unrolled by 2 each spilled accumulator is loaded and stored once
    # per two multiply-adds (1.44 -> 1.01 ms on one core)
    k, x, w, wt = onnx_conv1x1_kernel(128, 128, (12, 160))
    assert k.shape == "L128 L12 L160 R128"
    assert upcasts(k) == ["SPLIT(2, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]
    assert unrolls(k) == ["SPLIT(3, 2, UNROLL)"]
    src = k.source()
    assert "og_fma_f32x8(" in src and "float acc" not in src
    got = Tensor(x).conv2d(wt).numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def swaps(k):
    return [str(o) for o in k.default_opts() if o.op == "SWAP"]


def test_loop_swap_only_where_the_reduction_covers_the_outputs():
    # 16 columns x 8 channels; the swap would put the 160-pixel column panel outside the rows and
    # the channel blocks inside them: 32 output channels from 16 reduce terms, kept in plain order
    # (a 1x1 conv 16 -> 32 on 160x160: 0.85 ms against 2.1 ms swapped)
    x, w = data(16, 32, 160, 1)
    k = conv_kernel(x, w)
    assert upcasts(k) == ["SPLIT(2, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]
    assert swaps(k) == []
    # 24 -> 96 channels on 80x80 (0.49 ms against 0.77)
    assert swaps(conv_kernel(*data(24, 96, 80, 1))) == []
    # 48 -> 48 channels, and a 3x3 conv 96 -> 24 (864 reduce terms): the swap stays
    assert swaps(conv_kernel(*data(48, 48, 80, 1))) == ["SWAP(0, 3)"]
    assert swaps(conv_kernel(*data(96, 24, (82, 82), 3))) == ["SWAP(0, 2)", "SWAP(2, 3)"]
    # a matmul's column panels stay outside its row blocks (64 rows, 48 reduce terms)
    k, = onegrad.kernels(Tensor(np.ones((64, 48), np.float32)) @ Tensor(np.ones((48, 64), np.float32)))
    assert swaps(k) == ["SWAP(0, 2)"]


@pytest.mark.parametrize("ci,co,hw", [(16, 32, 32), (8, 32, 32), (24, 96, 32)])
def test_unswapped_convs_match_torch(ci, co, hw):
    x, w = data(ci, co, hw, 1, seed=co)
    k = conv_kernel(x, w)
    assert len(upcasts(k)) == 2 and swaps(k) == []  # two blocks, both split: the old rule swapped
    got = Tensor(x).conv2d(Tensor(w)).numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_a_block_of_twelve_accumulator_registers_is_not_unrolled():
    # 240 channels: 16 columns x 6 channels fill 12 registers, none spilled (unrolled by 2 it ran slower)
    k, x, w, wt = onnx_conv1x1_kernel(240, 240, (12, 80), seed=1)
    assert upcasts(k) == ["SPLIT(2, 16, UPCAST)", "SPLIT(0, 6, UPCAST)"]
    assert unrolls(k) == []


@pytest.mark.parametrize("m,kk,n", [(64, 32, 64), (40, 120, 368), (32, 33, 48), (16, 2, 32)])
def test_matmuls_of_sixteen_accumulator_registers_match_numpy(m, kk, n):
    rng = np.random.default_rng(m + kk + n)
    a = rng.standard_normal((m, kk), dtype=np.float32)
    b = rng.standard_normal((kk, n), dtype=np.float32)
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    assert upcasts(k)[:2] == ["SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]
    # an odd reduce (33) is not unrolled
    assert unrolls(k) == ([] if kk % 2 else ["SPLIT(2, 2, UNROLL)"])
    got = (Tensor(a) @ Tensor(b)).numpy()
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_windowed_conv_keeps_its_rows_outermost():
    # a 3x3 conv: the window taps walk the input rows with unit stride, like the 16-column block, so
    # the channel blocks' loop moves inside the column blocks' past the rows (co h wblk -> h wblk co)
    # where a 1x1 conv (no window) gets the one SWAP
    x, w = data(48, 24, 34, 3, seed=5)
    k = conv_kernel(x, w)
    assert upcasts(k) == ["SPLIT(2, 16, UPCAST)", "SPLIT(0, 6, UPCAST)"]
    assert swaps(k) == ["SWAP(0, 2)", "SWAP(2, 3)"]
    assert k.optimize([o for o in k.default_opts() if o.op != "SPLIT" or o.target != "THREAD"]) == "L32 u6 L2 L4 u16 R48 R3 R3"
    assert swaps(conv_kernel(*data(48, 24, 32, 1))) == ["SWAP(0, 3)"]
    b = np.random.default_rng(4).standard_normal(24, dtype=np.float32)
    got = Tensor(x).conv2d(Tensor(w), Tensor(b)).relu().numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b)).relu().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def conv1d_cout_inner(x, w, b):
    # the ONNX loader's layout: the weight stored (cin, k, cout) and viewed back as (cout, cin, k)
    wt = Tensor(np.ascontiguousarray(w.transpose(1, 2, 0))).permute(2, 0, 1)
    return Tensor(x).conv1d(wt, Tensor(b), padding=1).relu()


def test_three_positions_give_the_vector_lanes_to_the_output_channels():
    # Silero VAD's encoder: 129 -> 128 channels over 3 positions, the weight's output channels
    # innermost. Both the positions and the channels are unit-stride, but 3 positions make no
    # vector: the channels take the lanes, not 3 positions x 4 channels in 128-bit halves (0.31 ->
    # 0.13 ms per call at batch 16 with 16 channels); the positions taken whole leave 6 registers,
    # so the channel block widens to 32 (12 accumulators; 0.13 -> 0.09-0.12 ms)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((16, 129, 3), dtype=np.float32)
    w = rng.standard_normal((128, 129, 3), dtype=np.float32)
    b = rng.standard_normal(128, dtype=np.float32)
    ks = [k for k in onegrad.kernels(conv1d_cout_inner(x, w, b)) if k.name.startswith("r_")]
    assert len(ks) == 1 and ks[0].shape == "L16 L128 L3 R129 R3"
    assert upcasts(ks[0]) == ["SPLIT(2, 3, UPCAST)", "SPLIT(1, 32, UPCAST)"]
    src = ks[0].source()
    assert "og_f32x8 acc" in src and "og_f32x4" not in src
    want = torch.nn.functional.conv1d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), padding=1).relu()
    np.testing.assert_allclose(conv1d_cout_inner(x, w, b).numpy(), want.numpy(), rtol=1e-4, atol=1e-4)
    # with the weight as given (cout outermost) only the positions are unit-stride: they stay first
    ks = [k for k in onegrad.kernels(Tensor(x).conv1d(Tensor(w), Tensor(b), padding=1)) if k.name.startswith("r_")]
    assert upcasts(ks[0])[0] == "SPLIT(2, 3, UPCAST)" and "SPLIT(1, 16, UPCAST)" not in upcasts(ks[0])


def realized_pointwise(x, w):
    """A 1x1 conv whose result two ops read: realized as its own buffer, the flat product of the
    conv (Tensor::conv runs a pointwise conv over its pixels as one axis, docs/tensor.md)."""
    y = Tensor(x).conv2d(Tensor(w))
    outs = (y.relu(), y * 2)
    ks = [k for k in onegrad.kernels(*outs) if k.name.startswith("r_")]
    assert len(ks) == 1
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(outs[0].numpy(), np.maximum(want, 0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(outs[1].numpy(), want * 2, rtol=1e-4, atol=1e-4)
    return ks[0]


def test_a_pointwise_conv_blocks_its_pixels_as_one_axis():
    # 20x20 pixels as 400 = 25 x 16 lanes, 6 output channels (12 accumulators): det's 192 -> 192
    # took 0.36 ms per call on one core where rows of 20 (8 + 8 + 4 lanes x 4 channels) took 0.80
    x, w = data(64, 48, 20, 1)
    k = realized_pointwise(x, w)
    assert (k.name, k.shape) == ("r_48_400_64", "L48 L400 R64")
    assert upcasts(k) == ["SPLIT(1, 16, UPCAST)", "SPLIT(0, 6, UPCAST)"]


def test_a_hundred_pixels_block_twenty():
    # 10x10 pixels as one axis of 100: no 16 or 8 divides it, 20 does (8 + 8 + 4 lanes), x 4 channels
    x, w = data(64, 48, 10, 1, seed=2)
    k = realized_pointwise(x, w)
    assert k.shape == "L48 L100 R64"
    assert upcasts(k) == ["SPLIT(1, 20, UPCAST)", "SPLIT(0, 4, UPCAST)"]


def test_pointwise_convs_on_views_and_three_axes_match_torch():
    rng = np.random.default_rng(3)
    # an NHWC input permuted to NCHW: the flat pixels read it with stride 8
    nhwc = rng.standard_normal((2, 5, 6, 8), dtype=np.float32)
    w = rng.standard_normal((12, 8, 1, 1), dtype=np.float32)
    b = rng.standard_normal(12, dtype=np.float32)
    got = Tensor(nhwc).permute(0, 3, 1, 2).conv2d(Tensor(w), Tensor(b)).numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(nhwc).permute(0, 3, 1, 2), torch.from_numpy(w), torch.from_numpy(b))
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-4, atol=1e-4)
    # three spatial axes, and the gradients through the reshapes
    x = rng.standard_normal((1, 4, 3, 5, 6), dtype=np.float32)
    w3 = rng.standard_normal((6, 4, 1, 1, 1), dtype=np.float32)
    xo, wo = Tensor(x, requires_grad=True), Tensor(w3, requires_grad=True)
    yo = xo.conv3d(wo)
    (yo * yo).sum().backward()
    xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w3).requires_grad_()
    yt = torch.nn.functional.conv3d(xt, wt)
    (yt * yt).sum().backward()
    np.testing.assert_allclose(yo.numpy(), yt.detach().numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(wo.grad.numpy(), wt.grad.numpy(), rtol=1e-4, atol=1e-3)


def test_a_fused_epilogue_shrinks_the_rows_before_the_lanes():
    # a depthwise 3x3 with hardswish fused: 16 columns x 8 rows of copies exceed the expansion
    # budget, and dropping either block leaves the same ops; the rows drop, the columns stay 16 lanes
    x, w = data(16, 16, 82, 3, groups=16, seed=2)
    y = Tensor(x).conv2d(Tensor(w), groups=16).hardswish()
    ks = [k for k in onegrad.kernels(y) if k.name.startswith("r_")]
    assert len(ks) == 1 and ks[0].shape == "L16 L80 L80 R3 R3"
    ups = upcasts(ks[0])
    assert ups[0] == "SPLIT(2, 16, UPCAST)" and ups[1].startswith("SPLIT(1, ")
    assert "og_f32x4" not in ks[0].source()
    want = torch.nn.functional.hardswish(torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), groups=16))
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)


def test_a_whole_row_keeps_its_lanes_under_the_budget():
    # a depthwise 5x5 on 20x20 with a scale, hardswish, scale and relu fused: 20 columns (8 + 8 + 4
    # lanes) x 4 rows exceed the expansion budget; the rows drop to 2 while the whole row stays, not
    # the row to 4 lanes (its next smaller factor)
    x, w = data(32, 32, 24, 5, groups=32, seed=3)
    s = np.random.default_rng(4).standard_normal((1, 32, 1, 1), dtype=np.float32)
    y = ((Tensor(x).conv2d(Tensor(w), groups=32) * Tensor(s) + Tensor(s)).hardswish() * Tensor(s)).relu()
    ks = [k for k in onegrad.kernels(y) if k.name.startswith("r_")]
    assert len(ks) == 1 and ks[0].shape == "L32 L20 L20 R5 R5"
    assert upcasts(ks[0]) == ["SPLIT(2, 20, UPCAST)", "SPLIT(1, 2, UPCAST)"]
    c = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), groups=32)
    ts = torch.from_numpy(s)
    want = torch.relu(torch.nn.functional.hardswish(c * ts + ts) * ts)
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)
