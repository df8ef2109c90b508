"""onegrad.data (src/nn/idx_file.h, fashion_mnist.h, data_loader.h): IDX files written here from the
format's description (raw and gzipped) against numpy, their error messages, the DataLoader against
a numpy gather of its own order, and Fashion-MNIST: the install message when it is missing, and
the real files against a numpy + gzip reader when Debian's dataset-fashion-mnist is installed.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python/test_data.py -q
"""
import gzip
import os
import struct
import time

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes
from onegrad.data import FASHION_MNIST_CLASSES, DataLoader, TensorDataset, load_fashion_mnist, load_idx
from onegrad.errors import ArgumentError, FileError, FormatError, ShapeError

# IDX type codes and the big-endian numpy dtype of their elements.
IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
DEBIAN_DIR = "/usr/share/datasets/fashion-mnist"


def idx_bytes(arr, code):
    """The IDX file of arr: magic (0, 0, type code, rank), big-endian uint32 dims, big-endian data."""
    return bytes([0, 0, code, arr.ndim]) + struct.pack(f">{arr.ndim}I", *arr.shape) + \
        np.ascontiguousarray(arr, dtype=IDX_TYPES[code]).tobytes()


def numpy_idx(path):
    """An independent IDX reader: gzip + numpy."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rb") as f:
        blob = f.read()
    code, ndim = blob[2], blob[3]
    dims = struct.unpack(f">{ndim}I", blob[4:4 + 4 * ndim])
    return np.frombuffer(blob[4 + 4 * ndim:], dtype=IDX_TYPES[code]).reshape(dims)


@pytest.mark.parametrize("code", sorted(IDX_TYPES))
@pytest.mark.parametrize("zipped", [False, True])
def test_load_idx_every_type(tmp_path, rng, code, zipped):
    np_dtype = np.dtype(IDX_TYPES[code]).newbyteorder("=")
    if np_dtype.kind == "f":
        arr = rng.standard_normal((3, 4, 2)).astype(np_dtype)
    else:
        info = np.iinfo(np_dtype)
        arr = rng.integers(info.min, info.max, size=(3, 4, 2), endpoint=True).astype(np_dtype)
    blob = idx_bytes(arr, code)
    path = tmp_path / ("x-idx3-ubyte.gz" if zipped else "x-idx3-ubyte")
    path.write_bytes(gzip.compress(blob) if zipped else blob)
    t = load_idx(path)
    assert t.shape == (3, 4, 2)
    assert t.dtype.name == np_dtype.name and t.device == "CPU"
    np.testing.assert_array_equal(t.numpy(), arr)
    np.testing.assert_array_equal(t.numpy(), numpy_idx(path))


def test_idx_errors_name_the_file(tmp_path):
    good = idx_bytes(np.arange(6, dtype=np.uint8).reshape(2, 3), 0x08)
    cases = {
        "magic": (b"\x01" + good[1:], "bad magic number 0x01 0x00 0x08 0x02"),
        "type": (good[:2] + b"\x0a" + good[3:], "bad magic number 0x00 0x00 0x0A 0x02"),
        "truncated": (good[:-1], "truncated: dimensions 2x3 of uint8 need 6 bytes of data, the file has 5"),
        "long": (good + b"\x00", "too long: dimensions 2x3 of uint8 need 6 bytes of data, the file has 7"),
        "gz_cut": (gzip.compress(good * 50)[:20], "the gzip data ends early (the file is truncated)"),
        "gz_bad": (b"\x1f\x8b\x08\x00" + b"\xff" * 30, "the gzip data is corrupt"),
    }
    for name, (blob, problem) in cases.items():
        path = tmp_path / name
        path.write_bytes(blob)
        with pytest.raises(FormatError) as e:
            load_idx(path)
        assert f"IDX file '{path}': {problem}" in str(e.value), name
    with pytest.raises(FileError, match="IDX: cannot read '.*nope': No such file or directory"):
        load_idx(tmp_path / "nope")


def samples(n):
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    y = np.arange(n, dtype=np.int64)
    return x, y


def test_data_loader_batches_in_order():
    x, y = samples(10)
    loader = DataLoader(TensorDataset(Tensor(x), Tensor(y)), batch_size=4)
    assert len(loader) == 3
    batches = list(loader)
    assert [b[1].numpy().tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    np.testing.assert_array_equal(batches[2][0].numpy(), x[8:])
    assert len(DataLoader([Tensor(x), Tensor(y)], batch_size=4, drop_last=True)) == 2
    single = list(DataLoader(Tensor(y), batch_size=6))  # a single Tensor yields Tensors
    assert isinstance(single[0], Tensor) and single[1].numpy().tolist() == [6, 7, 8, 9]
    from_numpy = list(DataLoader(x, batch_size=8))  # a numpy array is one tensor, not a list of rows
    np.testing.assert_array_equal(from_numpy[1].numpy(), x[8:])


def test_data_loader_shuffle_is_seeded_and_each_pass_is_the_next_epoch():
    x, y = samples(37)
    loader = DataLoader((Tensor(x), Tensor(y)), batch_size=5, shuffle=True, seed=3)
    again = DataLoader((Tensor(x), Tensor(y)), batch_size=5, shuffle=True, seed=3)
    other = DataLoader((Tensor(x), Tensor(y)), batch_size=5, shuffle=True, seed=4)
    assert loader.order(0) == again.order(0) != other.order(0)
    assert loader.order(0) != loader.order(1)
    for epoch in range(2):
        order = np.array(loader.order(epoch))
        assert sorted(order.tolist()) == list(range(37))
        got_x = np.concatenate([bx.numpy() for bx, _ in loader])
        np.testing.assert_array_equal(got_x, x[order])  # numpy's gather of the same order
    loader.set_epoch(0)
    first = next(iter(loader))
    np.testing.assert_array_equal(first[1].numpy(), y[np.array(again.order(0))[:5]])


MASK64 = (1 << 64) - 1


def splitmix64(state):
    """(new state, output) of splitmix64 (Steele, Lea, Flood 2014)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def model_order(n, seed, epoch):
    """The documented shuffle, written from its description: the stream starts at
    splitmix64(seed) ^ epoch; Fisher-Yates from the back, each index drawn uniformly by rejection."""
    state = splitmix64(seed)[1] ^ epoch
    out = list(range(n))
    for i in range(n, 1, -1):
        while True:
            state, r = splitmix64(state)
            if r < MASK64 - MASK64 % i:
                break
        j = r % i
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


