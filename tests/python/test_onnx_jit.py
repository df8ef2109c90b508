"""onegrad.onnx models under the JIT and with named dims as Variables (docs/onnx.md "JIT", "Symbolic
dims"), on small models built with the onnx package (python3-onnx), against numpy: a new batch or
sequence size compiles no kernel; replays equal the plain run bit for bit and move no engine counter;
a new shape is a new capture; inputs whose values the graph reads on the host key the captures (small)
or turn the JIT off (large); a dim that cannot be a Variable falls back to static dims."""
import numpy as np
import pytest

import onegrad
from onegrad import _C

onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

if getattr(_C, "onnx", None) is None:
    pytest.skip("this build has no ONNX import (libprotobuf-dev, protobuf-compiler)", allow_module_level=True)

COUNTERS = ("schedules_built", "schedule_hits", "kernels_lowered", "kernel_hits", "compiles")


def counters():
    s = _C.engine_stats()
    return {k: s[k] for k in COUNTERS}


def rng_weights(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def mlp_bytes():
    """x[batch, 2, 4] -> Flatten -> MatMul+Add -> Relu -> MatMul -> Softmax; also the row sums."""
    w1, b1, w2 = rng_weights((8, 16), (16,), (16, 4))
    nodes = [helper.make_node("Flatten", ["x"], ["f"], axis=1),
             helper.make_node("MatMul", ["f", "w1"], ["h"]),
             helper.make_node("Add", ["h", "b1"], ["hb"]),
             helper.make_node("Relu", ["hb"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["z"]),
             helper.make_node("Softmax", ["z"], ["y"], axis=-1),
             helper.make_node("ReduceSum", ["r", "axes"], ["s"], keepdims=0)]
    g = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, ["batch"])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
                           numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(np.array([1], np.int64), "axes")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])

    def reference(x):
        r = np.maximum(x.reshape(len(x), 8) @ w1 + b1, 0)
        z = r @ w2
        e = np.exp(z - z.max(1, keepdims=True))
        return {"y": e / e.sum(1, keepdims=True), "s": r.sum(1)}
    return model.SerializeToString(), reference


