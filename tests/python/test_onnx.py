"""onegrad.onnx.load against numpy on models built with the onnx package (python3-onnx): inputs by
position, by name and as a dict; the typed errors for bad files, wrong inputs and unsupported ops,
each naming the node or input; and the `onegrad onnx info/run` command line."""
import os
import subprocess
import sys

import numpy as np
import pytest

import onegrad
from onegrad.errors import ArgumentError, DTypeError, FileError, FormatError, ShapeError, UnsupportedError

onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

if getattr(onegrad._C, "onnx", None) is None:
    pytest.skip("this build has no ONNX import (libprotobuf-dev, protobuf-compiler)", allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mlp_model(op="Relu", opset=13):
    rng = np.random.default_rng(0)
    w = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((4,)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
             helper.make_node("Add", ["h", "b"], ["z"], name="add"),
             helper.make_node(op, ["z"], ["y"], name="act"),
             helper.make_node("ReduceSum", ["y", "axes"], ["s"], name="rowsum", keepdims=0)]
    g = helper.make_graph(nodes, "mlp",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, ["batch"])],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
                           numpy_helper.from_array(np.array([1], np.int64), "axes")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), w, b


def save(model, tmp_path, name="m.onnx"):
    path = tmp_path / name
    path.write_bytes(model.SerializeToString())
    return path


def test_load_and_call_by_position_name_and_dict(tmp_path):
    model, w, b = mlp_model()
    m = onegrad.onnx.load(save(model, tmp_path))
    assert m.input_names == ["x"] and m.output_names == ["y", "s"]
    assert m.inputs[0][1] == "FLOAT[batch, 3]" and m.inputs[0][2] == ["batch", 3]
    assert m.opsets == {"": 13} and m.op_types == ["MatMul", "Add", "Relu", "ReduceSum"]
    for batch in (1, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 3)).astype(np.float32)
        y = np.maximum(x @ w + b, 0)
        for out in (m(x), m(x=x), m({"x": x}), m(onegrad.Tensor(x))):
            np.testing.assert_allclose(out["y"].numpy(), y, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(out["s"].numpy(), y.sum(1), rtol=1e-5, atol=1e-5)


def test_bad_inputs_are_typed_errors_naming_the_input(tmp_path):
    m = onegrad.onnx.load(save(mlp_model()[0], tmp_path))
    with pytest.raises(DTypeError, match="input 'x': expected FLOAT"):
        m(np.zeros((2, 3), np.int64))
    with pytest.raises(ShapeError, match=r"input 'x': expected FLOAT\[batch, 3\], got shape \(2, 5\)"):
        m(np.zeros((2, 5), np.float32))
    with pytest.raises(ArgumentError, match="no input named 'z'"):
        m(z=np.zeros((2, 3), np.float32))
    with pytest.raises(ArgumentError, match="takes 1 inputs"):
        m(np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError, match="input 'x' must be a numpy array"):
        m([[1.0, 2.0, 3.0]])


def test_unsupported_op_names_op_node_and_opset(tmp_path):
    m = onegrad.onnx.load(save(mlp_model(op="NotAnOp", opset=11)[0], tmp_path))
    with pytest.raises(UnsupportedError, match=r"node 'act' \(NotAnOp, opset 11\): op NotAnOp is not supported"):
        m(np.zeros((1, 3), np.float32))
    assert issubclass(UnsupportedError, NotImplementedError)


def test_opset_changes_meaning_per_op(tmp_path):
    # Softmax before opset 13 flattens to 2-D at axis 1; from 13 it normalizes along one axis
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(np.float32)
    for opset in (11, 13):
        g = helper.make_graph([helper.make_node("Softmax", ["x"], ["y"], axis=1)], "sm",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])])
        m = onegrad.onnx.load(save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), tmp_path))
        if opset == 11:
            e = np.exp(x.reshape(2, 12) - x.reshape(2, 12).max(1, keepdims=True))
            want = (e / e.sum(1, keepdims=True)).reshape(2, 3, 4)
        else:
            e = np.exp(x - x.max(1, keepdims=True))
            want = e / e.sum(1, keepdims=True)
        np.testing.assert_allclose(m(x)["y"].numpy(), want, rtol=1e-5, atol=1e-6)


