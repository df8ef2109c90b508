"""The losses of torch.nn.functional that have no Tensor method: smooth_l1_loss, huber_loss,
kl_div and cosine_embedding_loss, as compositions of Tensor ops (their gradients are autograd's).
The reduction names and the message for a bad one are the C++ losses' (src/tensor/loss.cpp)."""

import numpy as np

from ..errors import ArgumentError, ShapeError
from ..tensor import Tensor


def _check_reduction(op, reduction, allowed=("none", "mean", "sum")):
    if reduction not in allowed:
        raise ArgumentError(f"{op}: '{reduction}' is not a valid value for reduction ({', '.join(allowed)})")


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _pair(op, input, target):
    """target as a Tensor that broadcasts against input (torch warns and broadcasts, as mse_loss
    does here); shapes that do not broadcast are a ShapeError naming the loss."""
    target = target if isinstance(target, Tensor) else Tensor(target, dtype=input.dtype)
    try:
        np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
    except ValueError:
        raise ShapeError(f"{op}: input shape {input.shape} and target shape {target.shape} do not broadcast") from None
    return target


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5·d²/beta where |d| < beta, else |d| − 0.5·beta (d = input − target); beta = 0 is l1_loss."""
    from .functional import _reduction
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction("smooth_l1_loss", reduction)
    if beta < 0:
        raise ArgumentError(f"smooth_l1_loss: beta must be non-negative, got {beta}")
    target = _pair("smooth_l1_loss", input, target)
    d = (input - target).abs()
    if beta == 0:
        return _reduce(d, reduction)
    return _reduce((d < beta).where(d * d * (0.5 / beta), d - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """0.5·d² where |d| < delta, else delta·(|d| − 0.5·delta): smooth_l1_loss scaled by delta."""
    _check_reduction("huber_loss", reduction)
    if delta <= 0:
        raise ArgumentError(f"huber_loss: delta must be positive, got {delta}")
    target = _pair("huber_loss", input, target)
    d = (input - target).abs()
    return _reduce((d < delta).where(d * d * 0.5, (d - 0.5 * delta) * delta), reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target·(log target − input) pointwise, input holding log-probabilities (0 where target is
    0, as torch's xlogy); log_target: exp(target)·(target − input). reduction "batchmean" divides
    the sum by the batch size (the KL divergence proper); "mean" by the element count (torch's
    default, which it warns about)."""
    from .functional import _reduction
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction("kl_div", reduction, ("none", "batchmean", "mean", "sum"))
    target = _pair("kl_div", input, target)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        positive = target > 0
        safe = positive.where(target, 1.0)
        loss = positive.where(target * safe.log(), 0.0) - target * input
    if reduction == "batchmean":
        return loss.sum() / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction)


_COSINE_EPS = 1e-12  # torch's EPSILON in cosine_embedding_loss: keeps 0/0 away from zero vectors


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """1 − cos(x1, x2) where target is 1, max(0, cos(x1, x2) − margin) where it is −1 (0 for any
    other value), cos over the last axis of (N, D) or (D,) inputs."""
    from .functional import _reduction
    op = "cosine_embedding_loss"
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(op, reduction)
    if input1.ndim not in (1, 2) or tuple(input1.shape) != tuple(input2.shape):
        raise ShapeError(f"{op}: expected two 1-D or 2-D inputs of one shape, got {input1.shape} and {input2.shape}")
    target = target if isinstance(target, Tensor) else Tensor(target)
    if tuple(target.shape) != tuple(input1.shape[:-1]):
        raise ShapeError(f"{op}: target shape {target.shape} must be the inputs' shape {input1.shape} without the "
                         "last axis")
    dot = (input1 * input2).sum(-1)
    mag1 = (input1 * input1).sum(-1) + _COSINE_EPS
    mag2 = (input2 * input2).sum(-1) + _COSINE_EPS
    cos = dot / (mag1 * mag2).sqrt()
    # max(0, cos − margin) as torch's clamp_min: gradient 1 at the tie cos = margin
    hinge = (cos >= margin).where(cos - margin, 0.0)
    loss = (target == 1).where(1 - cos, 0.0) + (target == -1).where(hinge, 0.0)
    return _reduce(loss, reduction)