def sequence_bytes():
    """x[batch, sequence, 8] -> MatMul -> Tanh -> ReduceMean over the sequence."""
    (w,) = rng_weights((8, 4), seed=1)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]),
             helper.make_node("Tanh", ["h"], ["t"]),
             helper.make_node("ReduceMean", ["t"], ["y"], axes=[1], keepdims=0)]
    g = helper.make_graph(nodes, "seq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "sequence", 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
                          [numpy_helper.from_array(w, "w")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    return model.SerializeToString(), lambda x: {"y": np.tanh(x @ w).mean(1)}


def data(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def check(out, want, rtol=1e-5, atol=1e-6):
    for k, v in want.items():
        np.testing.assert_allclose(out[k].numpy(), v, rtol=rtol, atol=atol, err_msg=k)


def test_a_named_batch_dim_compiles_kernels_only_for_the_first_size():
    model, reference = mlp_bytes()
    m = onegrad.onnx.load_bytes(model, jit=False)
    x = data((3, 2, 4), 0)
    check(m(x), reference(x))
    before = counters()
    for batch in (1, 7, 16, 33, 2):
        x = data((batch, 2, 4), batch)
        check(m(x), reference(x))
    after = counters()
    assert after["kernels_lowered"] == before["kernels_lowered"], (before, after)
    assert after["compiles"] == before["compiles"], (before, after)
    assert m.jit_stats["not_symbolic"] == ""


def test_static_dims_compile_per_batch_size_so_the_counter_can_fail():
    model, reference = mlp_bytes()
    m = onegrad.onnx.load_bytes(model, jit=False)
    m.symbolic_dims = False
    x = data((3, 2, 4), 0)
    check(m(x), reference(x))
    before = counters()
    x = data((37, 2, 4), 37)  # a size no other test uses: its static kernels are new
    check(m(x), reference(x))
    assert counters()["kernels_lowered"] > before["kernels_lowered"]


def test_batch_and_sequence_dims_compile_once_and_match_numpy():
    model, reference = sequence_bytes()
    m = onegrad.onnx.load_bytes(model, jit=False)
    x = data((2, 5, 8), 0)
    check(m(x), reference(x))
    before = counters()
    for batch, seq in ((1, 1), (4, 9), (16, 3), (3, 40)):
        x = data((batch, seq, 8), batch * seq)
        check(m(x), reference(x))
    assert counters()["kernels_lowered"] == before["kernels_lowered"]


def test_replays_equal_the_plain_run_bit_for_bit():
    model, reference = mlp_bytes()
    jitted = onegrad.onnx.load_bytes(model)
    plain = onegrad.onnx.load_bytes(model, jit=False)
    for i in range(6):
        x = data((4, 2, 4), 100 + i)
        got, want = jitted(x), plain(x)
        for k in ("y", "s"):
            assert np.array_equal(got[k].numpy(), want[k].numpy()), (i, k)
        check(got, reference(x))
    s = jitted.jit_stats
    assert (s["plain_calls"], s["captures"], s["replays"], s["signatures"]) == (1, 1, 4, 1), s


def test_replays_schedule_lower_and_compile_nothing():
    model, reference = mlp_bytes()
    m = onegrad.onnx.load_bytes(model)
    for i in range(2):
        m(data((5, 2, 4), i))
    before = counters()
    for i in range(3):
        x = data((5, 2, 4), 10 + i)
        check(m(x), reference(x))
    assert counters() == before
    assert m.jit_stats["replays"] == 3


def test_a_new_shape_is_a_new_capture_and_old_ones_still_replay():
    model, reference = mlp_bytes()
    m = onegrad.onnx.load_bytes(model)
    for batch in (2, 2, 2, 9, 9, 9, 2, 9):
        x = data((batch, 2, 4), batch * 7)
        check(m(x), reference(x))
    s = m.jit_stats
    assert (s["signatures"], s["plain_calls"], s["captures"], s["replays"]) == (2, 2, 2, 4), s
    before = counters()
    x = data((9, 2, 4), 5)
    check(m(x), reference(x))
    assert counters() == before


def if_on_rate_bytes():
    """y = x * 2 when sr == 16000 else x * 3: If's condition is read on the host."""
    two = helper.make_graph([helper.make_node("Mul", ["x", "c2"], ["a"])], "then", [],
                            [helper.make_tensor_value_info("a", TensorProto.FLOAT, None)],
                            [numpy_helper.from_array(np.array(2, np.float32), "c2")])
    three = helper.make_graph([helper.make_node("Mul", ["x", "c3"], ["b"])], "else", [],
                              [helper.make_tensor_value_info("b", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.array(3, np.float32), "c3")])
    nodes = [helper.make_node("Equal", ["sr", "k"], ["is16k"]),
             helper.make_node("If", ["is16k"], ["y"], then_branch=two, else_branch=three)]
    g = helper.make_graph(nodes, "rate", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4]),
                                          helper.make_tensor_value_info("sr", TensorProto.INT64, [])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
                          [numpy_helper.from_array(np.array(16000, np.int64), "k")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def test_a_small_input_read_on_the_host_keys_the_captures_by_its_value():
    m = onegrad.onnx.load_bytes(if_on_rate_bytes())
    for sr, factor in ((16000, 2), (8000, 3)) * 4:
        x = data((3, 4), sr)
        out = m(x=x, sr=np.array(sr, np.int64))
        np.testing.assert_array_equal(out["y"].numpy(), x * np.float32(factor))
    s = m.jit_stats
    assert s["value_inputs"] == ["sr"] and s["not_jitted"] == "", s
    # 16000 (plain; its read puts sr in the key), 8000 (plain), 16000 (plain), 8000 (capture), ...
    assert (s["signatures"], s["plain_calls"], s["captures"], s["replays"]) == (2, 3, 2, 3), s
    # each capture replays y = x * c alone: Equal(sr, 16000) ran for the host read, which a replay skips
    assert s["kernels"] == 2, s


def unique_bytes():
    nodes = [helper.make_node("Unique", ["x"], ["u"], sorted=1)]
    g = helper.make_graph(nodes, "uniq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [100])],
                          [helper.make_tensor_value_info("u", TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def test_a_large_input_read_on_the_host_turns_the_jit_off():
    m = onegrad.onnx.load_bytes(unique_bytes())
    for seed in range(4):
        x = np.random.default_rng(seed).integers(0, 10 + seed, 100).astype(np.float32)
        np.testing.assert_array_equal(m(x)["u"].numpy(), np.unique(x))
    s = m.jit_stats
    assert "input 'x'" in s["not_jitted"] and "on the host" in s["not_jitted"], s
    assert s["replays"] == 0 and s["plain_calls"] == 4, s


def test_a_dim_that_cannot_be_a_variable_falls_back_to_static_dims():
    # Reshape to (-1, 2) splits the named dim n: a Variable cannot be split (docs/symbolic-shapes.md)
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"])]
    g = helper.make_graph(nodes, "split", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(np.array([-1, 2], np.int64), "shape")])
    m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
    for n in (6, 6, 6, 4):
        x = data((n,), n)
        np.testing.assert_array_equal(m(x)["y"].numpy(), x.reshape(-1, 2))
    s = m.jit_stats
    assert "split" in s["not_symbolic"] and not m.symbolic_dims, s
    assert s["replays"] == 1, s


def test_returned_outputs_are_not_changed_by_later_calls():
    model, reference = mlp_bytes()
    m = onegrad.onnx.load_bytes(model)
    xs = [data((2, 2, 4), 200 + i) for i in range(4)]
    outs = [m(x) for x in xs]
    for x, out in zip(xs, outs):
        check(out, reference(x))


def kernels_run():
    return _C.engine_stats()["kernels_run"]


def test_nodes_of_constant_inputs_run_once_per_model():
    # y = x @ (w1 @ w2) + b ** 2: w1 @ w2 and b ** 2 read initializers only, so they are folded at
    # the first call; later plain calls run the one kernel that reads x
    w1, w2, b = rng_weights((4, 6), (6, 3), (3,), seed=3)
    nodes = [helper.make_node("MatMul", ["w1", "w2"], ["w"]),
             helper.make_node("Pow", ["b", "two"], ["b2"]),
             helper.make_node("MatMul", ["x", "w"], ["h"]),
             helper.make_node("Add", ["h", "b2"], ["y"])]
    g = helper.make_graph(nodes, "fold", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
                           numpy_helper.from_array(b, "b"), numpy_helper.from_array(np.array(2, np.float32), "two")])
    m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString(),
                                jit=False)
    for i in range(3):
        x = data((5, 4), i)
        before = kernels_run()
        out = m(x)["y"].numpy()
        if i > 0:
            assert kernels_run() - before == 1
        np.testing.assert_allclose(out, x @ (w1 @ w2) + b * b, rtol=1e-5, atol=1e-5)


def test_pow_by_a_constant_two_is_exact_and_by_an_input_is_pow():
    nodes = [helper.make_node("Pow", ["x", "two"], ["sq"]), helper.make_node("Pow", ["x", "e"], ["p"])]
    g = helper.make_graph(nodes, "pow", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6]),
                                         helper.make_tensor_value_info("e", TensorProto.FLOAT, [])],
                          [helper.make_tensor_value_info("sq", TensorProto.FLOAT, [6]),
                           helper.make_tensor_value_info("p", TensorProto.FLOAT, [6])],
                          [numpy_helper.from_array(np.array(2, np.float32), "two")])
    m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
    x = np.array([-3, -0.5, 0, 1.5, 7, 1e10], np.float32)
    for e in (2.0, 3.0, 0.5):
        out = m(x=x, e=np.array(e, np.float32))
        np.testing.assert_array_equal(out["sq"].numpy(), x * x)
        with np.errstate(invalid="ignore", over="ignore"):
            np.testing.assert_allclose(out["p"].numpy(), np.power(x, np.float32(e)), rtol=1e-6)


