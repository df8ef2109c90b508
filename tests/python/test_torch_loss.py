"""one_hot and the losses (src/tensor/loss.cpp) against torch 1.13's torch.nn.functional:
cross_entropy (class indices and class probabilities; weight, ignore_index, label_smoothing),
nll_loss, mse_loss, l1_loss, binary_cross_entropy and binary_cross_entropy_with_logits (weight,
pos_weight), for every reduction; values, dtypes and shapes; and torch's errors.

Documented differences (docs/tensor.md): class-index targets and one_hot take any int dtype (torch:
int64 only; onegrad's default int is int32); a class index out of range raises IndexError when the
result is realized (tests/python/test_index_errors.py); probabilities outside [0, 1] are not checked."""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from helpers import check_torch

import onegrad.nn.functional as OF
from onegrad import Tensor, dtypes
from onegrad.errors import ArgumentError, DTypeError, ShapeError

REDUCTIONS = ["none", "mean", "sum"]
# input shapes: (N, C), (C,), (N, C, d), (N, C, d1, d2)
CLASS_SHAPES = [(4, 5), (5,), (2, 4, 3), (2, 3, 2, 2)]


def class_target(rng, shape, ignore=False):
    """int64 class indices for an input of `shape`; some set to -100 when `ignore`."""
    c_axis = 0 if len(shape) == 1 else 1
    tshape = shape[:c_axis] + shape[c_axis + 1:]
    t = rng.integers(0, shape[c_axis], size=tshape).astype(np.int64)
    if ignore and t.size > 1:
        flat = t.reshape(-1)
        flat[rng.choice(t.size, size=max(1, t.size // 3), replace=False)] = -100
    return t


# ---- cross_entropy


@pytest.mark.parametrize("label_smoothing", [0.0, 0.1, 0.35])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", CLASS_SHAPES, ids=str)
def test_cross_entropy_indices(rng, shape, weighted, reduction, label_smoothing):
    x = rng.standard_normal(shape).astype(np.float32) * 3
    t = class_target(rng, shape, ignore=True)
    c = shape[0 if len(shape) == 1 else 1]
    w = rng.uniform(0.2, 2.0, size=c).astype(np.float32) if weighted else None
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t), None if w is None else torch.from_numpy(w),
                           reduction=reduction, label_smoothing=label_smoothing)
    got = OF.cross_entropy(Tensor(x), Tensor(t), None if w is None else Tensor(w), reduction=reduction,
                           label_smoothing=label_smoothing)
    check_torch(got, want, 1e-5, 1e-5)
    # the Tensor method is the same op
    check_torch(Tensor(x).cross_entropy(t, w, reduction=reduction, label_smoothing=label_smoothing), want, 1e-5, 1e-5)


@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", CLASS_SHAPES, ids=str)
def test_cross_entropy_probabilities(rng, shape, weighted, reduction, label_smoothing):
    x = rng.standard_normal(shape).astype(np.float32) * 3
    c_axis = 0 if len(shape) == 1 else 1
    p = rng.random(shape).astype(np.float32)
    p /= p.sum(axis=c_axis, keepdims=True)
    w = rng.uniform(0.2, 2.0, size=shape[c_axis]).astype(np.float32) if weighted else None
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(p), None if w is None else torch.from_numpy(w),
                           reduction=reduction, label_smoothing=label_smoothing)
    got = OF.cross_entropy(Tensor(x), Tensor(p), None if w is None else Tensor(w), reduction=reduction,
                           label_smoothing=label_smoothing)
    check_torch(got, want, 1e-5, 1e-5)


@pytest.mark.parametrize("ignore_index", [-100, 0, 2])
def test_cross_entropy_ignore_index(rng, ignore_index):
    x = rng.standard_normal((6, 4)).astype(np.float32)
    t = np.array([0, 2, 2, 1, 3, 0], np.int64)
    for reduction in REDUCTIONS:
        want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t), ignore_index=ignore_index,
                               reduction=reduction, label_smoothing=0.1)
        check_torch(OF.cross_entropy(Tensor(x), Tensor(t), ignore_index=ignore_index, reduction=reduction,
                                 label_smoothing=0.1), want, 1e-5, 1e-6)


def test_cross_entropy_all_ignored_is_nan():
    x = np.zeros((3, 4), np.float32)
    t = np.full(3, -100, np.int64)
    check_torch(OF.cross_entropy(Tensor(x), Tensor(t)), F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t)))


