"""C++ errors arrive as onegrad's Python exceptions with the C++ message: each case checks the
exception type, that it is also the builtin a Python user would catch, and that the message names
the op and the shapes (or dtypes, or device) involved."""

import re

import pytest

import onegrad
from onegrad import Tensor, dtypes

A = Tensor.zeros(2, 3)

# (what it does, exception type, the texts the message must contain)
SHAPE_ERRORS = [
    (lambda: A + Tensor.zeros(4), ["add", "(2, 3)", "(4,)"]),
    (lambda: A * Tensor.zeros(3, 1, 2), ["mul", "(2, 3)", "(3, 1, 2)"]),
    (lambda: A < Tensor.zeros(2), ["lt", "(2, 3)", "(2,)"]),
    (lambda: A.where(Tensor.zeros(4), 0.0), ["where", "(2, 3)", "(4,)"]),
    (lambda: A.reshape(4, 2), ["reshape", "(2, 3)", "(4, 2)"]),
    (lambda: A.reshape(-1, -1), ["reshape", "(2, 3)", "(-1, -1)"]),
    (lambda: A.reshape(4, -1), ["reshape", "(2, 3)", "(4, -1)"]),
    (lambda: A.permute(0, 0), ["permute", "(0, 0)", "(2, 3)"]),
    (lambda: A.permute(0, 2), ["permute", "(0, 2)", "(2, 3)"]),
    (lambda: A.permute(0), ["permute", "(0,)", "(2, 3)"]),
    (lambda: A.transpose(0, 5), ["transpose", "5", "(2, 3)"]),
    (lambda: A.sum(2), ["sum", "axis 2", "(2, 3)"]),
    (lambda: A.sum(-3), ["sum", "axis -3", "(2, 3)"]),
    (lambda: A.max((0, 5)), ["max", "axis 5", "(2, 3)"]),
    (lambda: A.mean(axis=3, keepdim=True), ["mean", "axis 3", "(2, 3)"]),
    (lambda: A.sum((1, -1)), ["sum", "twice"]),
    (lambda: A.softmax(2), ["2", "(2, 3)"]),
    (lambda: A.unsqueeze(4), ["unsqueeze", "4", "(2, 3)"]),
    (lambda: A.squeeze(2), ["squeeze", "2", "(2, 3)"]),
    (lambda: A.flatten(2), ["flatten", "2", "(2, 3)"]),
    (lambda: A.flip(2), ["flip", "2", "(2, 3)"]),
    (lambda: A.pad(((0, 0), (0, 0), (1, 1))), ["pad", "(2, 3)"]),
    (lambda: A.shrink(((0, 3), (0, 3))), ["shrink", "(0, 3)", "(2, 3)"]),
    (lambda: A.shrink(((1, 0), None)), ["shrink", "(1, 0)", "(2, 3)"]),
    (lambda: A.shrink(((0, 2), (-1, 2))), ["shrink", "(-1, 2)", "(2, 3)"]),
    (lambda: A.expand(4, 3), ["expand", "(2, 3)", "(4, 3)"]),
    (lambda: A.expand(3), ["expand", "(2, 3)", "(3,)"]),
    (lambda: A @ Tensor.zeros(2, 3), ["matmul", "(2, 3)"]),
    (lambda: Tensor.cat(A, Tensor.zeros(2, 4)), ["cat", "(2, 3)", "(2, 4)"]),
    (lambda: Tensor.cat(A, A, dim=2), ["cat", "2", "(2, 3)"]),
    (lambda: Tensor.stack(A, Tensor.zeros(2, 4)), ["stack", "(2, 3)", "(2, 4)"]),
    (lambda: Tensor.zeros(2, -1), ["-1", "(2, -1)"]),
]


@pytest.mark.parametrize("i", range(len(SHAPE_ERRORS)))
def test_shape_errors(i):
    fn, texts = SHAPE_ERRORS[i]
    with pytest.raises(onegrad.ShapeError) as info:
        fn()
    assert isinstance(info.value, ValueError) and isinstance(info.value, onegrad.Error)
    for text in texts:
        assert text in str(info.value), f"{text!r} not in {str(info.value)!r}"


