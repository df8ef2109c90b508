"""onegrad.safetensors (src/nn/safetensors.h): round trips of every dtype; files written by a small
independent writer below (struct + json, from the format's published layout) load with the right
values; files we write read back with the independent reader (and with the safetensors package
when it is installed); malformed files raise FormatError naming the file and the problem.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python/test_safetensors.py -q
"""
import json
import struct

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes
from onegrad.errors import ArgumentError, FileError, FormatError
from onegrad.safetensors import load_file, load_metadata, save_file

# The format's dtype names, with the numpy dtype of their raw little-endian bytes (BF16: its bits).
FORMAT_DTYPES = {
    "BOOL": (dtypes.bool, "?"), "U8": (dtypes.uint8, "<u1"), "I8": (dtypes.int8, "<i1"),
    "U16": (dtypes.uint16, "<u2"), "I16": (dtypes.int16, "<i2"), "U32": (dtypes.uint32, "<u4"),
    "I32": (dtypes.int32, "<i4"), "U64": (dtypes.uint64, "<u8"), "I64": (dtypes.int64, "<i8"),
    "F16": (dtypes.float16, "<f2"), "BF16": (dtypes.bfloat16, "<u2"), "F32": (dtypes.float32, "<f4"),
    "F64": (dtypes.float64, "<f8"),
}


# ---- an independent writer and reader of the published layout (no onegrad code)