def test_cross_entropy_float64_and_int32_targets(rng):
    x = rng.standard_normal((5, 3))
    t = np.array([0, 1, 2, 1, 0])
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t.astype(np.int64)))
    check_torch(OF.cross_entropy(Tensor(x), Tensor(t.astype(np.int64))), want, 1e-12, 1e-12)
    # onegrad's default int is int32: accepted as class indices (torch wants int64; documented)
    check_torch(OF.cross_entropy(Tensor(x), Tensor(t.astype(np.int32))), want, 1e-12, 1e-12)


def test_cross_entropy_extreme_logits():
    x = np.array([[1000, 0, -1000], [-1e4, -1e4, 1e4]], np.float32)
    t = np.array([1, 0], np.int64)
    for reduction in REDUCTIONS:
        want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t), reduction=reduction)
        check_torch(OF.cross_entropy(Tensor(x), Tensor(t), reduction=reduction), want, 1e-5, 1e-3)


# ---- nll_loss


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore", [False, True])
@pytest.mark.parametrize("shape", CLASS_SHAPES, ids=str)
def test_nll_loss(rng, shape, ignore, weighted, reduction):
    c_axis = 0 if len(shape) == 1 else 1
    x = torch.log_softmax(torch.from_numpy(rng.standard_normal(shape).astype(np.float32)), c_axis).numpy()
    t = class_target(rng, shape, ignore=ignore)
    w = rng.uniform(0.2, 2.0, size=shape[c_axis]).astype(np.float32) if weighted else None
    want = F.nll_loss(torch.from_numpy(x), torch.from_numpy(t), None if w is None else torch.from_numpy(w),
                      reduction=reduction)
    check_torch(OF.nll_loss(Tensor(x), Tensor(t), None if w is None else Tensor(w), reduction=reduction), want, 1e-5, 1e-6)


@pytest.mark.filterwarnings("ignore:size_average and reduce args will be deprecated")
def test_legacy_size_average_reduce(rng):
    x = rng.standard_normal((4, 3)).astype(np.float32)
    t = np.array([0, 1, 2, 0], np.int64)
    for sa, rd in ((False, None), (None, False), (True, True)):
        want = F.nll_loss(torch.from_numpy(x), torch.from_numpy(t), size_average=sa, reduce=rd)
        check_torch(OF.nll_loss(Tensor(x), Tensor(t), size_average=sa, reduce=rd), want, 1e-6, 1e-6)


# ---- mse / l1


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape,tshape", [((7,), (7,)), ((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4)), ((3, 4), (4,)),
                                          ((2, 1, 3), (4, 1))], ids=str)
@pytest.mark.parametrize("op", ["mse_loss", "l1_loss"])
def test_mse_l1(rng, op, shape, tshape, reduction):
    x = rng.standard_normal(shape).astype(np.float32)
    t = rng.standard_normal(tshape).astype(np.float32)
    with warnings.catch_warnings():  # torch warns that a target of another shape broadcasts
        warnings.simplefilter("ignore")
        want = getattr(F, op)(torch.from_numpy(x), torch.from_numpy(t), reduction=reduction)
    check_torch(getattr(OF, op)(Tensor(x), Tensor(t), reduction=reduction), want, 1e-5, 1e-6)
    check_torch(getattr(Tensor(x), op)(Tensor(t), reduction=reduction), want, 1e-5, 1e-6)


@pytest.mark.parametrize("op", ["mse_loss", "l1_loss"])
def test_mse_l1_float64(rng, op):
    x, t = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    check_torch(getattr(OF, op)(Tensor(x), Tensor(t)), getattr(F, op)(torch.from_numpy(x), torch.from_numpy(t)),
            1e-12, 1e-12)


# ---- binary cross entropy


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weight_shape", [None, "same", "last"])
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_binary_cross_entropy(rng, shape, weight_shape, reduction):
    x = rng.uniform(0.01, 0.99, size=shape).astype(np.float32)
    x.reshape(-1)[:2] = [0.0, 1.0]  # log clamps at -100
    t = rng.random(shape).astype(np.float32)
    t.reshape(-1)[:2] = [1.0, 0.0]
    w = None if weight_shape is None else rng.uniform(0.5, 2, size=shape if weight_shape == "same" else shape[-1:]) \
        .astype(np.float32)
    want = F.binary_cross_entropy(torch.from_numpy(x), torch.from_numpy(t), None if w is None else torch.from_numpy(w),
                                  reduction=reduction)
    check_torch(OF.binary_cross_entropy(Tensor(x), Tensor(t), None if w is None else Tensor(w), reduction=reduction),
            want, 1e-5, 1e-4)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("pos_weight", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2)], ids=str)
