"""The host side of an onegrad.onnx call (docs/onnx.md "Call cost"): numpy inputs of every dtype
and layout reach the graph with their values (the C-contiguous ones go straight to C++, the others
through Tensor()), through the plain call, the capture and the replays; the model keeps no view of a
caller's array; the cached input/output names are the file's."""
import numpy as np
import pytest

import onegrad
from onegrad import _C

onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) builds the test models")
from onnx import TensorProto, helper  # noqa: E402

if getattr(_C, "onnx", None) is None:
    pytest.skip("this build has no ONNX import (libprotobuf-dev, protobuf-compiler)", allow_module_level=True)

DTYPES = {"bool": TensorProto.BOOL, "int8": TensorProto.INT8, "int16": TensorProto.INT16,
          "int32": TensorProto.INT32, "int64": TensorProto.INT64, "uint8": TensorProto.UINT8,
          "uint16": TensorProto.UINT16, "uint32": TensorProto.UINT32, "uint64": TensorProto.UINT64,
          "float16": TensorProto.FLOAT16, "float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE}


def where_model(dtype, rank):
    """(c, x, y) -> Where(c, x, y) and Identity(x): every input's values reach an output."""
    dims = [f"d{i}" for i in range(rank)]
    t = DTYPES[dtype]
    g = helper.make_graph([helper.make_node("Where", ["c", "x", "y"], ["w"]), helper.make_node("Identity", ["x"], ["i"])],
                          "where", [helper.make_tensor_value_info("c", TensorProto.BOOL, dims),
                                    helper.make_tensor_value_info("x", t, dims),
                                    helper.make_tensor_value_info("y", t, dims)],
                          [helper.make_tensor_value_info("w", t, dims), helper.make_tensor_value_info("i", t, dims)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def values(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) > 0.5
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    if info is not None:
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return (rng.standard_normal(shape) * 100).astype(dtype)


LAYOUTS = {
    "c": lambda a: np.ascontiguousarray(a),
    "strided": lambda a: np.repeat(a, 2, axis=-1)[..., ::2],
    "fortran": lambda a: np.asfortranarray(a),
    "byteswapped": lambda a: a.astype(a.dtype.newbyteorder(">" if a.dtype.byteorder in "=<" else "<")),
}


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_inputs_of_every_dtype_and_layout_reach_the_graph_in_every_call(dtype, layout):
    m = onegrad.onnx.load_bytes(where_model(dtype, 2))
    for call in range(4):  # plain, capture, replays
        c = values("bool", (3, 5), 10 * call)
        x, y = values(dtype, (3, 5), 10 * call + 1), values(dtype, (3, 5), 10 * call + 2)
        given = {k: LAYOUTS[layout](v) for k, v in {"c": c, "x": x, "y": y}.items()}
        out = m(given)
        want = np.where(c, x, y)
        assert out["w"].numpy().dtype == want.dtype
        np.testing.assert_array_equal(out["w"].numpy(), want, err_msg=f"call {call}")
        np.testing.assert_array_equal(out["i"].numpy(), x, err_msg=f"call {call}")
    assert m.jit_stats["replays"] == 2


def test_zero_d_inputs_stay_zero_d():
    m = onegrad.onnx.load_bytes(where_model("float32", 0))
    for call in range(3):
        out = m(np.array(call % 2 == 0), np.array(np.float32(call)), np.array(np.float32(-1)))
        assert out["w"].shape == ()
        assert out["w"].numpy() == (call if call % 2 == 0 else -1)


def test_the_model_keeps_no_view_of_a_callers_array():
    m = onegrad.onnx.load_bytes(where_model("float32", 1))
    c = np.ones(4, bool)
    x = np.arange(4, dtype=np.float32)
    for _ in range(2):
        m(c, x, x)
    out = m(c, x, x)  # a replay
    x[:] = -7  # after the call: the output already holds the old values
    np.testing.assert_array_equal(out["w"].numpy(), np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(m(c, x, x)["w"].numpy(), np.full(4, -7, np.float32))


def test_an_input_of_a_dtype_onegrad_lacks_is_a_dtype_error():
    m = onegrad.onnx.load_bytes(where_model("float32", 1))
    with pytest.raises(onegrad.errors.DTypeError, match="complex64"):
        m(np.ones(2, bool), np.ones(2, np.complex64), np.ones(2, np.complex64))


def test_input_and_output_names_are_the_files_and_callers_cannot_change_them():
    m = onegrad.onnx.load_bytes(where_model("int32", 1))
    assert m.input_names == ["c", "x", "y"] and m.output_names == ["w", "i"]
    m.input_names.append("z")
    m.output_names.clear()
    assert m.input_names == ["c", "x", "y"] and m.output_names == ["w", "i"]
    assert list(m(np.ones(2, bool), np.ones(2, np.int32), np.zeros(2, np.int32))) == ["w", "i"]
