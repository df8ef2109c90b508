"""Kernel inspection (onegrad.kernels, docs/kernel_opts.md "Inspecting kernels"): the
schedule a program would run, without running it; opts applied to its kernels and their shapes;
the C source; OptError for opts that do not apply, with the opt, the shape and the rule named."""

import numpy as np
import pytest

import onegrad
from onegrad import Opt, OptError, Tensor, _C


def matmul_kernel():
    a = Tensor(np.ones((32, 16), np.float32))
    b = Tensor(np.ones((16, 8), np.float32))
    ks = onegrad.kernels(a @ b)
    assert len(ks) == 1
    return ks[0]


def test_schedule_without_running():
    before = _C.engine_stats()["kernels_run"]
    k = matmul_kernel()
    assert k.shape == "L32 L8 R16"
    assert k.name.startswith("r_")
    assert repr(k) == f"<Kernel {k.name} L32 L8 R16>"
    assert _C.engine_stats()["kernels_run"] == before


def test_realized_tensors_need_no_kernels():
    t = Tensor(np.arange(6, dtype=np.float32)).realize()
    assert onegrad.kernels(t) == []


def test_several_kernels_in_order():
    x = Tensor(np.ones((4, 5), np.float32))
    ks = onegrad.kernels(x.softmax(-1), x.sum())
    assert len(ks) >= 2
    assert all(k.reason for k in ks)


def test_opts_compose_left_to_right():
    k = matmul_kernel()
    assert k.optimize([Opt.split(1, 4, "UPCAST")]) == "L32 L2 u4 R16"
    assert k.optimize([Opt.split(1, 4, "UPCAST"), Opt.split(3, 4, "UNROLL")]) == "L32 L2 u4 R4 r4"
    assert k.optimize([Opt.swap(0, 1)]) == "L8 L32 R16"
    assert k.optimize([]) == k.shape


def test_padto_rounds_an_axis_up_and_gates_it():
    a = np.arange(5 * 7, dtype=np.float32).reshape(5, 7) % 5
    b = np.arange(7 * 3, dtype=np.float32).reshape(7, 3) % 3
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    assert k.optimize([Opt.padto(0, 4), Opt.padto(2, 4), Opt.split(2, 4, "UNROLL")]) == "L8 L3 R2 r4"
    assert str(Opt.padto(0, 4)) == "PADTO(0, 4)"
    src = k.source([Opt.padto(0, 4)])
    assert "r0 < 8;" in src and "(r0 < 5)" in src  # 8 rows, of which the first 5 load and store


def test_default_opts_apply():
    k = matmul_kernel()
    opts = k.default_opts()
    assert all(isinstance(o, Opt) for o in opts)
    assert k.optimize(opts) != k.shape  # a matmul gets register blocking
    assert str(Opt.split(1, 4, "UPCAST")) == "SPLIT(1, 4, UPCAST)"
    assert str(Opt.split(0, 2, "LOOP", top=True)) == "SPLIT(0, 2, LOOP, top)"


def test_a_scale_inside_a_mean_is_not_blocked_for():
    # A per-channel scale fused into a spatial mean (squeeze-excite after a folded BatchNorm) is
    # loaded once per output, outside the reduce loop: it is neither reuse (it made the batch axis,
    # stride 38400, the blocked one: 16 scalar streams) nor a unit-stride output axis (it made the
    # kernel a column sum: 8 channels upcast, each lane a gather of stride 192). The rows are read
    # as vectors into lane accumulators (0.35 -> 0.24 ms with a hardswish, docs/kernel_opts.md).
    rng = np.random.default_rng(0)
    xn, sn = rng.standard_normal((16, 200, 2, 96), np.float32), rng.standard_normal((200, 1, 1), np.float32)
    y = (Tensor(xn) * Tensor(sn)).relu().mean((2, 3))
    k, = onegrad.kernels(y)
    assert k.shape == "L16 L200 R2 R96"
    opts = [str(o) for o in k.default_opts()]
    assert "SPLIT(3, 16, UNROLL)" in opts and not any("UPCAST" in o for o in opts)
    assert "og_load_f32x8(&b" in k.source()
    np.testing.assert_allclose(y.numpy(), np.maximum(xn * sn, 0).mean((2, 3)), rtol=1e-5, atol=1e-6)