def test_binary_cross_entropy_with_logits(rng, shape, weighted, pos_weight, reduction):
    x = (rng.standard_normal(shape) * 5).astype(np.float32)
    x.reshape(-1)[:2] = [-150.0, 150.0]  # no overflow
    t = rng.random(shape).astype(np.float32)
    w = rng.uniform(0.5, 2, size=shape).astype(np.float32) if weighted else None
    pw = rng.uniform(0.5, 3, size=shape[-1:]).astype(np.float32) if pos_weight else None
    tt = lambda a: None if a is None else torch.from_numpy(a)  # noqa: E731
    ot = lambda a: None if a is None else Tensor(a)  # noqa: E731
    want = F.binary_cross_entropy_with_logits(tt(x), tt(t), tt(w), reduction=reduction, pos_weight=tt(pw))
    check_torch(OF.binary_cross_entropy_with_logits(ot(x), ot(t), ot(w), reduction=reduction, pos_weight=ot(pw)),
            want, 1e-5, 1e-5)


# ---- one_hot


@pytest.mark.parametrize("num_classes", [-1, 7])
@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 2, 2), ()], ids=str)
def test_one_hot(rng, shape, num_classes):
    t = rng.integers(0, 6, size=shape).astype(np.int64)
    want = F.one_hot(torch.from_numpy(t), num_classes)
    check_torch(OF.one_hot(Tensor(t), num_classes), want)
    check_torch(Tensor(t).one_hot(num_classes), want)


def test_one_hot_int32_input():
    t = np.array([2, 0, 1], np.int32)
    check_torch(Tensor(t).one_hot(), F.one_hot(torch.from_numpy(t.astype(np.int64))))


# ---- errors: what torch rejects, onegrad rejects


def both_raise(torch_fn, torch_exc, og_fn, og_exc, match):
    with pytest.raises(torch_exc):
        torch_fn()
    with pytest.raises(og_exc, match=match):
        og_fn()


X35 = np.zeros((3, 5), np.float32)


@pytest.mark.parametrize("op", ["cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
                                "binary_cross_entropy_with_logits"])
def test_bad_reduction(op):
    tgt = np.array([1, 0, 2], np.int64) if op in ("cross_entropy", "nll_loss") else np.full((3, 5), 0.5, np.float32)
    x = np.full((3, 5), 0.5, np.float32)
    both_raise(lambda: getattr(F, op)(torch.from_numpy(x), torch.from_numpy(tgt), reduction="avg"), ValueError,
               lambda: getattr(OF, op)(Tensor(x), Tensor(tgt), reduction="avg"), ArgumentError,
               f"{op}: 'avg' is not a valid value for reduction")