def test_conv_with_a_constant_weight_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    # cout 40: padded to 48 channels inside, cut back to 40
    for groups, cin, cout, k in ((1, 5, 7, 3), (6, 6, 6, 5), (1, 9, 4, 1), (1, 3, 40, 3)):
        w = rng.standard_normal((cout, cin // groups, k, k)).astype(np.float32)
        b = rng.standard_normal((cout,)).astype(np.float32)
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[k // 2] * 4, group=groups, strides=[2, 1])
        g = helper.make_graph([node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", cin, 9, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
        m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
        for batch in (2, 2, 2, 3):
            x = rng.standard_normal((batch, cin, 9, 8)).astype(np.float32)
            want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
                                              stride=(2, 1), padding=k // 2, groups=groups).numpy()
            np.testing.assert_allclose(m(x)["y"].numpy(), want, rtol=1e-4, atol=1e-4)


def test_matmul_and_gemm_with_a_constant_weight_of_an_odd_width_match_numpy():
    # 37 columns are computed as 48 (zero-padded weight) and cut back
    rng = np.random.default_rng(5)
    w = rng.standard_normal((6, 37)).astype(np.float32)
    c = rng.standard_normal((37,)).astype(np.float32)
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("MatMul", ["r", "w"], ["y"]),
             helper.make_node("Gemm", ["x", "wt", "c"], ["z"], transB=1, alpha=0.5)]
    g = helper.make_graph(nodes, "mm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 37]),
                           helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 37])],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.ascontiguousarray(w.T), "wt"),
                           numpy_helper.from_array(c, "c")])
    m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
    for batch in (3, 3, 3, 8):
        x = rng.standard_normal((batch, 6)).astype(np.float32)
        out = m(x)
        assert out["y"].shape == (batch, 37)
        np.testing.assert_allclose(out["y"].numpy(), np.maximum(x, 0) @ w, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(out["z"].numpy(), 0.5 * (x @ w) + c, rtol=1e-5, atol=1e-5)


def test_resize_nearest_by_an_integer_factor_equals_numpy_repeat():
    # asymmetric/floor and half_pixel/round_prefer_floor both read source o // 2 at scale 2
    for coord, nearest in (("asymmetric", "floor"), ("half_pixel", "round_prefer_floor")):
        node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest",
                                coordinate_transformation_mode=coord, nearest_mode=nearest)
        g = helper.make_graph([node], "up", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2, 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.array([1, 1, 2, 3], np.float32), "scales")])
        m = onegrad.onnx.load_bytes(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
        x = data((2, 2, 3, 4), 9)
        for _ in range(3):  # plain, capture, replay
            np.testing.assert_array_equal(m(x)["y"].numpy(), x.repeat(2, axis=2).repeat(3, axis=3))