def independent_write(path, arrays, metadata=None):
    """arrays: {name: (format dtype, numpy array of that dtype's raw layout)}."""
    header, data = {}, b""
    if metadata:
        header["__metadata__"] = metadata
    for name, (fmt, arr) in arrays.items():
        raw = np.ascontiguousarray(arr, dtype=FORMAT_DTYPES[fmt][1]).tobytes()
        header[name] = {"dtype": fmt, "shape": list(arr.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def independent_read(path):
    """({name: (format dtype, numpy array)}, metadata) of a file, by the published layout."""
    blob = open(path, "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    metadata = header.pop("__metadata__", {})
    out = {}
    for name, e in header.items():
        begin, end = e["data_offsets"]
        arr = np.frombuffer(data[begin:end], dtype=FORMAT_DTYPES[e["dtype"]][1]).reshape(e["shape"])
        out[name] = (e["dtype"], arr)
    return out, metadata


# bfloat16 is the top half of a float32 (flattened: numpy cannot view a 0-d array as another dtype).
def bf16_bits(values):
    v = np.asarray(values, dtype=np.float32)
    return (v.reshape(-1).view(np.uint32) >> 16).astype(np.uint16).reshape(v.shape)


def bits_to_bf16(bits):
    b = np.asarray(bits)
    return (b.reshape(-1).astype(np.uint32) << 16).view(np.float32).reshape(b.shape)


def sample(fmt, shape, rng):
    """Raw numpy data of a format dtype (BF16 as its bit pattern), an array even for shape ()."""
    return np.asarray(_sample(fmt, shape, rng), dtype=FORMAT_DTYPES[fmt][1])


def _sample(fmt, shape, rng):
    if fmt == "BOOL":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if fmt in ("F16", "F32", "F64"):
        return rng.standard_normal(shape).astype(FORMAT_DTYPES[fmt][1])
    if fmt == "BF16":
        return bf16_bits(rng.standard_normal(shape))
    info = np.iinfo(FORMAT_DTYPES[fmt][1])
    return rng.integers(info.min, info.max, size=shape, dtype=FORMAT_DTYPES[fmt][1], endpoint=True)


def as_onegrad(fmt, arr):
    dt = FORMAT_DTYPES[fmt][0]
    return Tensor(bits_to_bf16(arr), dtype=dt) if fmt == "BF16" else Tensor(arr, dtype=dt)


def raw_of(fmt, t):
    """A loaded onegrad tensor as the raw layout of its format dtype."""
    values = t.numpy()
    return bf16_bits(values) if fmt == "BF16" else values


# ---- tests

@pytest.mark.parametrize("shape", [(3, 4), (), (0, 2), (2, 1, 3)])
def test_round_trip_every_dtype(tmp_path, rng, shape):
    saved = {f"t_{fmt}": (fmt, sample(fmt, shape, rng)) for fmt in FORMAT_DTYPES}
    path = tmp_path / "all.safetensors"
    save_file({name: as_onegrad(fmt, arr) for name, (fmt, arr) in saved.items()}, path, metadata={"k": "v"})
    loaded = load_file(path)
    assert list(loaded) == list(saved)
    for name, (fmt, arr) in saved.items():
        t = loaded[name]
        assert t.dtype == FORMAT_DTYPES[fmt][0] and t.shape == shape and t.device == "CPU"
        np.testing.assert_array_equal(raw_of(fmt, t), arr)
    assert load_metadata(path) == {"k": "v"}


def test_a_file_from_the_independent_writer_loads(tmp_path, rng):
    arrays = {fmt.lower(): (fmt, sample(fmt, (2, 3), rng)) for fmt in FORMAT_DTYPES}
    arrays["scalar"] = ("F32", np.array(2.5, dtype=np.float32))
    path = tmp_path / "theirs.safetensors"
    independent_write(path, arrays, metadata={"framework": "none"})
    loaded = load_file(str(path))
    assert list(loaded) == list(arrays)
    for name, (fmt, arr) in arrays.items():
        assert loaded[name].dtype == FORMAT_DTYPES[fmt][0]
        assert loaded[name].shape == arr.shape
        np.testing.assert_array_equal(raw_of(fmt, loaded[name]), arr)
    assert load_metadata(path) == {"framework": "none"}


def test_a_file_we_write_reads_with_the_independent_reader(tmp_path, rng):
    arrays = {fmt: sample(fmt, (4, 2), rng) for fmt in FORMAT_DTYPES}
    tensors = {f"layer.{fmt}": as_onegrad(fmt, arr) for fmt, arr in arrays.items()}
    tensors["lazy"] = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)) * 2  # realized by the save
    path = tmp_path / "ours.safetensors"
    save_file(tensors, path, metadata={"epoch": "7"})
    read, metadata = independent_read(path)
    assert metadata == {"epoch": "7"}
    for fmt, arr in arrays.items():
        got_fmt, got = read[f"layer.{fmt}"]
        assert got_fmt == fmt
        np.testing.assert_array_equal(got, arr)
    np.testing.assert_array_equal(read["lazy"][1], np.arange(6, dtype=np.float32).reshape(2, 3) * 2)
    (n,) = struct.unpack("<Q", open(path, "rb").read(8))
    assert (8 + n) % 8 == 0  # the data starts 8-byte aligned


def test_a_file_we_write_reads_with_the_safetensors_package(tmp_path, rng):
    st_numpy = pytest.importorskip("safetensors.numpy")
    arrays = {fmt: sample(fmt, (3, 2), rng) for fmt in FORMAT_DTYPES if fmt != "BF16"}  # numpy has no bfloat16
    save_file({fmt: as_onegrad(fmt, arr) for fmt, arr in arrays.items()}, tmp_path / "x.safetensors")
    theirs = st_numpy.load_file(str(tmp_path / "x.safetensors"))
    for fmt, arr in arrays.items():
        np.testing.assert_array_equal(theirs[fmt], arr)
    st_numpy.save_file({"a": arrays["F32"], "b": arrays["I64"]}, str(tmp_path / "y.safetensors"))
    ours = load_file(tmp_path / "y.safetensors")
    np.testing.assert_array_equal(ours["a"].numpy(), arrays["F32"])
    np.testing.assert_array_equal(ours["b"].numpy(), arrays["I64"])


def test_saving_leaves_the_tensors_as_they_were(tmp_path):
    x = Tensor([1.0, 2.0, 3.0])
    save_file({"x": x}, tmp_path / "x.safetensors")
    y = load_file(tmp_path / "x.safetensors")["x"]
    y += 1  # the loaded tensor owns its data: the saved one does not change
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(load_file(tmp_path / "x.safetensors")["x"].numpy(), [1.0, 2.0, 3.0])


def hand_file(path, header, data=b""):
    text = header.encode() if isinstance(header, str) else header
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)
    return path