def test_a_padded_bias_keeps_a_convs_blocks():
    # A bias padded to the lane width is a gated load read once per output, after the reduce: it
    # must not cap the blocks as a padded window inside the reduce does (it made a 1x1 conv's
    # blocks 4 x 2 scalar accumulators, 3x slower than 10 x 8; now 2 rows of 10 x 4 channels, 12
    # accumulator registers, and a padded window would not join the rows; test_conv_blocks.py).
    # The result is the conv's.
    rng = np.random.default_rng(0)
    x, w, b = rng.random((1, 32, 10, 10), np.float32), rng.random((36, 32, 1, 1), np.float32), rng.random(36, np.float32)
    wp, bp = np.pad(w, ((0, 4), (0, 0), (0, 0), (0, 0))), Tensor(b).pad(((0, 4),))
    y = Tensor(x).conv2d(Tensor(wp), bp)
    k = onegrad.kernels(y)[-1]
    assert k.shape == "L40 L10 L10 R32"
    assert sorted((o.axis, o.arg) for o in k.default_opts() if o.target == "UPCAST") == [(0, 4), (1, 2), (2, 10)]
    want = np.einsum("chw,oc->ohw", x[0], w[:, :, 0, 0]) + b[:, None, None]
    np.testing.assert_allclose(y.numpy()[0, :36], want, rtol=1e-5)


def test_source_is_the_kernel_in_c():
    k = matmul_kernel()
    src = k.source([Opt.split(1, 4, "UPCAST")])
    assert f"void {k.name}(" in src
    assert k.source() == k.source(k.default_opts())


@pytest.mark.parametrize("opt, message", [
    (Opt.split(2, 5, "UPCAST"), "SPLIT(2, 5, UPCAST) on kernel (L32 L8 R16): "),
    (Opt.split(7, 2, "UPCAST"), "SPLIT(7, 2, UPCAST) on kernel (L32 L8 R16): "),
    (Opt.split(2, 4, "UPCAST"), "UPCAST splits a GLOBAL, LOCAL or LOOP axis, not REDUCE"),
    (Opt("SPLIT", 1, 4, "SIDEWAYS"), "unknown AxisType 'SIDEWAYS'"),
    (Opt("SPIN", 1, 4), "unknown OptOp 'SPIN'"),
    (Opt.padto(1, 4), "PADTO(1, 4) on kernel (L32 L8 R16): the axis's bound 8 is already a multiple of 4"),
    (Opt.padto(0, 1), "the multiple 1 must be at least 2"),
    (Opt.padto(2, 40), "padding the axis's bound 16 to 40 would more than double it"),
    (Opt.split(2, 4, "THREAD"), "THREAD splits a GLOBAL or LOOP axis, not REDUCE"),
    # what the C target does not declare (codegen/capabilities.h)
    (Opt.split(0, 4, "LOCAL"), "target 'C' declares no LOCAL launch dims"),
    (Opt("TC", 0, 0), "target 'C' declares no tensor cores"),
])
def test_opts_that_do_not_apply(opt, message):
    k = matmul_kernel()
    with pytest.raises(OptError, match=None) as e:
        k.optimize([opt])
    assert message in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, onegrad.Error)
    with pytest.raises(OptError):
        k.source([opt])


def test_bad_arguments():
    with pytest.raises(TypeError, match="onegrad.kernels takes Tensors, not ndarray"):
        onegrad.kernels(np.ones(3))
    with pytest.raises(TypeError, match="an opt must be an onegrad.Opt, not tuple"):
        matmul_kernel().optimize([("SPLIT", 1, 4, "UPCAST", False)])


def test_thread_split_is_the_entrys_thread_argument():
    k = matmul_kernel()
    assert k.optimize([Opt.split(0, 4, "THREAD")]) == "t4 L8 L8 R16"
    src = k.source([Opt.split(0, 4, "THREAD")])
    assert f"void {k.name}(void** bufs, const int64_t* vars, int64_t thread)" in src
    with pytest.raises(OptError) as e:
        k.optimize([Opt.split(0, 4, "THREAD"), Opt.split(2, 2, "THREAD")])
    assert "the kernel already has a THREAD axis (axis 0); at most one per kernel" in str(e.value)


def test_small_kernels_get_no_opts():
    x = Tensor(np.ones((4, 5), np.float32))
    k, = onegrad.kernels(x @ x.T)  # 4 x 4 x 5 = 80 iterations
    assert k.default_opts() == []