@pytest.mark.parametrize("n,seed,epoch", [(10, 0, 0), (37, 3, 1), (1000, 2**63 + 5, 12)])
def test_the_shuffle_is_the_documented_one(n, seed, epoch):
    loader = DataLoader(Tensor(np.zeros(n, dtype=np.int32)), batch_size=7, shuffle=True, seed=seed)
    assert loader.order(epoch) == model_order(n, seed, epoch)


def test_data_loader_errors():
    x, y = samples(4)
    with pytest.raises(ShapeError, match="DataLoader: tensor 1 has 3 samples"):
        DataLoader([Tensor(x), Tensor(y[:3])], batch_size=2)
    with pytest.raises(ArgumentError, match="DataLoader: batch_size must be positive, got 0"):
        DataLoader([Tensor(x)], batch_size=0)
    with pytest.raises(TypeError, match="batch_size must be an int"):
        DataLoader([Tensor(x)], batch_size=2.5)


def test_a_missing_fashion_mnist_says_how_to_install_it(tmp_path, monkeypatch):
    with pytest.raises(FileError) as e:
        load_fashion_mnist(train=True, root=tmp_path)
    assert "apt-get install dataset-fashion-mnist" in str(e.value)
    assert f"no train-images-idx3-ubyte(.gz) in '{tmp_path}'" in str(e.value)
    monkeypatch.setenv("ONEGRAD_FASHION_MNIST", str(tmp_path / "empty"))
    with pytest.raises(FileError, match="apt-get install dataset-fashion-mnist"):
        load_fashion_mnist(train=False)
    with pytest.raises(FileError, match="apt-get install dataset-fashion-mnist"):
        DataLoader.fashion_mnist(train=False, batch_size=8)


def test_fashion_mnist_from_small_files(tmp_path):
    images = np.random.default_rng(0).integers(0, 256, size=(5, 28, 28), dtype=np.uint8)
    labels = np.array([9, 0, 3, 3, 1], dtype=np.uint8)
    (tmp_path / "t10k-images-idx3-ubyte.gz").write_bytes(gzip.compress(idx_bytes(images, 0x08)))
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(idx_bytes(labels, 0x08))
    data = load_fashion_mnist(train=False, root=tmp_path)
    assert data.images.shape == (5, 1, 28, 28) and data.images.dtype == dtypes.uint8
    assert data.labels.dtype == dtypes.int64
    np.testing.assert_array_equal(data.images.numpy()[:, 0], images)
    np.testing.assert_array_equal(data.labels.numpy(), labels)
    (xb, yb), = list(DataLoader.fashion_mnist(train=False, batch_size=8, root=tmp_path))
    np.testing.assert_array_equal(yb.numpy(), labels)
    assert FASHION_MNIST_CLASSES[0] == "T-shirt/top" and len(FASHION_MNIST_CLASSES) == 10


debian = pytest.mark.skipif(not os.path.exists(f"{DEBIAN_DIR}/train-images-idx3-ubyte.gz"),
                            reason="dataset-fashion-mnist is not installed")


@debian
def test_the_real_fashion_mnist():
    train = load_fashion_mnist(train=True)  # its load time is a benchmark's business, not a test's
    assert train.images.shape == (60000, 1, 28, 28) and train.labels.shape == (60000,)
    test = load_fashion_mnist(train=False)
    assert test.images.shape == (10000, 1, 28, 28) and test.labels.shape == (10000,)
    for split, prefix in ((train, "train"), (test, "t10k")):
        labels = split.labels.numpy()
        assert labels.min() == 0 and labels.max() == 9
        want_labels = numpy_idx(f"{DEBIAN_DIR}/{prefix}-labels-idx1-ubyte.gz")
        assert labels[0] == want_labels[0]
        np.testing.assert_array_equal(labels, want_labels)
    want_images = numpy_idx(f"{DEBIAN_DIR}/t10k-images-idx3-ubyte.gz")
    np.testing.assert_array_equal(test.images.numpy()[:, 0], want_images)


@debian
def test_a_fashion_mnist_loader_epoch():
    loader = DataLoader.fashion_mnist(train=False, batch_size=128, shuffle=True, seed=0)
    assert len(loader) == 79
    start = time.perf_counter()
    n = sum(yb.shape[0] for _, yb in loader)
    print(f"one epoch of 79 batches in {time.perf_counter() - start:.3f} s")
    assert n == 10000