ENTRY = '{{"x": {{"dtype": {dtype}, "shape": {shape}, "data_offsets": {offsets}}}}}'


@pytest.mark.parametrize("header,data,problem", [
    ("[1]", b"", "the header is a JSON array, not an object"),
    ('{"x": ', b"", "the header is not valid JSON"),
    (ENTRY.format(dtype='"F8_E5M2"', shape="[2]", offsets="[0, 2]"), b"ab", "tensor 'x': unknown dtype 'F8_E5M2'"),
    (ENTRY.format(dtype='"U8"', shape="[-1]", offsets="[0, 2]"), b"ab",
     "tensor 'x': a shape entry must be a non-negative integer, not -1"),
    (ENTRY.format(dtype='"U8"', shape="[2]", offsets="[0, 9]"), b"ab",
     "tensor 'x': data_offsets [0, 9] go past the end of the data (2 bytes)"),
    (ENTRY.format(dtype='"U16"', shape="[2]", offsets="[0, 2]"), b"ab",
     "tensor 'x': data_offsets [0, 2] hold 2 bytes, but shape [2] of U16 needs 4 bytes"),
    ('{"a": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]}, '
     '"b": {"dtype": "U8", "shape": [2], "data_offsets": [1, 3]}}', b"abc",
     "tensors 'a' and 'b' overlap (bytes [0, 2) and [1, 3))"),
    ('{"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}, '
     '"a": {"dtype": "U8", "shape": [1], "data_offsets": [1, 2]}}', b"ab", "the header names 'a' twice"),
    ('{"__metadata__": {"k": 3}}', b"", "__metadata__ maps strings to strings, but 'k' is a JSON number"),
])
def test_malformed_files_raise_format_error(tmp_path, header, data, problem):
    path = hand_file(tmp_path / "bad.safetensors", header, data)
    with pytest.raises(FormatError) as e:
        load_file(path)
    assert f"safetensors file '{path}': {problem}" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_truncated_files_raise_format_error(tmp_path):
    good = tmp_path / "good.safetensors"
    save_file({"x": Tensor([1.0, 2.0])}, good)
    blob = good.read_bytes()
    (tmp_path / "short").write_bytes(blob[:5])
    with pytest.raises(FormatError, match="the file is 5 bytes, too short for the 8-byte header length"):
        load_file(tmp_path / "short")
    (tmp_path / "cut_header").write_bytes(blob[:20])
    with pytest.raises(FormatError, match="goes past the end of the file"):
        load_file(tmp_path / "cut_header")
    (tmp_path / "cut_data").write_bytes(blob[:-1])
    with pytest.raises(FormatError, match=r"data_offsets \[0, 8\] go past the end of the data \(7 bytes\)"):
        load_file(tmp_path / "cut_data")


def test_file_errors(tmp_path):
    with pytest.raises(FileError, match="cannot read '.*missing.safetensors': No such file or directory") as e:
        load_file(tmp_path / "missing.safetensors")
    assert isinstance(e.value, OSError)
    with pytest.raises(FileError, match="cannot write '.*nowhere/x.safetensors'"):
        save_file({"x": Tensor([1.0])}, tmp_path / "nowhere" / "x.safetensors")


def test_save_argument_errors(tmp_path):
    with pytest.raises(ArgumentError, match="a tensor cannot be named '__metadata__'"):
        save_file({"__metadata__": Tensor([1.0])}, tmp_path / "x.safetensors")
    with pytest.raises(TypeError, match="'x' is a list, not an onegrad Tensor"):
        save_file({"x": [1.0]}, tmp_path / "x.safetensors")
    with pytest.raises(TypeError, match="metadata maps str to str"):
        save_file({"x": Tensor([1.0])}, tmp_path / "x.safetensors", metadata={"epoch": 3})
    assert not (tmp_path / "x.safetensors").exists()


def test_exported_from_the_package():
    assert onegrad.safetensors.load_file is load_file
    assert onegrad.FormatError is FormatError and onegrad.FileError is FileError