def test_bad_files_are_typed_errors(tmp_path):
    data = mlp_model()[0].SerializeToString()
    (tmp_path / "cut.onnx").write_bytes(data[: len(data) // 2])
    with pytest.raises(FormatError, match="cut.onnx.*protobuf parse failed"):
        onegrad.onnx.load(tmp_path / "cut.onnx")
    with pytest.raises(FileError, match="missing.onnx"):
        onegrad.onnx.load(tmp_path / "missing.onnx")
    # external data: the file beside the model is read; a missing one names the tensor and the file
    model, w, b = mlp_model()
    onnx.save_model(model, str(tmp_path / "ext.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                    location="ext.bin", size_threshold=0)
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(onegrad.onnx.load(tmp_path / "ext.onnx")(x)["y"].numpy(), np.maximum(x @ w + b, 0),
                               rtol=1e-5)
    os.remove(tmp_path / "ext.bin")
    with pytest.raises(FileError, match="tensor 'w'.*ext.bin"):
        onegrad.onnx.load(tmp_path / "ext.onnx")


def onegrad_cli():
    for d in ("build", "build-release"):
        p = os.path.join(ROOT, d, "bin", "onegrad")
        if os.path.exists(p):
            return p
    pytest.skip("build/bin/onegrad not built")


def test_cli_info_and_run(tmp_path):
    model, w, b = mlp_model()
    path = save(model, tmp_path)
    info = subprocess.run([onegrad_cli(), "onnx", "info", str(path)], capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    assert "x: FLOAT[batch, 3]" in info.stdout and "ops: MatMul Add Relu ReduceSum" in info.stdout
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    np.save(tmp_path / "x.npy", x)
    run = subprocess.run([onegrad_cli(), "onnx", "run", str(path), "--input", f"x={tmp_path / 'x.npy'}",
                          "--bench", "3", "--save", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "y: float32 (2, 4)" in run.stdout and "3 replays: median" in run.stdout
    plain = subprocess.run([onegrad_cli(), "onnx", "run", str(path), "--input", f"x={tmp_path / 'x.npy'}",
                            "--bench", "2", "--no-jit"], capture_output=True, text=True)
    assert plain.returncode == 0 and "2 plain runs: median" in plain.stdout, plain.stdout + plain.stderr
    np.testing.assert_allclose(np.load(tmp_path / "out" / "y.npy"), np.maximum(x @ w + b, 0), rtol=1e-5)
    bad = subprocess.run([onegrad_cli(), "onnx", "run", str(path), "--input", f"x={tmp_path / 'x.npy'}x"],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "x.npyx" in bad.stderr


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_an_lstm_computes_its_activated_input_once(tmp_path):
    # X = relu(x + b) feeds the LSTM's input projection, read by each of its 4 x 16 gate columns:
    # X is computed once into a buffer (onnx/computed_once.h), not again in every column block of
    # the gate matmul (Silero VAD's encoder output)
    rng = np.random.default_rng(5)
    seq, batch, inp, hid = 1, 4, 8, 16
    b = rng.standard_normal(inp).astype(np.float32)
    W = (rng.standard_normal((1, 4 * hid, inp)) * 0.3).astype(np.float32)
    R = (rng.standard_normal((1, 4 * hid, hid)) * 0.3).astype(np.float32)
    B = (rng.standard_normal((1, 8 * hid)) * 0.1).astype(np.float32)
    nodes = [helper.make_node("Add", ["x", "b"], ["z"]), helper.make_node("Relu", ["z"], ["X"]),
             helper.make_node("LSTM", ["X", "W", "R", "B"], ["Y", "Yh", "Yc"], hidden_size=hid)]
    g = helper.make_graph(nodes, "lstm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, batch, inp])],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("Y", "Yh", "Yc")],
                          [numpy_helper.from_array(a, n) for a, n in ((b, "b"), (W, "W"), (R, "R"), (B, "B"))])
    m = onegrad.onnx.load(save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]), tmp_path))
    x = rng.standard_normal((seq, batch, inp)).astype(np.float32)
    lazy = m.run_lazy({"x": x})
    ks = onegrad.kernels(lazy["Yh"])
    relu_input = [k for k in ks if k.reason == "contiguous()" and k.name == f"E_{batch}_{inp}"]
    assert len(relu_input) == 1, [(k.name, k.reason) for k in ks]
    # numpy's LSTM (ONNX gate order i o f c), h0 = c0 = 0
    X = np.maximum(x + b, 0)[0]
    gates = X @ W[0].T + B[0, :4 * hid] + B[0, 4 * hid:]
    i, o, f, c = (gates[:, k * hid:(k + 1) * hid] for k in range(4))
    c = sigmoid(i) * np.tanh(c)
    h = sigmoid(o) * np.tanh(c)
    out = m({"x": x})
    np.testing.assert_allclose(out["Yh"].numpy()[0], h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["Yc"].numpy()[0], c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["Y"].numpy()[0, 0], h, rtol=1e-5, atol=1e-6)


def hardswish(v):
    return v * np.clip(v + 3, 0, 6) / 6


def squeeze_excite_model(c, n_out, scale_kind):
    # a depthwise 3x3 conv, a BatchNorm as Mul/Add, hardswish, then x * s into a 1x1 conv, where
    # s is a squeeze-excite block's hardsigmoid(fc(relu(fc(mean(x))))) ("se"), or a constant
    # per-channel factor ("const")
    rng = np.random.default_rng(7)
    arrays = {"wd": rng.standard_normal((c, 1, 3, 3)).astype(np.float32) * 0.4,
              "g": rng.standard_normal((1, c, 1, 1)).astype(np.float32),
              "t": rng.standard_normal((1, c, 1, 1)).astype(np.float32),
              "w1": rng.standard_normal((c // 4, c, 1, 1)).astype(np.float32) * 0.3,
              "b1": rng.standard_normal(c // 4).astype(np.float32),
              "w2": rng.standard_normal((c, c // 4, 1, 1)).astype(np.float32) * 0.3,
              "b2": rng.standard_normal(c).astype(np.float32),
              "k": rng.standard_normal((1, c, 1, 1)).astype(np.float32),
              "wp": rng.standard_normal((n_out, c, 1, 1)).astype(np.float32) * 0.2}
    nodes = [helper.make_node("Conv", ["x", "wd"], ["d"], group=c, pads=[1, 1, 1, 1]),
             helper.make_node("Mul", ["d", "g"], ["dg"]), helper.make_node("Add", ["dg", "t"], ["bn"]),
             helper.make_node("HardSwish", ["bn"], ["h"])]
    if scale_kind == "se":
        nodes += [helper.make_node("GlobalAveragePool", ["h"], ["p"]),
                  helper.make_node("Conv", ["p", "w1", "b1"], ["f1"]), helper.make_node("Relu", ["f1"], ["r1"]),
                  helper.make_node("Conv", ["r1", "w2", "b2"], ["f2"]),
                  helper.make_node("HardSigmoid", ["f2"], ["s"], alpha=0.2, beta=0.5)]
    nodes += [helper.make_node("Mul", ["h", "s" if scale_kind == "se" else "k"], ["hs"]),
              helper.make_node("Conv", ["hs", "wp"], ["y"])]
    g = helper.make_graph(nodes, "se", [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(a, name) for name, a in arrays.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]), arrays


def squeeze_excite_numpy(x, a, scale_kind):
    n, c, hh, ww = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    d = sum(xp[:, :, i:i + hh, j:j + ww] * a["wd"][None, :, 0, i, j, None, None] for i in range(3) for j in range(3))
    h = hardswish(d * a["g"] + a["t"])
    if scale_kind == "se":
        p = h.mean((2, 3))
        r1 = np.maximum(p @ a["w1"][:, :, 0, 0].T + a["b1"], 0)
        s = np.clip((r1 @ a["w2"][:, :, 0, 0].T + a["b2"]) * 0.2 + 0.5, 0, 1)[:, :, None, None]
    else:
        s = a["k"]
    return np.einsum("nchw,oc->nohw", h * s, a["wp"][:, :, 0, 0])


@pytest.mark.parametrize("scale_kind,n_out", [("se", 32), ("se", 48), ("const", 32)])
def test_a_pointwise_conv_multiplies_its_squeeze_excite_scale_as_it_loads(tmp_path, scale_kind, n_out):
    # x * s, s per (sample, channel) from a squeeze-excite block, into a 1x1 conv of at most 32
    # output channels: the conv reads x (the depthwise conv's epilogue, which the mean reads too)
    # and s as buffers and multiplies as it loads, with no kernel that writes the product
    # (onnx/channel_scale.h). With more output channels the product gets its kernel (reading x's
    # buffer). A constant factor is left to the depthwise conv's epilogue.
    n, c, hh, ww = 2, 24, 5, 16
    model, arrays = squeeze_excite_model(c, n_out, scale_kind)
    m = onegrad.onnx.load(save(model, tmp_path))
    x = np.random.default_rng(8).standard_normal((n, c, hh, ww)).astype(np.float32)
    ks = onegrad.kernels(m.run_lazy({"x": x})["y"])
    names = [k.name for k in ks]
    # an elementwise kernel over the activation only for the product of a wide conv's input
    assert (f"E_{n}_{c}_{hh}_{ww}" in names) == (n_out > 32), names
    # the depthwise conv (with its epilogue), the mean, the 1x1 conv
    pixels = [k for k in names if k.startswith((f"r_{n}_{c}_{hh}_{ww}", f"r_{n}_{n_out}_{hh}_{ww}"))]
    assert sorted(pixels) == sorted([f"r_{n}_{c}_{hh}_{ww}_3_3", f"r_{n}_{n_out}_{hh}_{ww}_{c}"] +
                                    ([f"r_{n}_{c}_{hh}_{ww}"] if scale_kind == "se" else [])), names
    np.testing.assert_allclose(m({"x": x})["y"].numpy(), squeeze_excite_numpy(x, arrays, scale_kind),
                               rtol=1e-4, atol=1e-4)


def test_a_residual_reads_the_input_its_pointwise_conv_realized(tmp_path):
    # z = x * s + t feeds a 1x1 conv, which realizes it (onnx/computed_once.h's reason), and the
    # residual add after the conv: the add reads that buffer (the graph hands the realized value to
    # the nodes after the conv) instead of computing z again from x, s and t in the conv's kernel
    rng = np.random.default_rng(7)
    n, c, h, w = 2, 32, 4, 8
    s, t = (rng.standard_normal((1, c, 1, 1)).astype(np.float32) for _ in range(2))
    wt = (rng.standard_normal((c, c, 1, 1)) * 0.2).astype(np.float32)
    nodes = [helper.make_node("Mul", ["x", "s"], ["xs"]), helper.make_node("Add", ["xs", "t"], ["z"]),
             helper.make_node("Conv", ["z", "w"], ["cz"]), helper.make_node("Add", ["cz", "z"], ["y"])]
    g = helper.make_graph(nodes, "residual", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(a, k) for a, k in ((s, "s"), (t, "t"), (wt, "w"))])
    m = onegrad.onnx.load(save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), tmp_path))
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    ks = onegrad.kernels(m.run_lazy({"x": x})["y"])
    conv = [k for k in ks if k.name.startswith("r_")]
    assert len(conv) == 1, [(k.name, k.reason) for k in ks]
    source = conv[0].source()
    signature = next(line for line in source.splitlines() if "_kernel(" in line)
    assert signature.count("float* restrict") == 3, signature  # the output, z and the weight
    z = x * s + t
    want = np.einsum("oi,nihw->nohw", wt[:, :, 0, 0], z) + z
    np.testing.assert_allclose(m({"x": x})["y"].numpy(), want, rtol=1e-5, atol=1e-5)