DTYPE_ERRORS = [
    (lambda: Tensor([1.0]) & Tensor([1.0]), ["bitwise_and", "float32"]),
    (lambda: Tensor([1.5]) | 1, ["bitwise_or", "float32"]),
    (lambda: Tensor([1.0], dtype=dtypes.float16) << 1, ["lshift", "float16"]),
    (lambda: Tensor([True]) >> Tensor([True]), ["rshift", "bool"]),
    (lambda: Tensor([True]) - Tensor([False]), ["sub", "bool"]),
    (lambda: -Tensor([True]), ["neg", "bool"]),
    (lambda: ~Tensor([1.0]), ["bitwise_not", "float32"]),
    (lambda: Tensor([True]) // Tensor([True]), ["idiv", "bool"]),
    (lambda: Tensor([True]) ** Tensor([True]), ["pow", "bool"]),
    (lambda: Tensor([1]).bitcast(dtypes.int64), ["bitcast", "int32", "int64"]),
    (lambda: Tensor([1], dtype="float17"), ["float17"]),
    (lambda: Tensor([1]).cast("index"), ["index"]),
]


@pytest.mark.parametrize("i", range(len(DTYPE_ERRORS)))
def test_dtype_errors(i):
    fn, texts = DTYPE_ERRORS[i]
    with pytest.raises(onegrad.DTypeError) as info:
        fn()
    assert isinstance(info.value, TypeError) and isinstance(info.value, onegrad.Error)
    for text in texts:
        assert text in str(info.value), f"{text!r} not in {str(info.value)!r}"


@pytest.mark.parametrize("make", [
    lambda d: Tensor([1, 2], device=d),
    lambda d: Tensor(1.5, device=d),
    lambda d: Tensor.zeros(2, device=d),
    lambda d: Tensor.ones(2, device=d),
    lambda d: Tensor.full((2,), 1, device=d),
    lambda d: Tensor.empty(2, device=d),
    lambda d: Tensor.arange(3, device=d),
])
@pytest.mark.parametrize("device", ["GPU", "TPU:0", "CPU:x", ""])
def test_unknown_device(make, device):
    with pytest.raises(onegrad.DeviceError) as info:
        make(device)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, onegrad.Error)
    assert f"'{device}'" in str(info.value)


def test_index_errors_are_index_and_shape_errors():
    with pytest.raises(onegrad.IndexShapeError) as info:
        A[2]
    e = info.value
    assert isinstance(e, IndexError) and isinstance(e, onegrad.ShapeError) and isinstance(e, ValueError)
    assert re.search(r"getitem: index 2 is out of bounds for axis 0 with size 2", str(e))


def test_exception_classes():
    assert issubclass(onegrad.ShapeError, onegrad.Error) and issubclass(onegrad.ShapeError, ValueError)
    assert issubclass(onegrad.DTypeError, TypeError)
    for cls in (onegrad.DeviceError, onegrad.CompileError, onegrad.InternalError, onegrad.VerifyError,
                onegrad.RewriteError):
        assert issubclass(cls, RuntimeError) and issubclass(cls, onegrad.Error)
    assert issubclass(onegrad.ParseError, ValueError)
    assert not issubclass(onegrad.Error, RuntimeError)  # a shape mistake is not a runtime failure
    assert onegrad.errors.ShapeError is onegrad.ShapeError


def test_python_side_errors():
    with pytest.raises(TypeError):
        A + "a"
    with pytest.raises(TypeError):
        A.reshape(2.5, 2)
    with pytest.raises(onegrad.ShapeError, match="pad"):
        A.pad(((0, 1, 2), (0, 0)))
    with pytest.raises(onegrad.ShapeError, match="even"):
        A.pad((1, 2, 3))
    with pytest.raises(onegrad.ShapeError, match="matmul"):
        Tensor(1.0) @ A
    with pytest.raises(ValueError):
        Tensor([1]) + 2**70  # fits no onegrad integer type
    with pytest.raises(TypeError):
        Tensor.stack(A, [1, 2])