@pytest.mark.filterwarnings("ignore:Using a target size")
def test_loss_errors():
    t = torch.from_numpy
    both_raise(lambda: F.cross_entropy(t(X35), torch.tensor([1, 0])), ValueError,
               lambda: OF.cross_entropy(Tensor(X35), Tensor(np.array([1, 0], np.int64))), ShapeError,
               r"cross_entropy: expected input batch_size \(3\) to match target batch_size \(2\)")
    both_raise(lambda: F.nll_loss(t(X35), torch.zeros(3)), RuntimeError,
               lambda: OF.nll_loss(Tensor(X35), Tensor(np.zeros(3, np.float32))), DTypeError,
               "nll_loss: target must hold class indices")
    both_raise(lambda: F.cross_entropy(t(X35), torch.zeros(3, dtype=torch.long), weight=torch.ones(3)), RuntimeError,
               lambda: OF.cross_entropy(Tensor(X35), Tensor(np.zeros(3, np.int64)), Tensor(np.ones(3, np.float32))),
               ShapeError, r"weight tensor should be defined either for all 5 classes or no classes .* \(3,\)")
    both_raise(lambda: F.cross_entropy(t(X35), torch.zeros(3, dtype=torch.long), label_smoothing=1.5), RuntimeError,
               lambda: OF.cross_entropy(Tensor(X35), Tensor(np.zeros(3, np.int64)), label_smoothing=1.5),
               ArgumentError, "label_smoothing must be between 0.0 and 1.0")
    both_raise(lambda: F.cross_entropy(t(X35), t(X35), ignore_index=1), RuntimeError,
               lambda: OF.cross_entropy(Tensor(X35), Tensor(X35), ignore_index=1), ArgumentError,
               "ignore_index is not supported")
    both_raise(lambda: F.cross_entropy(t(X35), torch.zeros(3, 5, dtype=torch.long)), RuntimeError,
               lambda: OF.cross_entropy(Tensor(X35), Tensor(np.zeros((3, 5), np.int64))), DTypeError,
               "holds class probabilities and must be float")
    both_raise(lambda: F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.long)), RuntimeError,
               lambda: OF.nll_loss(Tensor(np.zeros((2, 3, 4), np.float32)), Tensor(np.zeros((2, 5), np.int64))),
               ShapeError, r"expected target shape \(2, 4\) for input shape \(2, 3, 4\), got \(2, 5\)")
    both_raise(lambda: F.mse_loss(torch.zeros(3, 2), torch.zeros(4)), RuntimeError,
               lambda: OF.mse_loss(Tensor(np.zeros((3, 2), np.float32)), Tensor(np.zeros(4, np.float32))),
               ShapeError, r"mse_loss: cannot broadcast shapes \(3, 2\) and \(4,\)")
    both_raise(lambda: F.l1_loss(torch.zeros(3, 2), torch.zeros(4)), RuntimeError,
               lambda: OF.l1_loss(Tensor(np.zeros((3, 2), np.float32)), Tensor(np.zeros(4, np.float32))),
               ShapeError, r"l1_loss: cannot broadcast shapes")
    both_raise(lambda: F.binary_cross_entropy(torch.rand(3, 1), torch.rand(3)), ValueError,
               lambda: OF.binary_cross_entropy(Tensor(np.zeros((3, 1), np.float32)), Tensor(np.zeros(3, np.float32))),
               ShapeError, r"binary_cross_entropy: target shape \(3,\) must equal input shape \(3, 1\)")
    both_raise(lambda: F.binary_cross_entropy_with_logits(torch.rand(3, 1), torch.rand(3)), ValueError,
               lambda: OF.binary_cross_entropy_with_logits(Tensor(np.zeros((3, 1), np.float32)),
                                                           Tensor(np.zeros(3, np.float32))),
               ShapeError, r"target shape \(3,\) must equal input shape \(3, 1\)")
    both_raise(lambda: F.binary_cross_entropy_with_logits(torch.rand(3, 2), torch.rand(3, 2), pos_weight=torch.rand(3)),
               RuntimeError,
               lambda: OF.binary_cross_entropy_with_logits(Tensor(np.zeros((3, 2), np.float32)),
                                                           Tensor(np.zeros((3, 2), np.float32)),
                                                           pos_weight=Tensor(np.ones(3, np.float32))),
               ShapeError, r"pos_weight of shape \(3,\) does not broadcast to input shape \(3, 2\)")


def test_one_hot_errors():
    both_raise(lambda: F.one_hot(torch.tensor([1.0, 2.0])), RuntimeError,
               lambda: OF.one_hot(Tensor(np.array([1.0, 2.0], np.float32))), DTypeError,
               "one_hot: expects a tensor of class indices")
    both_raise(lambda: F.one_hot(torch.tensor([1, -2])), RuntimeError,
               lambda: OF.one_hot(Tensor(np.array([1, -2], np.int64))), ArgumentError,
               "one_hot: class values must be non-negative")
    both_raise(lambda: F.one_hot(torch.tensor([], dtype=torch.long)), RuntimeError,
               lambda: OF.one_hot(Tensor(np.zeros(0, np.int64))), ShapeError,
               "one_hot: cannot infer the number of classes from an empty tensor")
    both_raise(lambda: F.one_hot(torch.tensor([1, 2]), -2), RuntimeError,
               lambda: OF.one_hot(Tensor(np.array([1, 2], np.int64)), -2), ArgumentError,
               "one_hot: num_classes must be >= 0")
